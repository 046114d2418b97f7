import { randomBytes } from 'crypto';
import * as vscode from 'vscode';

/**
 * The one HTML shell of every page of the kit (after vscode-codeql's webview-html.ts): a
 * constant template. No API data ever enters this string; the page gets its data by
 * postMessage after it says `ready`, and renders it with DOM APIs.
 *
 * CSP: nothing by default; the one script file by a fresh nonce per load; styles and the
 * codicon font from the extension's own files; no network (`connect-src 'none'`, no
 * images: a remote image would contact the scanned host; a page that saves PNGs may show a
 * `blob:` image, which only its own script can make).
 */
export function pageHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  /** The page's name (`data-page` of the body: the script reads it), e.g. `host`. */
  page: string,
  title: string,
  /** The page's one script in dist/ (its browser entry). */
  script: string,
  /** `rasterises`: the page may show an image of a blob it made itself (its SVG, for a PNG). */
  opts: { rasterises?: boolean } = {},
): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (...p: string[]): string =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  // l10n: English, not words (CSP)
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    opts.rasterises ? 'img-src blob:' : "img-src 'none'",
    "connect-src 'none'",
    "frame-src 'none'",
    "child-src 'none'",
    "worker-src 'none'",
    "object-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
  // `page` and `title` are our own constants (never API data), the words our own translations
  // and the language VS Code's; all escaped anyway. The stylesheets come after "Loading…": a
  // stylesheet in <head> blocks the first paint, and the workbench can take up to 30 s to
  // serve a webview resource (its service worker's time limit), so the page says it is
  // loading from the first paint.
  // l10n: English, not words (HTML; its one word, "Loading…", is translated)
  return `<!DOCTYPE html>
<html lang="${attr(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${attr(title)}</title>
</head>
<body data-page="${attr(page)}">
<main id="root" aria-live="polite"><p class="status">${attr(vscode.l10n.t('Loading…'))}</p></main>
<link rel="stylesheet" href="${attr(asset('dist', 'codicons', 'codicon.css'))}">
<link rel="stylesheet" href="${attr(asset('dist', 'details.css'))}">
<script nonce="${attr(nonce)}" src="${attr(asset('dist', script))}"></script>
</body>
</html>`;
}

function attr(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Webview options of every page, new or restored. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    enableForms: false,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, 'dist'),
      vscode.Uri.joinPath(extensionUri, 'media'),
    ],
    // Not retained when hidden: the page asks again with `ready` and gets its data resent.
    retainContextWhenHidden: false,
    enableFindWidget: true,
  };
}
