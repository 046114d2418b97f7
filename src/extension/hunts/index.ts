/**
 * Hunts as code. Language providers for `.odinq` files and ```odinq fences in
 * Markdown (diagnostics with quick fixes, completion, hover, CodeLens) and the commands the
 * CodeLens runs. The parsing and checking live in src/core/hunts (no VS Code); running goes
 * through the search feature, so results land in the Results view like any search.
 *
 *   catalogues.ts  the field catalogues (live through the request layer, else built in)
 *   documents.ts   the parse of each document and its diagnostics
 *   providers.ts   CodeLens, completion, hover, quick fixes
 *   running.ts     run, count, summarize and save a query
 *   history.ts     a host's timeline from the committed snapshots (git)
 *   baseline.ts    a finding of a hunt added to the committed baseline file
 *
 * Running is always a click, and never in Restricted Mode: there a file is read, checked
 * and completed (from the built-in and cached field lists) but not run.
 */
import * as vscode from 'vscode';
import type { HuntFile } from '../../core/hunts';
import type { RequestBudget } from '../../core/requests/budget';
import type { CommandsOf } from '../commands';
import type { Ctx } from '../ctx';
import type { SearchFeature } from '../search';
import { Catalogues } from './catalogues';
import { HuntDocuments } from './documents';
import { registerHuntProviders } from './providers';
import { addFindingToBaseline } from './baseline';
import { showHostTimeline } from './history';
import { HuntRunner } from './running';

export type { HuntRunSummary } from './running';

export interface HuntsFeature {
  commands(): CommandsOf<'hunts'>;
  /** The parse of a document (cached per version). */
  parse(doc: vscode.TextDocument): HuntFile;
}

function isBudget(v: unknown): v is RequestBudget {
  const b = v as Partial<RequestBudget> | undefined;
  return typeof b?.charge === 'function' && typeof b.check === 'function';
}

export function createHunts(ctx: Ctx, search: () => SearchFeature): HuntsFeature {
  const catalogues = new Catalogues(ctx);
  const docs = new HuntDocuments(catalogues);
  const lensesChanged = new vscode.EventEmitter<void>();
  ctx.subscriptions.add(docs);
  ctx.subscriptions.add(lensesChanged);
  ctx.subscriptions.add(catalogues);
  ctx.subscriptions.add(
    ctx.onDidChangeConnection(() => {
      catalogues.clear();
      docs.validateAll();
    }),
  );
  ctx.subscriptions.add(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      lensesChanged.fire();
      docs.validateAll();
    }),
  );
  registerHuntProviders(ctx, docs, catalogues, lensesChanged.event);
  const runner = new HuntRunner(docs, catalogues, search, ctx.gate);

  docs.validateAll();

  return {
    parse: (doc) => docs.parse(doc),
    commands: () => ({
      'odin.runHunt': (uri, index, opts) =>
        runner.run(uri, index, 'run', undefined, {
          quiet: opts?.quiet === true,
          ...(opts?.signal instanceof AbortSignal ? { signal: opts.signal } : {}),
          // Another bundle's object (Re-run All in dist/search.js): recognised by its shape.
          ...(isBudget(opts?.budget) ? { budget: opts.budget } : {}),
        }),
      'odin.countHunt': (uri, index) => runner.run(uri, index, 'count'),
      'odin.summarizeHunt': (uri, index, field) => runner.run(uri, index, 'summarize', field),
      'odin.saveHunt': (uri, index) => runner.save(uri, index),
      'odin.showHostTimeline': (arg) => showHostTimeline(ctx, arg),
      'odin.addFindingToBaseline': (uri, index, answers) =>
        addFindingToBaseline(ctx, runner, (doc) => docs.parse(doc), uri, index, answers),
    }),
  };
}
