// Map page: time to build the map of 10,000 hosts — the grid clustering of the core
// (src/core/map/mapModel.ts `clusterHosts`) and the page's draw function
// (src/webview/map/draw.ts `drawMap`: 168 country paths, one circle and title per cluster)
// — in plain Node with a light stand-in for the DOM (elements that keep their attributes
// and children). The browser's layout and paint come after and are not included; the page
// reports its own `rendered` time (test/integration/map.test.ts, test/ui/map.test.mjs).
//
//   npx tsc -p . --outDir out && node scripts/bench/map.mjs
//
// The points are scattered over the inhabited latitudes (a fixed pseudo-random sequence),
// so they fall in thousands of cells: a harder case than a real search, whose hosts crowd
// into a few hundred cities. `run()` returns rows `{ name, value, unit, target?, note? }`.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { runDirectly } from '../args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const out = (p) => path.resolve(root, process.env.MAP_OUT ?? 'out', p);

/** The smallest DOM drawMap needs: elements that keep attributes, children and text. */
class El {
  constructor(tag) {
    this.tagName = tag;
    this.attrs = new Map();
    this.children = [];
    this.textContent = '';
  }
  setAttribute(k, v) {
    this.attrs.set(k, v);
  }
  appendChild(c) {
    this.children.push(c);
    return c;
  }
  addEventListener() {}
}
const doc = { createElementNS: (_ns, tag) => new El(tag) };

async function loadDraw() {
  const r = await esbuild.build({
    entryPoints: [path.join(root, 'src/webview/map/draw.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    write: false,
    logLevel: 'silent',
  });
  const mod = { exports: {} };
  new Function('module', 'exports', r.outputFiles[0].text)(mod, mod.exports);
  return mod.exports;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export default async function run({ points = 10_000, runs = 7 } = {}) {
  const { clusterHosts } = require(out('src/core/map/mapModel.js'));
  const { LEVELS, LEVEL_TEXT } = require(out('src/core/map/types.js'));
  const { drawMap } = await loadDraw();
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const hosts = Array.from({ length: points }, (_, i) => ({
    ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    lat: -45 + rnd() * 115,
    lon: -180 + rnd() * 360,
    level: LEVELS[Math.floor(rnd() * LEVELS.length)],
    org: 'Example Hosting Ltd',
    city: 'Springfield',
    country: 'US',
    hostname: `host-${i}.example.com`,
  }));
  const times = [];
  let clusters = 0;
  let circles = 0;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const cs = clusterHosts(hosts);
    const svg = drawMap(
      doc,
      {
        title: 'bench',
        query: '*',
        mode: 'points',
        hosts,
        clusters: cs,
        countries: [],
        field: '',
        total: hosts.length,
        skippedText: '',
        openable: true,
        notes: [],
      },
      {
        width: 1200,
        title: 'bench',
        levelText: (l) => LEVEL_TEXT[l] ?? l,
        countryName: (c) => c,
        onActivate: () => {},
      },
    );
    times.push(performance.now() - t0);
    clusters = cs.length;
    circles = svg.children.at(-1).children.length;
  }
  if (circles !== clusters) throw new Error(`drew ${circles} circles for ${clusters} clusters`);
  const fixed = (x) => Number(x.toFixed(1));
  return [
    {
      name: `map: cluster + draw ${points.toLocaleString('en-US')} points`,
      value: fixed(median(times)),
      unit: 'ms',
      target: '< 300',
      note: `${clusters.toLocaleString('en-US')} clusters; median of ${runs}, max ${fixed(Math.max(...times))} ms; light DOM in Node (no layout or paint)`,
    },
  ];
}

if (runDirectly(import.meta.url)) console.table(await run());
