import * as vscode from 'vscode';
import { type IndicatorList, type IndicatorSummary, listIndicators } from '../../core/detect/indicators';
import { neutraliseUiText } from '../../core/text/inert';
import type { CommandsOf, ListedIndicators } from '../commands';
import type { Ctx } from '../ctx';
import { toAbortSignal } from '../shared/abort';
import { TEXT_LANGUAGES } from './hoverProvider';
import { privacyVerdict, type PrivacyVerdict } from './policy';
import { runCommand } from '../shared/runCommand';

/** Above this many characters the scan runs behind a cancellable progress notification. */
const PROGRESS_CHARS = 2_000_000;

const KIND_ICON: Record<IndicatorSummary['kind'], string> = {
  ipv4: 'server',
  ipv6: 'server',
  cidr: 'symbol-array',
  domain: 'globe',
};

interface IndicatorItem extends vscode.QuickPickItem {
  summary: IndicatorSummary;
  verdict: PrivacyVerdict;
}

const LOOK_UP: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('search'),
  tooltip: vscode.l10n.t('Look Up in ODIN'),
};
const COPY: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('copy'),
  tooltip: vscode.l10n.t('Copy (refanged)'),
};
const COPY_ALL: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('copy'),
  tooltip: vscode.l10n.t(
    'Copy All Public Values (refanged, one per line; private and internal ones left out)',
  ),
};

/**
 * `odin.listIndicators`: every IP address, CIDR block and domain in the active editor (or its
 * selection), unique, refanged and counted, in a picker. Nothing is sent: picking one goes to
 * its first occurrence; its buttons look it up (through `odin.lookup`, with all its privacy
 * checks) or copy it.
 */
export function listIndicatorCommands(ctx: Ctx): Pick<CommandsOf<'lookup'>, 'odin.listIndicators'> {
  return {
    'odin.listIndicators': async (): Promise<ListedIndicators | undefined> => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('ODIN: open a file (a log, a report, a config) first.'),
        );
        return undefined;
      }
      const doc = editor.document;
      const selection = editor.selection.isEmpty ? undefined : editor.selection;
      const text = doc.getText(selection);
      const base = selection ? doc.offsetAt(selection.start) : 0;
      const mode = TEXT_LANGUAGES.has(doc.languageId) ? 'text' : 'code';
      const list =
        text.length < PROGRESS_CHARS
          ? await listIndicators(text, { mode })
          : await vscode.window.withProgress(
              {
                location: vscode.ProgressLocation.Notification,
                title: vscode.l10n.t('ODIN: finding indicators'),
                cancellable: true,
              },
              (progress, token) => {
                let reported = 0;
                return toAbortSignal(token, (signal) =>
                  listIndicators(text, {
                    mode,
                    signal,
                    log: ctx.log.sink,
                    onProgress: (done, all) => {
                      const pct = Math.floor((100 * done) / all);
                      progress.report({ increment: pct - reported, message: `${pct}%` });
                      reported = pct;
                    },
                  }),
                );
              },
            );
      const where = selection ? vscode.l10n.t('the selection') : vscode.workspace.asRelativePath(doc.uri);
      if (list.items.length === 0) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t(
            'ODIN: no IP addresses, CIDR blocks or domain names in {0}.',
            neutraliseUiText(where, 200),
          ),
        );
        return { ...list, uri: doc.uri.toString(), local: [] };
      }
      const items = list.items.map((s) => toItem(ctx, doc, base, s));
      showPicker(editor, base, items, list, where);
      return {
        ...list,
        uri: doc.uri.toString(),
        local: items.filter((i) => !i.verdict.allowed).map((i) => i.summary.value),
      };
    },
  };
}

function toItem(ctx: Ctx, doc: vscode.TextDocument, base: number, s: IndicatorSummary): IndicatorItem {
  // Shown before anything is sent: the privacy decision alone (Look Up asks the gate itself).
  const verdict = privacyVerdict(ctx.gate.privacy(s.value).decision, s.kind);
  const line = doc.positionAt(base + s.first).line + 1;
  const parts = [`×${s.count}`, s.kind.toUpperCase()];
  if (s.defanged) parts.push(vscode.l10n.t('defanged'));
  return {
    // Values are detector output (digits, hex, LDH names): nothing in them renders as an icon.
    label: `$(${KIND_ICON[s.kind]}) ${s.value}`,
    description: parts.join(' · '),
    detail: verdict.allowed
      ? vscode.l10n.t('first on line {0}', line)
      : vscode.l10n.t(
          '$(lock) {0}: never sent · first on line {1}',
          neutraliseUiText(verdict.what ?? verdict.why, 160),
          line,
        ),
    buttons: verdict.allowed ? [LOOK_UP, COPY] : [COPY],
    summary: s,
    verdict,
  };
}

function showPicker(
  editor: vscode.TextEditor,
  base: number,
  items: IndicatorItem[],
  list: IndicatorList,
  where: string,
): void {
  const pick = vscode.window.createQuickPick<IndicatorItem>();
  const local = items.filter((i) => !i.verdict.allowed).length;
  pick.title = vscode.l10n.t('Indicators in {0}', neutraliseUiText(where, 120));
  pick.placeholder =
    local > 0
      ? vscode.l10n.t(
          '{0} unique, {1} in all, {2} kept local. Type to filter',
          `${items.length}${list.truncated ? '+' : ''}`,
          list.total,
          local,
        )
      : vscode.l10n.t(
          '{0} unique, {1} in all. Type to filter',
          `${items.length}${list.truncated ? '+' : ''}`,
          list.total,
        );
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.items = items;
  pick.buttons = [COPY_ALL];
  const goTo = (item: IndicatorItem) => {
    const doc = editor.document;
    const start = doc.positionAt(base + item.summary.first);
    const end = doc.positionAt(base + item.summary.first + item.summary.firstLength);
    void vscode.window.showTextDocument(doc, {
      viewColumn: editor.viewColumn,
      selection: new vscode.Range(start, end),
    });
  };
  pick.onDidAccept(() => {
    const [item] = pick.selectedItems;
    pick.hide();
    if (item) goTo(item);
  });
  pick.onDidTriggerItemButton(async ({ item, button }) => {
    if (button === COPY) {
      await vscode.env.clipboard.writeText(item.summary.value);
      vscode.window.setStatusBarMessage(vscode.l10n.t('ODIN: copied {0}', item.summary.value), 3000);
    } else if (button === LOOK_UP) {
      pick.hide();
      await runCommand('odin.lookup', item.summary.value);
    }
  });
  pick.onDidTriggerButton(async (button) => {
    if (button !== COPY_ALL) return;
    // A pasted list travels (tickets, chats, other tools): internal names and private
    // addresses stay out of it, as they stay out of every request.
    const shared = items.filter((i) => i.verdict.allowed);
    await vscode.env.clipboard.writeText(
      shared.map((i) => i.summary.value).join('\n') + (shared.length ? '\n' : ''),
    );
    const left = items.length - shared.length;
    vscode.window.setStatusBarMessage(
      left
        ? vscode.l10n.t(
            'ODIN: copied {0} public indicators ({1} private or internal left out)',
            shared.length,
            left,
          )
        : vscode.l10n.t('ODIN: copied {0} public indicators', shared.length),
      3000,
    );
  });
  pick.onDidHide(() => pick.dispose());
  pick.show();
}
