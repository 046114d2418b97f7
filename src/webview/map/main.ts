/**
 * Entry of the map page's script (bundled to dist/map-view.js, loaded by nonce): a result
 * set's hosts as clustered points on a world map, or a summary by country as a choropleth
 * (draw.ts), a table of the same data for reading and screen readers, "Save as SVG" and
 * "Save as PNG". Data arrives only by postMessage after `ready`; labels enter the page as
 * text. A point sends back the index of its host only.
 */
import { LEVEL_TEXT, LEVELS } from '../../core/map/types';
import { isToMap, type FromMap, type MapView } from '../../common/map/protocol';
import { standaloneSvg } from '../charts/svg';
import { button, clear, gridTable, h } from '../dom';
import { pngDataUrl, svgSize } from '../export';
import { vscode } from '../vscodeApi';
import { useWords } from '../../common/words';
import { l10n } from '../../core/text/l10n';
import { drawMap } from './draw';
import { fmt } from '../../core/text/numbers';

const post = (m: FromMap): void => vscode.postMessage(m);
const root = document.getElementById('root') as HTMLElement;
/** A level's words in the page's language (the English is core/map/types.ts LEVEL_TEXT). */
const levelText = (l: string): string => {
  switch (l as keyof typeof LEVEL_TEXT) {
    case 'exploited':
      return l10n.t('Known exploited CVE');
    case 'vulnerable':
      return l10n.t('Vulnerable');
    case 'unknown':
      return l10n.t('CVEs unknown');
    case 'clean':
      return l10n.t('No known CVEs');
    default:
      return l;
  }
};
/** Country names in VS Code's language (the shell's `lang`), else English (a tag Intl refuses too). */
function regionNames(): Intl.DisplayNames {
  try {
    return new Intl.DisplayNames([document.documentElement.lang || 'en', 'en'], { type: 'region' });
  } catch {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  }
}
const regions = regionNames();
const countryName = (code: string): string => {
  try {
    return (code && regions.of(code)) || code;
  } catch {
    return code;
  }
};
/** Rows the table lists (worst first); the rest are counted in a line below it. */
const TABLE_ROWS = 2000;

interface ViewState {
  mode: 'map' | 'table';
}
const state: ViewState = {
  mode: (vscode.getState() as Partial<ViewState> | undefined)?.mode === 'table' ? 'table' : 'map',
};

let current: { generation: number; map: MapView } | undefined;

function openHost(host: number): void {
  if (!current || !current.map.openable) return;
  post({ type: 'openHost', generation: current.generation, host });
}

function hostTable(map: MapView): HTMLElement {
  const tbody = h('tbody');
  for (const [i, host] of map.hosts.slice(0, TABLE_ROWS).entries()) {
    tbody.appendChild(
      h(
        'tr',
        { class: `row level-${host.level}` },
        h(
          'th',
          { attrs: { scope: 'row' } },
          map.openable
            ? button(host.ip, 'server', () => openHost(i), {
                class: 'link-button',
                title: l10n.t('Open the host page'),
              })
            : host.ip,
        ),
        h('td', null, levelText(host.level)),
        h('td', null, host.hostname),
        h('td', null, host.org),
        h('td', null, [host.city, host.country].filter(Boolean).join(' ')),
      ),
    );
  }
  const box = h(
    'div',
    null,
    gridTable([l10n.t('Host'), 'CVEs', l10n.t('Hostname'), l10n.t('Organisation'), l10n.t('Place')], tbody),
  );
  if (map.hosts.length > TABLE_ROWS)
    box.appendChild(
      h(
        'p',
        { class: 'status' },
        l10n.t('The first {0} of {1} hosts, worst first.', fmt(TABLE_ROWS), fmt(map.hosts.length)),
      ),
    );
  return box;
}

function countryTable(map: MapView): HTMLElement {
  const tbody = h('tbody');
  for (const c of map.countries)
    tbody.appendChild(
      h(
        'tr',
        { class: 'row' },
        h('th', { attrs: { scope: 'row' } }, c.code),
        h('td', null, countryName(c.code)),
        h('td', { class: 'num' }, fmt(c.count)),
      ),
    );
  return gridTable([map.field, l10n.t('Country'), l10n.t('Count')], tbody);
}

function legend(map: MapView): HTMLElement {
  if (map.mode === 'countries')
    return h(
      'p',
      { class: 'map-legend status' },
      l10n.t('Fewer'),
      ' ',
      ...[1, 2, 3, 4, 5].map((s) =>
        h('span', { class: `swatch shade-${s}`, attrs: { 'aria-hidden': 'true' } }),
      ),
      ' ',
      l10n.t('more (log scale)'),
    );
  const counts = new Map<string, number>();
  for (const host of map.hosts) counts.set(host.level, (counts.get(host.level) ?? 0) + 1);
  return h(
    'p',
    { class: 'map-legend status' },
    ...LEVELS.filter((l) => counts.has(l)).flatMap((l) => [
      h('span', { class: `swatch level-${l}`, attrs: { 'aria-hidden': 'true' } }),
      `${levelText(l)} ${fmt(counts.get(l) ?? 0)}  `,
    ]),
  );
}

async function savePng(svg: SVGSVGElement, status: HTMLElement): Promise<void> {
  const { width, height } = svgSize(svg);
  try {
    post({ type: 'savePng', png: await pngDataUrl(standaloneSvg(svg), width, height) });
    status.textContent = '';
  } catch (e) {
    status.textContent = l10n.t(
      'The PNG could not be drawn ({0}); Save as SVG still works.',
      e instanceof Error ? e.message : String(e),
    );
  }
}

function render(generation: number, map: MapView): void {
  const t0 = performance.now();
  current = { generation, map };
  clear(root);
  const width = Math.max(360, (root.clientWidth || document.body.clientWidth || 900) - 16);
  const svg = drawMap(document, map, {
    width,
    title: map.title,
    levelText,
    countryName,
    ...(map.openable ? { onActivate: (c) => openHost(c.hosts[0]!) } : {}),
  });
  const mapBox = h('div', { class: 'map-box', hidden: state.mode !== 'map' }, svg);
  let tableBox: HTMLElement | undefined;
  const showTable = (): void => {
    if (!tableBox) {
      tableBox = h('div', { class: 'map-table' }, map.mode === 'points' ? hostTable(map) : countryTable(map));
      root.appendChild(tableBox);
    }
    tableBox.hidden = state.mode !== 'table';
  };
  const toggle = button(state.mode === 'map' ? l10n.t('Show Table') : l10n.t('Show Map'), 'table', () => {
    state.mode = state.mode === 'map' ? 'table' : 'map';
    vscode.setState(state);
    mapBox.hidden = state.mode !== 'map';
    showTable();
    const label = state.mode === 'map' ? l10n.t('Show Table') : l10n.t('Show Map');
    toggle.setAttribute('aria-label', label);
    toggle.title = label;
    const span = toggle.querySelector('span:not(.codicon)');
    if (span) span.textContent = label;
  });
  const saveSvg = button(
    l10n.t('Save as SVG'),
    'save',
    () => post({ type: 'saveSvg', svg: standaloneSvg(svg) }),
    {
      class: 'map-save',
    },
  );
  const saveStatus = h('p', { class: 'status', attrs: { role: 'status' } });
  const savePngButton = button(l10n.t('Save as PNG'), 'file-media', () => void savePng(svg, saveStatus), {
    class: 'map-save-png',
  });
  const shown =
    map.mode === 'points'
      ? l10n.t(
          '{0} of {1} loaded hosts in {2} points',
          fmt(map.hosts.length),
          fmt(map.total),
          fmt(map.clusters.length),
        )
      : l10n.t('{0} counted in {1} countries', fmt(map.total), fmt(map.countries.length));
  root.appendChild(
    h(
      'header',
      { class: 'map-header' },
      h('h1', null, map.title),
      h(
        'p',
        { class: 'status' },
        `${map.query} · ${shown}`,
        map.skippedText ? ` · ${map.skippedText}` : '',
        map.mode === 'points' && map.openable
          ? l10n.t(' · click a point (or Enter on it) to open its worst host')
          : '',
      ),
      ...map.notes.map((n) => h('p', { class: 'status' }, n)),
      h('div', { class: 'toolbar' }, toggle, saveSvg, savePngButton),
      saveStatus,
      legend(map),
    ),
  );
  root.appendChild(mapBox);
  if (state.mode === 'table') showTable();
  post({
    type: 'rendered',
    generation,
    points: map.clusters.length,
    countries: map.countries.length,
    ms: performance.now() - t0,
  });
}

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  const m = e.data;
  if (!isToMap(m)) return;
  if (m.type === 'words') {
    useWords(m.words);
    return;
  }
  if (m.type === 'empty') {
    current = undefined;
    clear(root);
    root.appendChild(h('p', { class: 'status' }, m.message));
    return;
  }
  render(m.generation, m.map);
});

post({ type: 'ready' });
