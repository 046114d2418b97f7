import * as vscode from 'vscode';
import { detect, detectAt } from '../../core/detect';
import { neutraliseUiText } from '../../core/text/inert';
import type { CommandsOf } from '../commands';
import { toAbortSignal } from '../shared/abort';
import { config } from '../shared/config';
import type { Ctx } from '../ctx';
import { indicatorAt } from './hoverProvider';
import { buildCard } from './lookups';
import { targetIndicator, type Indicator } from './policy';
import { runCommand } from '../shared/runCommand';

const MAX_ARG_CHARS = 300;

/**
 * A command argument that must be exactly one IP, CIDR block or domain name (hover links
 * pass one; anything else, including objects and long strings, is refused).
 */
export function parseIndicatorArg(arg: unknown): Indicator | undefined {
  if (typeof arg !== 'string' || arg.length === 0 || arg.length > MAX_ARG_CHARS) return undefined;
  const text = arg.trim();
  const hits = detect(text, { mode: 'text' });
  return hits.length === 1 && hits[0].start === 0 && hits[0].end === text.length ? hits[0] : undefined;
}

/** The indicator the editor points at: the first one in the selection, else the one under the cursor. */
function fromEditor(): { indicator: Indicator; editor: vscode.TextEditor } | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const sel = editor.selection;
  if (!sel.isEmpty) {
    const text = editor.document.getText(sel).slice(0, 10_000);
    const hit = detect(text, { mode: 'text', limit: 1 })[0] ?? detectAt(text, 0);
    return hit ? { indicator: hit, editor } : undefined;
  }
  const found = indicatorAt(editor.document, sel.active);
  return found ? { indicator: found.indicator, editor } : undefined;
}

/** `odin.lookup` and `odin.resumeLookups`. */
export function hoverCommands(ctx: Ctx): Pick<CommandsOf<'lookup'>, 'odin.lookup' | 'odin.resumeLookups'> {
  return {
    'odin.lookup': async (arg) => {
      let ind: Indicator | undefined;
      let editor: vscode.TextEditor | undefined;
      // No argument (palette) or a URI (editor context menu): the editor's selection or
      // cursor. Anything else must be exactly one indicator string.
      if (arg !== undefined && !(arg instanceof vscode.Uri)) {
        ind = parseIndicatorArg(arg);
        if (!ind) {
          void vscode.window.showWarningMessage(
            vscode.l10n.t('ODIN: that is not an IP address, CIDR block or domain name.'),
          );
          return;
        }
      } else {
        const found = fromEditor();
        if (!found) {
          void vscode.window.showInformationMessage(
            vscode.l10n.t(
              'ODIN: put the cursor on an IP address, CIDR block or domain name (or select one), then run this again.',
            ),
          );
          return;
        }
        ({ indicator: ind, editor } = found);
      }
      // The one ask of the gate for this request: it says why when refused (privacy, "off")
      // and asks first in Restricted Mode; what is sent is its target.
      const d = await ctx.gate.decide(ind.value, { trigger: 'explicit', source: 'command' });
      if ('refusal' in d) return;
      if (!ctx.keys.get()) {
        const choice = await vscode.window.showWarningMessage(
          vscode.l10n.t('ODIN: no API key is set.'),
          vscode.l10n.t('Set API Key'),
          vscode.l10n.t('Try with Demo Data'),
        );
        if (choice === vscode.l10n.t('Set API Key')) await runCommand('odin.setApiKey');
        if (choice === vscode.l10n.t('Try with Demo Data')) await runCommand('odin.useDemoData');
        return;
      }
      const target = targetIndicator(ind, d.target);
      const value = target.value;

      // The details commands are in the command map: registered in every window.
      const isIp = target.kind === 'ipv4' || target.kind === 'ipv6';
      if (isIp) {
        await runCommand('odin.openHostDetails', value);
        return;
      }

      const card = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Window,
          title: vscode.l10n.t('ODIN: looking up {0}', neutraliseUiText(value, 80)),
          cancellable: true,
        },
        (_progress, token) =>
          toAbortSignal(token, (signal) => buildCard(ctx, { indicator: target, decided: d, signal })),
      );
      // The answer is cached now; show it where the user is (the hover reads the cache in
      // onCommand mode), else as a notification.
      if (
        editor &&
        ctx.gate.trusted() &&
        config.hoverEnabled() &&
        editor === vscode.window.activeTextEditor &&
        editor.selection.isEmpty
      ) {
        await vscode.commands.executeCommand('editor.action.showHover');
        return;
      }
      if (target.kind === 'domain' && ctx.gate.trusted()) {
        await runCommand('odin.openWhoisDetails', value);
        return;
      }
      void vscode.window.showInformationMessage(summaryLine(card));
    },

    'odin.resumeLookups': () => {
      const wasPaused = ctx.requests.paused !== undefined;
      ctx.requests.resume();
      if (wasPaused)
        void vscode.window.setStatusBarMessage(vscode.l10n.t('ODIN: automatic lookups resumed'), 3000);
    },
  };
}

/** A card as one plain notification line: Markdown escapes and links removed, then neutralised. */
export function summaryLine(card: string): string {
  const text = card
    .replace(/\[([^\]]*)\]\(command:[^)]*\)/g, '')
    .replace(/\\(.)/g, '$1')
    .replace(/[*_]/g, '')
    .replace(/\n+/g, ' · ')
    .replace(/( · )+/g, ' · ')
    .replace(/ · $/, '');
  return neutraliseUiText(text, 600);
}
