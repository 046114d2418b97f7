/**
 * The notebook renderer of ODIN query cells: a caption, then the summary's bar chart
 * (charts/svg.ts), the map (map/draw.ts) and a table of at most 1,000 rows. Everything is
 * drawn in a shadow root with the pages' own stylesheet, so it neither leaks into nor takes
 * from the notebook's styles; theme colours arrive through the inherited `--vscode-*`
 * variables. Every string is scan data: it enters the DOM as text only (dom.ts), never HTML.
 * A payload of the wrong shape is said, never drawn.
 */
// The pages' stylesheet as esbuild.mjs writes it (minified in production).
import css from '../../../dist/details.css';
import { isNotebookOutput, type NotebookOutput } from '../../common/notebookOutput';
import { l10n } from '../../core/text/l10n';
import { barChart, fitChart } from '../charts/svg';
import { clear, h } from '../dom';
import { drawMap } from '../map/draw';
import { fmt } from '../../core/text/numbers';

/** The most table rows drawn (the extension sends no more; a stray payload is cut here too). */
const MAX_ROWS = 1000;

interface OutputItem {
  json(): unknown;
}

const LOCAL_CSS = `
:host { display: block; color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
.odin-nb { display: flex; flex-direction: column; gap: 12px; max-width: 100%; }
.odin-nb .caption { color: var(--vscode-descriptionForeground); }
.odin-nb .table-wrap { max-height: 420px; overflow: auto; border: 1px solid var(--vscode-panel-border, transparent); }
.odin-nb table { border-collapse: collapse; width: 100%; }
.odin-nb th, .odin-nb td { text-align: left; padding: 2px 8px; white-space: nowrap; border-bottom: 1px solid var(--vscode-panel-border, transparent); }
.odin-nb th { position: sticky; top: 0; background: var(--vscode-editor-background); }
.odin-nb .world-map { width: 100%; height: auto; }
`;

const levelText = (l: string): string =>
  ({
    exploited: l10n.t('Known exploited CVE'),
    vulnerable: l10n.t('Vulnerable'),
    unknown: l10n.t('CVEs unknown'),
    clean: l10n.t('No known CVEs'),
  })[l] ?? l;

function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

function table(out: NotebookOutput): HTMLElement {
  const head = h('tr', null, ...out.columns.map((c) => h('th', null, c)));
  const body = h('tbody');
  for (const r of out.rows.slice(0, MAX_ROWS))
    body.appendChild(h('tr', null, ...out.columns.map((c) => h('td', null, String(r[c] ?? '')))));
  return h('div', { class: 'table-wrap' }, h('table', null, h('thead', null, head), body));
}

function draw(out: NotebookOutput, root: HTMLElement): void {
  const width = Math.max(320, Math.min(root.clientWidth || 800, 1000));
  root.appendChild(h('div', { class: 'caption' }, out.caption));
  if (out.chart?.length) {
    const svg = barChart(out.chart, { width, title: out.title });
    root.appendChild(h('div', { class: 'chart' }, svg));
    fitChart(svg);
  }
  if (out.map)
    root.appendChild(
      h(
        'div',
        { class: 'map' },
        drawMap(document, out.map, { width, title: out.map.title, levelText, countryName }),
      ),
    );
  root.appendChild(table(out));
  const shown = Math.min(out.rows.length, MAX_ROWS);
  if (out.rowCount > shown)
    root.appendChild(
      h(
        'div',
        { class: 'caption' },
        out.sidecar
          ? l10n.t('Showing {0} of {1} rows; all of them: {2}', shown, fmt(out.rowCount), out.sidecar)
          : l10n.t('Showing {0} of {1} rows.', shown, fmt(out.rowCount)),
      ),
    );
}

export function activate(): {
  renderOutputItem(item: OutputItem, element: HTMLElement): void;
  disposeOutputItem(): void;
} {
  return {
    renderOutputItem(item, element) {
      const shadow = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
      while (shadow.firstChild) shadow.removeChild(shadow.firstChild);
      const style = document.createElement('style');
      style.textContent = css + LOCAL_CSS;
      const root = h('div', { class: 'odin-nb' });
      shadow.append(style, root);
      let data: unknown;
      try {
        data = item.json();
      } catch {
        data = undefined;
      }
      if (!isNotebookOutput(data)) {
        clear(root);
        root.appendChild(h('div', null, l10n.t('This output is not one this version of ODIN can draw.')));
        return;
      }
      draw(data, root);
    },
    disposeOutputItem() {
      // Nothing kept per output: the shadow root goes with its element.
    },
  };
}
