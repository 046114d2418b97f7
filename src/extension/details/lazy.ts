/**
 * What activation registers for the details pages without loading them: their commands,
 * the webview serializers that restore open pages after a reload, and the whois snapshot
 * documents. The pages themselves (dist/details.js, ~20 KB) load on first use: the first
 * command, restore or snapshot document.
 */
import * as vscode from 'vscode';
import { standIns, type CommandsOf } from '../commands';
import type { Ctx } from '../ctx';
import type { DetailsFeature } from './index';
import { HOST_VIEW_TYPE, WHOIS_SCHEME, WHOIS_VIEW_TYPE } from './ids';

/** Registers the serializers and documents; returns the commands (stand-ins that load the pages). */
export function registerDetailsLazy(ctx: Ctx): CommandsOf<'details'> {
  let feature: DetailsFeature | undefined;
  const docsChanged = ctx.subscriptions.add(new vscode.EventEmitter<vscode.Uri>());
  const details = (): DetailsFeature => {
    if (!feature) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const bundle = require('./index') as typeof import('./index');
      feature = bundle.createDetails(ctx);
      ctx.subscriptions.add(feature.docs.onDidChange((uri) => docsChanged.fire(uri)));
    }
    return feature;
  };

  for (const viewType of [HOST_VIEW_TYPE, WHOIS_VIEW_TYPE]) {
    ctx.pages.registerRestore(viewType, (panel, state) => details().restore(viewType, panel, state));
  }
  ctx.subscriptions.add(
    vscode.workspace.registerTextDocumentContentProvider(WHOIS_SCHEME, {
      onDidChange: docsChanged.event,
      provideTextDocumentContent: (uri) => details().docs.provideTextDocumentContent(uri),
    }),
  );
  return standIns('details', () => details().commands);
}
