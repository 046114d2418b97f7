/**
 * Entry of the chart page's script (bundled to dist/chart-view.js, loaded by nonce): a
 * summary's buckets as a horizontal bar chart (svg.ts) or as a table (the screen-reader
 * equivalent), a toggle between them, "Save as SVG" and "Save as PNG". Data arrives only by postMessage
 * after `ready`; labels enter the page as text. A bar sends back its bucket index only.
 */
import { shareText, type ChartBar } from '../../common/charts/bars';
import { isToChart, type ChartView, type FromChart } from '../../common/charts/protocol';
import { button, clear, gridTable, h } from '../dom';
import { pngDataUrl, svgSize } from '../export';
import { vscode } from '../vscodeApi';
import { useWords } from '../../common/words';
import { l10n } from '../../core/text/l10n';
import { barChart, fitChart, standaloneSvg } from './svg';
import { fmt } from '../../core/text/numbers';

const post = (m: FromChart): void => vscode.postMessage(m);
const root = document.getElementById('root') as HTMLElement;

interface ViewState {
  mode: 'chart' | 'table';
}
const state: ViewState = {
  mode: (vscode.getState() as Partial<ViewState> | undefined)?.mode === 'table' ? 'table' : 'chart',
};

let current: { generation: number; chart: ChartView } | undefined;
/** The chart drawn now (laid out again when the panel's width changes). */
let drawnSvg: SVGSVGElement | undefined;

/** The width the chart may take: the page's, less its padding. */
const chartWidth = (): number => (root.clientWidth || document.body.clientWidth || 800) - 16;

window.addEventListener('resize', () => {
  if (drawnSvg && state.mode === 'chart') fitChart(drawnSvg, chartWidth());
});

function narrow(bar: ChartBar): void {
  if (!current || bar.bucket === undefined || bar.other) return;
  post({ type: 'narrow', generation: current.generation, bucket: bar.bucket });
}

function table(chart: ChartView): HTMLElement {
  const tbody = h('tbody');
  for (const bar of chart.bars) {
    const active = chart.narrowable && !bar.other && bar.bucket !== undefined;
    tbody.appendChild(
      h(
        'tr',
        { class: `row${bar.other ? ' other' : ''}` },
        h(
          'th',
          { attrs: { scope: 'row' } },
          active
            ? button(bar.label, 'filter', () => narrow(bar), {
                class: 'link-button',
                title: l10n.t('Narrow the search to this value'),
              })
            : bar.label,
        ),
        h('td', { class: 'num' }, fmt(bar.count)),
        h('td', { class: 'num' }, shareText(bar.share)),
      ),
    );
  }
  return gridTable([chart.field, l10n.t('Count'), l10n.t('Share')], tbody);
}

async function savePngOf(svg: SVGSVGElement): Promise<void> {
  const { width, height } = svgSize(svg);
  post({ type: 'savePng', png: await pngDataUrl(standaloneSvg(svg), width, height) });
}

function render(generation: number, chart: ChartView): void {
  const t0 = performance.now();
  current = { generation, chart };
  clear(root);
  const svg = barChart(chart.bars, {
    width: chartWidth(),
    title: chart.title,
    ...(chart.narrowable ? { onActivate: narrow } : {}),
  });
  const chartBox = h('div', { class: 'chart-box', hidden: state.mode !== 'chart' }, svg);
  const tableBox = h('div', { class: 'chart-table', hidden: state.mode !== 'table' }, table(chart));
  const toggle = button(state.mode === 'chart' ? l10n.t('Show Table') : l10n.t('Show Chart'), 'table', () => {
    state.mode = state.mode === 'chart' ? 'table' : 'chart';
    vscode.setState(state);
    chartBox.hidden = state.mode !== 'chart';
    tableBox.hidden = state.mode !== 'table';
    if (state.mode === 'chart') fitChart(svg, chartWidth());
    const label = state.mode === 'chart' ? l10n.t('Show Table') : l10n.t('Show Chart');
    toggle.setAttribute('aria-label', label);
    toggle.title = label;
    const span = toggle.querySelector('span:not(.codicon)');
    if (span) span.textContent = label;
  });
  toggle.classList.add('chart-toggle');
  const save = button(
    l10n.t('Save as SVG'),
    'save',
    () => post({ type: 'saveSvg', svg: standaloneSvg(svg) }),
    {
      class: 'chart-save',
    },
  );
  const savePng = button(l10n.t('Save as PNG'), 'file-media', () => void savePngOf(svg), {
    class: 'chart-save-png',
  });
  root.appendChild(
    h(
      'header',
      { class: 'chart-header' },
      h('h1', null, chart.title),
      h(
        'p',
        { class: 'status' },
        l10n.t('{0} · {1} counted in {2} bars', chart.query, fmt(chart.total), chart.bars.length),
        chart.narrowable ? l10n.t(' · click a bar (or Enter on it) to narrow the search') : '',
      ),
      ...chart.notes.map((n) => h('p', { class: 'status' }, n)),
      h('div', { class: 'toolbar' }, toggle, save, savePng),
    ),
  );
  if (chart.bars.length === 0)
    root.appendChild(h('p', { class: 'status' }, l10n.t('The summary has no values.')));
  root.appendChild(chartBox);
  root.appendChild(tableBox);
  drawnSvg = svg;
  if (state.mode === 'chart') fitChart(svg, chartWidth());
  post({ type: 'rendered', generation, bars: chart.bars.length, ms: performance.now() - t0 });
}

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  const m = e.data;
  if (!isToChart(m)) return;
  if (m.type === 'words') {
    useWords(m.words);
    return;
  }
  if (m.type === 'empty') {
    current = undefined;
    drawnSvg = undefined;
    clear(root);
    root.appendChild(h('p', { class: 'status' }, m.message));
    return;
  }
  render(m.generation, m.chart);
});

post({ type: 'ready' });
