/**
 * What activation registers for investigation notebooks (`.odinnb`): the serializer (small:
 * JSON in and out, src/core/notebook/format.ts), so a notebook opens at once. The controller,
 * its count status item and the case record load with dist/notebook.js when the first ODIN
 * notebook opens. Nothing runs by itself: running a cell is a click.
 */
import * as vscode from 'vscode';
import {
  NotebookFormatError,
  parseNotebook,
  serializeNotebook,
  type NotebookFile,
} from '../../core/notebook/format';
import type { CommandsOf } from '../commands';
import type { Ctx } from '../ctx';
import type { NotebookFeature } from './index';

import { NOTEBOOK_TYPE, SUMMARY_KEY } from './ids';

/** What the test API reads of the feature. */
export interface NotebookProbe {
  /** Loads the feature (the controller) if it is not yet. */
  load(): NotebookFeature;
  /** The feature's commands as stand-ins that load it first (registered with the command map). */
  readonly commands: CommandsOf<'notebook'>;
}

class OdinNotebookSerializer implements vscode.NotebookSerializer {
  constructor(private readonly ctx: Ctx) {}

  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    let nb: NotebookFile;
    try {
      nb = parseNotebook(new TextDecoder().decode(content));
    } catch (e) {
      // l10n: English, for the log
      this.ctx.log.warn(`Notebook not read: ${e instanceof Error ? e.message : String(e)}`);
      if (e instanceof NotebookFormatError) throw new Error(vscode.l10n.t('ODIN notebook: {0}', e.message));
      throw e;
    }
    const cells = nb.cells.map((c) => {
      const cell = new vscode.NotebookCellData(
        c.kind === 'markdown' ? vscode.NotebookCellKind.Markup : vscode.NotebookCellKind.Code,
        c.source,
        c.kind === 'markdown' ? 'markdown' : 'odinq',
      );
      if (c.summary) cell.metadata = { [SUMMARY_KEY]: c.summary };
      return cell;
    });
    const data = new vscode.NotebookData(cells);
    data.metadata = { params: nb.params, ...(nb.budget !== undefined ? { budget: nb.budget } : {}) };
    return data;
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    const meta = (data.metadata ?? {}) as { params?: Record<string, string>; budget?: number };
    const text = serializeNotebook({
      version: 1,
      params: meta.params ?? {},
      ...(typeof meta.budget === 'number' ? { budget: meta.budget } : {}),
      // Outputs are never written: rows live in the case record's sidecars.
      cells: data.cells.map((c) => {
        const summary = (c.metadata as Record<string, unknown> | undefined)?.[SUMMARY_KEY];
        return {
          kind: c.kind === vscode.NotebookCellKind.Markup ? 'markdown' : 'query',
          source: c.value,
          ...(typeof summary === 'string' ? { summary } : {}),
        };
      }),
    });
    return new TextEncoder().encode(text);
  }
}

/** Registers the serializer now and the controller on the first ODIN notebook. */
export function registerNotebookLazy(ctx: Ctx): NotebookProbe {
  ctx.subscriptions.add(
    vscode.workspace.registerNotebookSerializer(NOTEBOOK_TYPE, new OdinNotebookSerializer(ctx), {
      transientOutputs: true,
      transientCellMetadata: {},
      transientDocumentMetadata: {},
    }),
  );
  let feature: NotebookFeature | undefined;
  const load = (): NotebookFeature => {
    if (!feature) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const bundle = require('./index') as typeof import('./index');
      feature = bundle.createNotebook(ctx);
    }
    return feature;
  };
  const check = (nb: vscode.NotebookDocument): void => {
    if (!feature && nb.notebookType === NOTEBOOK_TYPE) load();
  };
  ctx.subscriptions.add(vscode.workspace.onDidOpenNotebookDocument(check));
  for (const nb of vscode.workspace.notebookDocuments) check(nb);
  return {
    load,
    commands: {
      'odin.openAllNotebookRows': (cell) => load().commands['odin.openAllNotebookRows'](cell),
      'odin.exportNotebookCase': (notebook) => load().commands['odin.exportNotebookCase'](notebook),
    },
  };
}
