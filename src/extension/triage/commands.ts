import * as vscode from 'vscode';
import { readCredits } from '../../core/search';
import { toAbortSignal } from '../shared/abort';
import { RequestBudget } from '../../core/requests/budget';
import type { BlockCode } from '../../core/gate';
import { neutraliseUiText } from '../../core/text/inert';
import {
  account,
  applyCache,
  buildTriage,
  carryOver,
  domainCount,
  enrich,
  indicatorCount,
  layerSource,
  occurrenceCount,
  preview,
  REPORT_FORMATS,
  requestCount,
  type EnrichResult,
  type ReportFormat,
  type SourceText,
  type Triage,
  uniqueIndicatorCount,
} from '../../core/triage';
import type { CommandsOf, TriageResult } from '../commands';
import type { Ctx } from '../ctx';
import { triageCheck } from './privacy';
import { askFormat, openMarkdownReport, reportText, saveReport } from './reportUi';
import { triageSettings } from './settings';
import { TriageState } from './state';
import { TriageView } from './view';

type CommandMap = Omit<CommandsOf<'triage'>, 'odin.refreshCredits'>;

export interface TriageArgs {
  uris?: string[];
  /** false: preview only; true: no confirmation. */
  send?: boolean;
}

const MAX_URIS = 10_000;

/** How the triage says the gate's refusal (the gate decides; this is wording). */
const LOCAL_ONLY: Partial<Record<BlockCode, string>> = {
  'needs-consent': vscode.l10n.t('This workspace is in Restricted Mode: the triage stays on this machine.'),
  off: vscode.l10n.t('Lookups are off (setting odin.lookups.mode): the triage stays on this machine.'),
};

/** Why this window may not send anything now, or undefined when it may (after a confirmation). */
function localOnlyReason(ctx: Ctx): string | undefined {
  // A triage from Restricted Mode stays local: no consent is asked for a bulk send. The same
  // form of the gate as each of its calls (core/search `decideCall`), here for no value yet.
  const run = ctx.gate.current().decideSearch({}, { trigger: 'explicit', consented: false });
  if (!run.ok)
    return LOCAL_ONLY[run.code] ?? vscode.l10n.t('{0} The triage stays on this machine.', run.reason);
  if (!ctx.keys.get())
    return vscode.l10n.t(
      'No API key is set: the triage stays on this machine. Run "ODIN: Set API Key" or "ODIN: Try with Demo Data".',
    );
  return undefined;
}

// l10n: English, for a command's caller
function parseArgs(raw: unknown): TriageArgs {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new Error('odin.triage takes an object { uris?: string[], send?: boolean }.');
  const o = raw as Record<string, unknown>;
  const out: TriageArgs = {};
  if (o.uris !== undefined) {
    if (
      !Array.isArray(o.uris) ||
      o.uris.length > MAX_URIS ||
      !o.uris.every((u) => typeof u === 'string' && u.length < 4096)
    ) {
      throw new Error(`odin.triage: "uris" must be an array of at most ${MAX_URIS} URI strings.`);
    }
    out.uris = o.uris as string[];
  }
  if (o.send !== undefined) {
    if (typeof o.send !== 'boolean') throw new Error('odin.triage: "send" must be true or false.');
    out.send = o.send;
  }
  return out;
}

/** Only files of this workspace or documents already open may be read by a command argument. */
function mayRead(uri: vscode.Uri): boolean {
  if (vscode.workspace.getWorkspaceFolder(uri)) return true;
  return vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
}

// l10n: English, for the log (what a triage skipped)
async function readTexts(
  uris: readonly vscode.Uri[],
  token: vscode.CancellationToken,
): Promise<{ texts: SourceText[]; skipped: string[] }> {
  const max = triageSettings.maxFileBytes();
  const texts: SourceText[] = [];
  const skipped: string[] = [];
  const decoder = new TextDecoder('utf-8');
  for (const uri of uris) {
    if (token.isCancellationRequested) break;
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) {
      texts.push({ uri: uri.toString(), text: open.getText() });
      continue;
    }
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.type & vscode.FileType.Directory) continue;
      if (stat.size > max) {
        skipped.push(`${vscode.workspace.asRelativePath(uri)} (over the size cap)`);
        continue;
      }
      const bytes = await vscode.workspace.fs.readFile(uri);
      if (bytes.subarray(0, 8000).includes(0)) {
        skipped.push(`${vscode.workspace.asRelativePath(uri)} (binary)`);
        continue;
      }
      texts.push({ uri: uri.toString(), text: decoder.decode(bytes) });
    } catch {
      skipped.push(`${vscode.workspace.asRelativePath(uri)} (unreadable)`);
    }
  }
  return { texts, skipped };
}

async function creditsLeft(ctx: Ctx): Promise<number | undefined> {
  try {
    const usage = await readCredits(ctx, { signal: AbortSignal.timeout(5000) });
    const left = usage.hostCert?.left;
    return typeof left === 'number' && Number.isFinite(left) ? left : undefined;
  } catch (err) {
    // l10n: English, for the log
    ctx.log.info(
      `Credits unknown for the triage preview: ${err instanceof Error ? err.message : String(err)}`,
    );
    return undefined;
  }
}

function resultOf(t: Triage, p: TriageResult['preview'], acc: EnrichResult, local?: string): TriageResult {
  const out: TriageResult = {
    indicators: t.rows.map((r) => ({
      value: r.value,
      kind: r.kind,
      count: r.count,
      sent: r.sent,
      status: r.status,
      verdict: r.verdict ?? null,
    })),
    partial: acc.partial,
    failed: acc.failed,
    requests: acc.requests,
    summary: acc.summary,
    preview: p,
  };
  if (local) out.local = local;
  return out;
}

function previewText(p: TriageResult['preview']): string {
  const lines = [
    vscode.l10n.t(
      '{0} ({1} IPv4, {2} IPv6, {3}, {4} CIDR) in {5}.',
      uniqueIndicatorCount(p.unique),
      p.byKind.ipv4,
      p.byKind.ipv6,
      domainCount(p.byKind.domain),
      p.byKind.cidr,
      occurrenceCount(p.occurrences),
    ),
    vscode.l10n.t('{0} private or internal: never sent.', p.private),
    vscode.l10n.t('{0} already cached: no request.', p.cached),
    vscode.l10n.t(
      'Enrichment sends {0} for {1} ({2}).',
      requestCount(p.requests),
      indicatorCount(p.toSend),
      p.mode === 'batched'
        ? vscode.l10n.t('IPs batched into host searches')
        : vscode.l10n.t('one lookup per indicator'),
    ),
  ];
  if (p.creditsLeft !== undefined) lines.push(vscode.l10n.t('Credits left: {0}.', p.creditsLeft));
  if (p.truncated)
    lines.push(vscode.l10n.t('More unique values than the triage lists; the rest are counted only.'));
  return lines.join('\n');
}

/** The preview as a modal: yes only for "Enrich (N requests)". */
async function confirmPreview(p: TriageResult['preview']): Promise<boolean> {
  const SEND =
    p.requests === 1
      ? vscode.l10n.t('Enrich (1 request)')
      : vscode.l10n.t('Enrich ({0} requests)', p.requests);
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('ODIN: triage preview'),
    { modal: true, detail: previewText(p) },
    SEND,
    vscode.l10n.t('Local Only'),
  );
  return choice === SEND;
}

/**
 * The triage itself: read → scan → preview → (confirm) → enrich. `interactive` shows the
 * preview as a modal confirmation when `send` is undefined.
 */
async function runTriage(
  ctx: Ctx,
  state: TriageState,
  uris: vscode.Uri[],
  args: TriageArgs,
  interactive: boolean,
  selection?: { uri: vscode.Uri; text: string },
): Promise<TriageResult | undefined> {
  const opts = { batching: triageSettings.batching(), batchSize: triageSettings.batchSize() };
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('ODIN triage'),
      cancellable: true,
    },
    (progress, token) =>
      toAbortSignal(token, async (cancelled) => {
        // The progress notification's Cancel (the token) or state.running (what a test aborts).
        const controller = new AbortController();
        state.running = controller;
        const signal = AbortSignal.any([cancelled, controller.signal]);
        progress.report({ message: vscode.l10n.t('reading files…') });
        const { texts, skipped } = selection
          ? { texts: [{ uri: selection.uri.toString(), text: selection.text }], skipped: [] }
          : await readTexts(uris, token);
        // l10n: English, for the log
        if (skipped.length) ctx.log.info(`Triage skipped: ${skipped.join(', ')}`);
        progress.report({
          message:
            texts.length === 1
              ? vscode.l10n.t('scanning 1 file…')
              : vscode.l10n.t('scanning {0} files…', texts.length),
        });
        const t = await buildTriage(texts, triageCheck(ctx.gate), { signal, log: ctx.log.sink });
        if (state.last && state.origin === ctx.origin()) carryOver(t, state.last);
        state.set(t, ctx.origin());
        // Every lookup and batch is decided by the gate once, inside the request path, as it
        // is sent (the user confirmed the whole preview: consent given); a setting changed
        // during the run holds at once.
        const source = layerSource({
          layer: ctx.requests,
          client: () => ctx.client(),
          batching: opts.batching,
          exploitation: () => ctx.feeds.store,
          gate: () => ({ gate: ctx.gate.current(), consented: true }),
        });
        const local =
          args.send === false ? vscode.l10n.t('Preview only (send: false).') : localOnlyReason(ctx);
        const p: TriageResult['preview'] = preview(t, source, opts);
        if (local) {
          applyCache(t, source);
          state.set(t);
          return resultOf(t, p, account(t), local);
        }
        if (p.requests > 0) {
          const left = await creditsLeft(ctx);
          if (left !== undefined) p.creditsLeft = left;
        }
        if (p.requests > 0 && args.send !== true) {
          if (!interactive) return resultOf(t, p, account(t), vscode.l10n.t('Not confirmed.'));
          if (!(await confirmPreview(p)))
            return resultOf(t, p, account(t), vscode.l10n.t('Not confirmed: nothing was sent.'));
        }
        // KEV and EPSS order the verdicts (a feed that cannot load is said by the store, never
        // fatal); loaded after the yes, so nothing at all leaves before the confirmation.
        progress.report({ message: vscode.l10n.t('reading the exploitation feeds…') });
        // l10n: English, for the log
        await ctx.feeds.ensure().catch((e: unknown) => ctx.log.warn(`Exploitation feeds: ${String(e)}`));
        progress.report({
          message:
            p.toSend === 1
              ? vscode.l10n.t('enriching 1 indicator…')
              : vscode.l10n.t('enriching {0} indicators…', p.toSend),
        });
        let reported = 0;
        // The count the preview showed is the most this run sends; more needs a new yes.
        const acc = await enrich(t, source, {
          ...opts,
          signal,
          budget: new RequestBudget(p.requests),
          ...(interactive ? { confirmFallback: (singles, budget) => confirmSingles(singles, budget) } : {}),
          onProgress: (done, all) => {
            const pct = Math.floor((100 * done) / Math.max(all, 1));
            progress.report({
              increment: pct - reported,
              message: vscode.l10n.t('{0} of {1}', done, requestCount(all)),
            });
            reported = pct;
          },
        });
        state.set(t);
        // l10n: English, for the log
        ctx.log.info(
          `Triage: ${acc.summary} (${acc.requests} request${acc.requests === 1 ? '' : 's'}${acc.batchRefused ? ', batched search refused: single lookups' : ''}).`,
        );
        return resultOf(t, p, acc);
      }),
  );
}

/** The service refused the batched search: a new yes before one lookup per IP left. */
async function confirmSingles(singles: number, budget: RequestBudget): Promise<boolean> {
  const SEND = singles === 1 ? vscode.l10n.t('Send 1 Lookup') : vscode.l10n.t('Send {0} Lookups', singles);
  // A dialog that cannot be shown is no yes.
  const choice = await Promise.resolve(
    vscode.window.showWarningMessage(
      vscode.l10n.t('ODIN: the batched search was refused'),
      {
        modal: true,
        detail: vscode.l10n.t(
          'ODIN refused the batched host search (a bad request). Looking up the {0} left one by one sends {1}; {2} sent. Without them those rows stay not enriched.',
          singles === 1 ? vscode.l10n.t('1 IP address') : vscode.l10n.t('{0} IP addresses', singles),
          singles === 1 ? vscode.l10n.t('1 more request') : vscode.l10n.t('{0} more requests', singles),
          budget.spent === 1
            ? vscode.l10n.t('1 of the {0} you agreed to was', budget.agreed)
            : vscode.l10n.t('{0} of the {1} you agreed to were', budget.spent, budget.agreed),
        ),
      },
      SEND,
    ),
  ).catch(() => undefined);
  return choice === SEND;
}

async function afterRun(ctx: Ctx, state: TriageState, r: TriageResult | undefined): Promise<void> {
  if (!r) return;
  if (state.last) TriageView.show(ctx, state);
  const head = r.local
    ? vscode.l10n.t('{0} {1}.', r.local, uniqueIndicatorCount(r.indicators.length))
    : r.summary;
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('ODIN triage: {0}', neutraliseUiText(head, 300)),
    vscode.l10n.t('Open Report'),
    vscode.l10n.t('Save Report…'),
  );
  if (choice === vscode.l10n.t('Open Report')) await openMarkdownReport(state);
  else if (choice === vscode.l10n.t('Save Report…')) {
    const f = await askFormat();
    if (f) await saveReport(state, f);
  }
}

/** Triage Indicators in Folder: the folder (asked when not given), then which files under it. */
async function triageFolder(
  ctx: Ctx,
  state: TriageState,
  folderArg?: unknown,
): Promise<TriageResult | undefined> {
  let folder = folderArg instanceof vscode.Uri ? folderArg : undefined;
  if (!folder) {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('ODIN: open a folder first.'));
      return undefined;
    }
    folder = folders.length === 1 ? folders[0]!.uri : (await vscode.window.showWorkspaceFolderPick())?.uri;
    if (!folder) return undefined;
  }
  const glob = await vscode.window.showInputBox({
    title: vscode.l10n.t('ODIN: triage indicators in folder'),
    prompt: vscode.l10n.t(
      'Files to scan under {0} (files.exclude applies)',
      vscode.workspace.asRelativePath(folder),
    ),
    value: triageSettings.folderGlob(),
  });
  if (!glob) return undefined;
  // `undefined` as the exclude argument applies files.exclude.
  const uris = await vscode.workspace.findFiles(
    new vscode.RelativePattern(folder, glob),
    undefined,
    triageSettings.maxFiles(),
  );
  if (uris.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('ODIN: no file matches.'));
    return undefined;
  }
  const r = await runTriage(ctx, state, uris, {}, true);
  void afterRun(ctx, state, r);
  return r;
}

export function triageCommands(ctx: Ctx, state: TriageState): CommandMap {
  return {
    'odin.triageFile': async (): Promise<TriageResult | undefined> => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('ODIN: open a file (a log, a report, a config) first.'),
        );
        return undefined;
      }
      const sel = editor.selection.isEmpty
        ? undefined
        : { uri: editor.document.uri, text: editor.document.getText(editor.selection) };
      const r = await runTriage(ctx, state, [editor.document.uri], {}, true, sel);
      void afterRun(ctx, state, r);
      return r;
    },
    'odin.triageFolder': (folderArg?: unknown) => triageFolder(ctx, state, folderArg),
    'odin.triage': async (raw?: unknown): Promise<TriageResult | undefined> => {
      const args = parseArgs(raw);
      let uris: vscode.Uri[];
      if (args.uris) {
        uris = args.uris.map((u) => vscode.Uri.parse(u, true));
        const denied = uris.filter((u) => !mayRead(u));
        if (denied.length) {
          // Refused without a modal or an awaited message: a task or keybinding gets `undefined` at once.
          void vscode.window.showWarningMessage(
            vscode.l10n.t(
              'ODIN: odin.triage reads files of this workspace or open documents only ({0} refused).',
              denied.length,
            ),
          );
          return undefined;
        }
      } else {
        const editor = vscode.window.activeTextEditor;
        // l10n: English, for a command's caller
        if (!editor) throw new Error('odin.triage: no "uris" and no active editor.');
        uris = [editor.document.uri];
      }
      return runTriage(ctx, state, uris, args, args.send === undefined);
    },
    'odin.showTriage': (): Promise<void> => {
      TriageView.show(ctx, state);
      return Promise.resolve();
    },
    'odin.triageReport': async (raw?: unknown): Promise<string | undefined> => {
      if (!state.last) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('ODIN: run a triage first ("ODIN: Triage Indicators in File").'),
        );
        return undefined;
      }
      if (raw !== undefined && raw !== null) {
        const format = (raw as { format?: unknown }).format;
        if (typeof format !== 'string' || !(REPORT_FORMATS as readonly string[]).includes(format)) {
          // l10n: English, for a command's caller
          throw new Error(
            `odin.triageReport takes { format: ${REPORT_FORMATS.map((f) => `"${f}"`).join(' | ')} }.`,
          );
        }
        return reportText(state, format as ReportFormat);
      }
      const f = await askFormat();
      if (f) await saveReport(state, f);
      return undefined;
    },
  };
}
