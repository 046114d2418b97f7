// The flags of the scripts a developer runs by hand (`npm test`, `npm run bench`, `npm run demo`,
// `npm run test:quick`): `--help` (or `-h`) prints the script's own header comment, which is its
// manual, and exits 0; a flag the script does not take exits 2 and names it, instead of the
// script running in full as if it had not been given (a misspelt `--unit` ran every tier).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * @param {string} url the script's `import.meta.url`
 * @param {string[]} known the flags it takes (`--unit`) and its options (`--only=`: also
 *   written `--only value`)
 * @param {string[]} [args] the arguments (default: the process's)
 */
export function checkArgs(url, known, args = process.argv.slice(2)) {
  const file = fileURLToPath(url);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(usage(file));
    process.exit(0);
  }
  const takes = (a) =>
    known.some((k) => (k.endsWith('=') ? a.startsWith(k) || a === k.slice(0, -1) : a === k));
  const unknown = args.filter((a) => a.startsWith('-') && !takes(a));
  if (unknown.length) {
    process.stderr.write(
      `${path.basename(file)}: unknown ${unknown.join(', ')}; it takes ${known.join(' ')} (--help for more)\n`,
    );
    process.exit(2);
  }
}

/** The script's leading comment, without the comment marks. */
export function usage(file) {
  const lines = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('//')) break;
    lines.push(line.replace(/^\/\/ ?/, ''));
  }
  return `${lines.join('\n')}\n`;
}
