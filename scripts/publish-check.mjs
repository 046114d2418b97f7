// `npm run package:check`: everything a registry upload needs but the upload. Builds the
// .vsix (scripts/package.mjs: production build, vsce package) and checks what is in it, as
// the Marketplace and Open VSX will see it (docs/publishing.md):
//   - vsce printed no warning
//   - the size is within the budget (600 KB: a small download, a fast start)
//   - the files are the ones users need (no source, map, test or screenshot), and the
//     bundles the manifest names are there
//   - no shipped bundle carries a test fixture (the hostile payloads of src/emulator/hostile.ts
//     and injection.ts)
//   - the manifest fields the registries read (publisher, licence, icon, categories, kind,
//     pricing, preview, Q&A, engine) and a 256×256 icon
//   - with --publish: the links a registry page needs (ODIN_REPOSITORY_URL set), and
//     --pre-release marked in the package when asked
//
// Usage: node scripts/publish-check.mjs [--pre-release] [--publish] [--vsix FILE] [--out-dir DIR]
//   --vsix FILE  check a .vsix already built instead of building one
// Ends with "publish-check: N checks passed" or the failed checks and exit code 1.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';
import { ALLOWED, packageExtension } from './package.mjs';
import { runDirectly, scriptArgs } from './args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The budget of the packed .vsix. */
// 600 KB, German and the map included (the pages' codicon font is cut to the glyphs they draw).
export const MAX_VSIX_BYTES = 600 * 1024;

/** Files the package must hold (paths inside extension/). */
const REQUIRED = [
  'package.json',
  'package.nls.json',
  'package.nls.de.json',
  'l10n/bundle.l10n.de.json',
  'README.md',
  'CHANGELOG.md',
  'LICENSE.txt',
  'media/icon.png',
  'dist/extension.js',
  'dist/mcp.js',
  'dist/emulator.js',
  'dist/webview.js',
];

/** The entries of a zip file (a .vsix) by name, read from its central directory. */
export function readZip(file) {
  const b = fs.readFileSync(file);
  let end = b.length - 22;
  while (end >= 0 && b.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error(`${file} is not a zip file`);
  const count = b.readUInt16LE(end + 10);
  let p = b.readUInt32LE(end + 16);
  const entries = new Map();
  for (let i = 0; i < count; i++) {
    if (b.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory`);
    const method = b.readUInt16LE(p + 10);
    const size = b.readUInt32LE(p + 20);
    const nameLen = b.readUInt16LE(p + 28);
    const extraLen = b.readUInt16LE(p + 30);
    const commentLen = b.readUInt16LE(p + 32);
    const local = b.readUInt32LE(p + 42);
    const name = b.toString('utf8', p + 46, p + 46 + nameLen);
    const dataAt = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const data = b.subarray(dataAt, dataAt + size);
    entries.set(name, () => (method === 8 ? zlib.inflateRawSync(data) : Buffer.from(data)));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** Each test payload's longest run that a bundler prints as it is (test/unit/package/shipped.test.ts). */
function fixtureProbes() {
  const text = ['hostile.ts', 'injection.ts']
    .map((f) => fs.readFileSync(path.join(root, 'src', 'emulator', f), 'utf8'))
    .join('\n');
  // The payloads are the string literals of PAYLOADS / INJECTIONS: quoted text with markup in it.
  const literals = [...text.matchAll(/^\s+\w+:\s*\n?\s*'([^'\n]{12,})',?$/gm)].map((m) => m[1]);
  return literals
    .map((p) => p.split(/[^\w <>=()[\].:/!,?-]+/).reduce((a, b) => (b.length > a.length ? b : a), ''))
    .filter((p) => p.length >= 12);
}

/** Checks a built .vsix; returns the failed checks (empty when all pass) and what passed. */
export function checkVsix(file, { preRelease = false, publish = false, warnings = [] } = {}) {
  const failed = [];
  const passed = [];
  const check = (name, ok, detail = '') => (ok ? passed : failed).push(ok ? name : `${name}: ${detail}`);
  const zip = readZip(file);
  // vsce stores the README and the changelog as readme.md and changelog.md.
  const AS_WRITTEN = { 'readme.md': 'README.md', 'changelog.md': 'CHANGELOG.md' };
  const stored = new Map(
    [...zip.keys()]
      .filter((n) => n.startsWith('extension/'))
      .map((n) => [AS_WRITTEN[n.slice(10)] ?? n.slice(10), n]),
  );
  const files = [...stored.keys()];
  const text = (f) => zip.get(stored.get(f))?.().toString('utf8') ?? '';

  check('vsce printed no warning', warnings.length === 0, warnings.join(' | '));
  const bytes = fs.statSync(file).size;
  check(`size ≤ ${MAX_VSIX_BYTES / 1024} KB`, bytes <= MAX_VSIX_BYTES, `${(bytes / 1024).toFixed(1)} KB`);
  const unexpected = files.filter((f) => !ALLOWED.some((re) => re.test(f)));
  check('only the files users need', unexpected.length === 0, unexpected.join(', '));
  const missing = REQUIRED.filter((f) => !files.includes(f));
  check('the files the manifest needs', missing.length === 0, `missing ${missing.join(', ')}`);

  const probes = fixtureProbes();
  const carriers = files
    .filter((f) => f.endsWith('.js'))
    .flatMap((f) => probes.filter((p) => text(f).includes(p)).map((p) => `${f}: ${p.slice(0, 30)}`));
  check(
    `no test fixture in a bundle (${probes.length} payloads)`,
    probes.length >= 12 && carriers.length === 0,
    carriers.join('; ') || 'payloads not found in src/emulator',
  );

  const pkg = JSON.parse(text('package.json') || '{}');
  const want = {
    publisher: (v) => typeof v === 'string' && /^[a-z0-9][a-z0-9-]*$/.test(v),
    license: (v) => v === 'MIT',
    pricing: (v) => v === 'Free',
    preview: (v) => v === /^0\./.test(pkg.version),
    qna: (v) => v === false,
    extensionKind: (v) => JSON.stringify(v) === '["workspace"]',
    categories: (v) => Array.isArray(v) && v.length > 0 && !(v.length === 1 && v[0] === 'Other'),
    icon: (v) => v === 'media/icon.png',
    galleryBanner: (v) => typeof v?.color === 'string',
    engines: (v) => /^\^1\.\d+\.0$/.test(v?.vscode ?? ''),
    main: (v) => files.includes(String(v).replace(/^\.\//, '')),
  };
  const wrong = Object.entries(want).filter(([k, ok]) => !ok(pkg[k]));
  check(
    'manifest fields for the registries',
    wrong.length === 0,
    wrong.map(([k]) => `${k}=${JSON.stringify(pkg[k])}`).join(', '),
  );
  const icon = zip.get('extension/media/icon.png')?.();
  const size = icon ? `${icon.readUInt32BE(16)}×${icon.readUInt32BE(20)}` : 'none';
  check('icon 256×256', size === '256×256', size);

  const manifest = zip.get('extension.vsixmanifest')?.().toString('utf8') ?? '';
  const markedPre = /Microsoft\.VisualStudio\.Code\.PreRelease" Value="true"/.test(manifest);
  check(
    preRelease ? 'marked pre-release' : 'not marked pre-release',
    markedPre === preRelease,
    manifest ? `PreRelease ${markedPre}` : 'no extension.vsixmanifest',
  );
  if (publish) {
    check(
      'repository link for the registry page (ODIN_REPOSITORY_URL)',
      typeof pkg.repository?.url === 'string',
      'set ODIN_REPOSITORY_URL to the public repository: without it the README links are broken on the registry page',
    );
  }
  return { failed, passed, files, bytes };
}

if (runDirectly(import.meta.url)) {
  const { values } = scriptArgs(import.meta.url, {
    'pre-release': { type: 'boolean' },
    publish: { type: 'boolean' },
    vsix: { type: 'string' },
    'out-dir': { type: 'string' },
  });
  const preRelease = values['pre-release'] === true;
  const publish = values.publish === true;
  try {
    let file = values.vsix;
    let warnings = [];
    if (!file) {
      const outDir = path.resolve(values['out-dir'] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'odin-vsix-')));
      const r = packageExtension({ outDir, preRelease });
      file = r.file;
      warnings = r.warnings;
    }
    const r = checkVsix(file, { preRelease, publish, warnings });
    for (const p of r.passed) console.log(`  ✔ ${p}`);
    for (const f of r.failed) console.log(`  ✘ ${f}`);
    console.log(`VSIX ${file} (${(r.bytes / 1024).toFixed(1)} KB, ${r.files.length} files)`);
    if (r.failed.length) {
      console.log(`publish-check: ${r.failed.length} failed, ${r.passed.length} passed`);
      process.exit(1);
    }
    console.log(`publish-check: ${r.passed.length} checks passed`);
  } catch (e) {
    console.error(`publish-check: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
