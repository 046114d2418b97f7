/**
 * The manifest as the registries (Marketplace, Open VSX) read it: categories, where the
 * extension runs, the icon, the gallery fields, no link that leads nowhere, a prepublish
 * build. What `vsce package` makes of it is checked by scripts/publish-check.mjs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readManifest } from '../../support/manifest';

const root = join(__dirname, '..', '..', '..', '..');
const pkg = readManifest(root);

/** Width and height of a PNG, from its IHDR chunk. */
export function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  assert.equal(b.toString('latin1', 1, 4), 'PNG', `${file} is a PNG`);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

test('the gallery fields: free, preview while 0.x, no Q&A, a dark banner, categories that match', () => {
  assert.equal(pkg.pricing, 'Free');
  assert.equal(pkg.preview, /^0\./.test(pkg.version));
  assert.equal(pkg.qna, false);
  assert.match(pkg.galleryBanner?.color, /^#[0-9a-f]{6}$/i);
  assert.ok(['dark', 'light'].includes(pkg.galleryBanner?.theme));
  // Language-model tools (AI, Chat), the .odinq query language (Programming Languages).
  assert.deepEqual(pkg.categories, ['AI', 'Chat', 'Programming Languages', 'Other']);
  assert.equal(pkg.license, 'MIT');
});

test('runs where the files are: extensionKind workspace', () => {
  assert.deepEqual(pkg.extensionKind, ['workspace']);
});

test('a 256×256 icon', () => {
  assert.deepEqual(pngSize(join(root, pkg.icon)), { width: 256, height: 256 });
});

test('no repository, homepage or bugs link in the manifest (none is public yet; ODIN_REPOSITORY_URL adds them when packaging)', () => {
  for (const k of ['repository', 'homepage', 'bugs']) assert.equal(pkg[k], undefined, k);
});

test('vscode:prepublish builds for production, so a bare `vsce publish` never packs a stale dist/', () => {
  assert.match(pkg.scripts['vscode:prepublish'], /esbuild\.mjs --production/);
});

test('the walkthrough: five steps, each with a contributed command and an SVG in theme colours', () => {
  const [w] = pkg.contributes.walkthroughs;
  const commands = new Set(pkg.contributes.commands.map((c: { command: string }) => c.command));
  assert.equal(w.steps.length, 5);
  for (const s of w.steps) {
    const linked = [...String(s.description).matchAll(/\]\(command:([\w.]+)\)/g)].map((m) => m[1]);
    assert.ok(linked.length > 0, `${s.id}: a command link`);
    for (const c of linked) assert.ok(commands.has(c), `${s.id}: ${c} is a contributed command`);
    assert.ok(s.completionEvents?.length, `${s.id}: completion events`);
    const svg = readFileSync(join(root, s.media.svg), 'utf8');
    assert.match(svg, /var\(--vscode-/, `${s.id}: theme colours`);
    // Every colour follows the theme: no fixed fill or stroke.
    assert.doesNotMatch(svg, /(fill|stroke)="(#|rgb|[a-z]+")/i, `${s.id}: a fixed colour`);
  }
});
