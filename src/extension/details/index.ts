import * as vscode from 'vscode';
import { PrivacyPolicy } from '../../core/privacy';
import { neutraliseUiText } from '../../core/text';
import type { CommandHandler } from '../shared/commands';
import { config } from '../shared/config';
import type { Ctx } from '../ctx';
import { HostPanel } from './hostPanel';
import { HOST_VIEW_TYPE, WHOIS_VIEW_TYPE, type DetailsCommandId } from './ids';
import { parseDomain, parseIp } from './targets';
import { WhoisSnapshotDocs } from './whoisDocs';
import { WhoisPanel } from './whoisPanel';

/** The details feature once loaded; lazy.ts registers its commands, serializers and documents. */
export interface DetailsFeature {
  commands: Record<DetailsCommandId, CommandHandler>;
  /** The read-only snapshot documents the whois diff uses. */
  docs: WhoisSnapshotDocs;
  /** Restores a panel of `viewType` after a reload from its page state, or disposes it. */
  restore(viewType: string, panel: vscode.WebviewPanel, state: unknown): void;
}

/**
 * The details pages: `odin.openHostDetails` (an IP) and `odin.openWhoisDetails` (a
 * domain), their restore after a reload, and the read-only snapshot documents the whois
 * diff uses. The entry of dist/details.js, loaded on first use (see lazy.ts).
 */
export function createDetails(ctx: Ctx): DetailsFeature {
  const docs = ctx.subscriptions.add(new WhoisSnapshotDocs());
  ctx.subscriptions.add({
    dispose: () => {
      for (const p of HostPanel.all()) p.dispose();
      for (const p of WhoisPanel.all()) p.dispose();
    },
  });

  return {
    docs,
    // Restored panels carry only their IP / domain in the page state (never data or the key),
    // and the state is parsed as strictly as a command argument.
    restore: (viewType, panel, state) => {
      if (viewType === HOST_VIEW_TYPE) {
        const ip = parseIp(stateId(state));
        if (ip && mayLookUp(ip.includes(':') ? 'ipv6' : 'ipv4', ip, true))
          return void HostPanel.revive(ctx, panel, ip);
      } else if (viewType === WHOIS_VIEW_TYPE) {
        const domain = parseDomain(stateId(state));
        if (domain && mayLookUp('domain', domain, true))
          return void WhoisPanel.revive(ctx, docs, panel, domain);
      }
      panel.dispose();
    },
    commands: {
      'odin.openHostDetails': async (arg?: unknown) => {
        const ip = arg === undefined ? await askIp() : parseIp(arg);
        if (arg !== undefined && ip === undefined) {
          void vscode.window.showWarningMessage('ODIN: that is not an IPv4 or IPv6 address.');
          return;
        }
        if (ip && mayLookUp(ip.includes(':') ? 'ipv6' : 'ipv4', ip)) HostPanel.show(ctx, ip);
      },
      'odin.openWhoisDetails': async (arg?: unknown) => {
        const domain = arg === undefined ? await askDomain() : parseDomain(arg);
        if (arg !== undefined && domain === undefined) {
          void vscode.window.showWarningMessage('ODIN: that is not a domain name.');
          return;
        }
        if (domain && mayLookUp('domain', domain)) WhoisPanel.show(ctx, docs, domain);
      },
    },
  };
}

/**
 * The privacy filter (SECURITY.md): addresses that are not globally reachable and internal
 * names are never sent, unless the user allowed them; workspace and user deny lists win.
 */
function mayLookUp(kind: 'ipv4' | 'ipv6' | 'domain', value: string, quiet = false): boolean {
  const deny = config.privacyDeny();
  const decision = new PrivacyPolicy({
    userAllow: config.privacyAllow(),
    userDeny: deny.user,
    workspaceDeny: deny.workspace,
  }).check({ kind, value });
  if (!decision.allowed && !quiet) {
    void vscode.window.showWarningMessage(
      `ODIN: ${neutraliseUiText(value, 100)} is not looked up: ${neutraliseUiText(decision.reason, 200)}.`,
    );
  }
  return decision.allowed;
}

function stateId(state: unknown): unknown {
  return typeof state === 'object' && state !== null ? (state as { id?: unknown }).id : undefined;
}

async function askIp(): Promise<string | undefined> {
  const v = await vscode.window.showInputBox({
    title: 'ODIN: Host Details',
    prompt: 'IPv4 or IPv6 address',
    placeHolder: '45.33.32.156',
    ignoreFocusOut: true,
    validateInput: (text) =>
      text.trim() === '' || parseIp(text) ? undefined : 'Enter an IPv4 or IPv6 address.',
  });
  return v === undefined ? undefined : parseIp(v);
}

async function askDomain(): Promise<string | undefined> {
  const v = await vscode.window.showInputBox({
    title: 'ODIN: Whois Details',
    prompt: 'Domain name',
    placeHolder: 'example.com',
    ignoreFocusOut: true,
    validateInput: (text) =>
      text.trim() === '' || parseDomain(text) ? undefined : 'Enter a domain name such as example.com.',
  });
  return v === undefined ? undefined : parseDomain(v);
}
