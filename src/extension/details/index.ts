import * as vscode from 'vscode';
import type { Target } from '../../core/gate';
import type { CommandsOf } from '../commands';
import type { Ctx } from '../ctx';
import { HostPanel } from './hostPanel';
import { HOST_VIEW_TYPE, WHOIS_VIEW_TYPE } from './ids';
import { OpenPanels } from './panel';
import { parseDomain, parseIp } from './targets';
import { WhoisSnapshotDocs } from './whoisDocs';
import { WhoisPanel } from './whoisPanel';

/** The details feature once loaded; lazy.ts registers its commands, serializers and documents. */
export interface DetailsFeature {
  commands: CommandsOf<'details'>;
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
  const hosts = ctx.subscriptions.add(new OpenPanels<HostPanel>());
  const domains = ctx.subscriptions.add(new OpenPanels<WhoisPanel>());

  return {
    docs,
    // Restored panels carry only their IP / domain in the page state (never data or the key),
    // and the state is parsed as strictly as a command argument.
    // Restoring is automatic (no user action): it goes through the gate as such. When the
    // mode or Restricted Mode blocks it, the page shows what the cache holds and a button that
    // loads the rest; a value the privacy lists refuse closes the panel.
    restore: (viewType, panel, state) => {
      const isHost = viewType === HOST_VIEW_TYPE;
      if (!isHost && viewType !== WHOIS_VIEW_TYPE) return void panel.dispose();
      const id = isHost ? parseIp(stateId(state)) : parseDomain(stateId(state));
      const d = id
        ? ctx.gate.decide(id, {
            trigger: 'automatic',
            source: 'restoredPage',
            accept: [isHost ? 'ip' : 'domain'],
          })
        : undefined;
      const target = d && ('target' in d ? d.target : d.refusal.target);
      if (!d || !target) return void panel.dispose();
      const blocked = 'target' in d ? undefined : MODE_BLOCKS.has(d.refusal.code) ? d.refusal.reason : null;
      if (blocked === null) return void panel.dispose();
      if (isHost) HostPanel.revive(ctx, hosts, panel, target.value, blocked);
      else WhoisPanel.revive(ctx, domains, docs, panel, target.value, blocked);
    },
    commands: {
      'odin.openHostDetails': async (arg) => {
        const ip = arg === undefined ? await askIp() : parseIp(arg);
        if (arg !== undefined && ip === undefined) {
          void vscode.window.showWarningMessage(vscode.l10n.t('ODIN: that is not an IPv4 or IPv6 address.'));
          return;
        }
        const t = ip ? await explicitTarget(ctx, ip, 'ip') : undefined;
        if (t) HostPanel.show(ctx, hosts, t.value);
      },
      'odin.openWhoisDetails': async (arg) => {
        const domain = arg === undefined ? await askDomain() : parseDomain(arg);
        if (arg !== undefined && domain === undefined) {
          void vscode.window.showWarningMessage(vscode.l10n.t('ODIN: that is not a domain name.'));
          return;
        }
        const t = domain ? await explicitTarget(ctx, domain, 'domain') : undefined;
        if (t) WhoisPanel.show(ctx, domains, docs, t.value);
      },
    },
  };
}

/** Verdicts that a user action can lift (the Load button); privacy refusals are final. */
const MODE_BLOCKS: ReadonlySet<string> = new Set(['off', 'untrusted', 'needs-consent', 'on-command']);

/** The gate for an explicit open: says why when refused, asks first in Restricted Mode. */
async function explicitTarget(ctx: Ctx, value: string, kind: 'ip' | 'domain'): Promise<Target | undefined> {
  const d = await ctx.gate.decide(value, { trigger: 'explicit', source: 'command', accept: [kind] });
  return 'target' in d ? d.target : undefined;
}

function stateId(state: unknown): unknown {
  return typeof state === 'object' && state !== null ? (state as { id?: unknown }).id : undefined;
}

const askIp = (): Promise<string | undefined> =>
  ask(parseIp, {
    title: vscode.l10n.t('ODIN: Host Details'),
    prompt: vscode.l10n.t('IPv4 or IPv6 address'),
    placeHolder: '45.33.32.156',
    invalid: vscode.l10n.t('Enter an IPv4 or IPv6 address.'),
  });

const askDomain = (): Promise<string | undefined> =>
  ask(parseDomain, {
    title: vscode.l10n.t('ODIN: Whois Details'),
    prompt: vscode.l10n.t('Domain name'),
    placeHolder: 'example.com',
    invalid: vscode.l10n.t('Enter a domain name such as example.com.'),
  });

/** An input box for a value `parse` accepts (it says `invalid` until then); the parsed value. */
async function ask(
  parse: (text: string) => string | undefined,
  box: { title: string; prompt: string; placeHolder: string; invalid: string },
): Promise<string | undefined> {
  const v = await vscode.window.showInputBox({
    title: box.title,
    prompt: box.prompt,
    placeHolder: box.placeHolder,
    ignoreFocusOut: true,
    validateInput: (text) => (text.trim() === '' || parse(text) ? undefined : box.invalid),
  });
  return v === undefined ? undefined : parse(v);
}
