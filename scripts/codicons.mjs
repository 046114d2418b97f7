// The pages load the codicon font from the extension's own files (CSP: no remote fonts), cut
// to the glyphs they draw (src/webview/icons.ts): ~3 KB instead of 126 KB + 34 KB of CSS.
// Written by esbuild.mjs with the pages' bundles.
import * as fs from 'node:fs';

export async function writeCodicons() {
  const src = 'node_modules/@vscode/codicons/dist';
  const list = /export const ICONS = \[([^\]]*)\]/.exec(fs.readFileSync('src/webview/icons.ts', 'utf8'));
  const names = [...(list?.[1] ?? '').matchAll(/'([a-z0-9-]+)'/g)].map((m) => m[1]);
  const css = fs.readFileSync(`${src}/codicon.css`, 'utf8');
  const rules = names.map((name) => {
    const rule = new RegExp(`^\\.codicon-${name}:before \\{ content: "\\\\([0-9a-f]+)" \\}$`, 'm').exec(css);
    if (!rule) throw new Error(`src/webview/icons.ts names "${name}", which @vscode/codicons does not have`);
    return { name, code: parseInt(rule[1], 16), line: rule[0] };
  });
  const { default: subsetFont } = await import('subset-font');
  const ttf = await subsetFont(
    fs.readFileSync(`${src}/codicon.ttf`),
    rules.map((r) => String.fromCodePoint(r.code)).join(''),
    { targetFormat: 'truetype' },
  );
  // The stylesheet's head (licence, @font-face, the .codicon rule, the spin modifier) up to
  // the first glyph rule, then one rule per glyph kept.
  const head = css.slice(0, css.search(/^\.codicon-[a-z0-9-]+:before/m));
  fs.mkdirSync('dist/codicons', { recursive: true });
  fs.writeFileSync('dist/codicons/codicon.ttf', ttf);
  fs.writeFileSync(
    'dist/codicons/codicon.css',
    `${head.replace(/codicon\.ttf\?[0-9a-f]+/, 'codicon.ttf')}${rules.map((r) => r.line).join('\n')}\n`,
  );
}
