// Bench section: the size of the .vsix users download (scripts/package.mjs: the production
// build packed by vsce), against its budget of 550 KB, and its largest files unpacked.
// `npm run package:check` holds the hard limit (publish-check.mjs MAX_VSIX_BYTES).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageExtension } from '../package.mjs';
import { readZip } from '../publish-check.mjs';

export const BUDGETS = { vsixKb: 550 };

export default async function run() {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-bench-vsix-'));
  try {
    const { file } = packageExtension({ outDir });
    const largest = [...readZip(file)]
      .map(([name, read]) => ({ name: name.replace(/^extension\//, ''), kb: read().length / 1024 }))
      .sort((a, b) => b.kb - a.kb)
      .slice(0, 6);
    return [
      {
        name: '.vsix (packed)',
        value: Math.round(fs.statSync(file).size / 102.4) / 10,
        unit: 'KB',
        target: `<= ${BUDGETS.vsixKb}`,
        note: `largest unpacked: ${largest.map((f) => `${f.name} ${Math.round(f.kb)} KB`).join(', ')}`,
      },
    ];
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}
