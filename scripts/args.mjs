// The flags of the scripts a developer runs by hand (`npm test`, `npm run bench`, `npm run demo`,
// `npm run package`, … and the ones without an npm name), read by Node's own `util.parseArgs`
// from one list per script (the emulator's command line is its own: src/emulator/cli.ts):
// `--help` (or `-h`) prints the script's own header comment, which is its manual, and exits 0;
// a flag the script does not take exits 2 and names it, instead of the script running in full
// as if it had not been given (a misspelt `--unit` ran every tier).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * The script's flags and options, as `parseArgs` reads them (`--only=a,b` or `--only a,b`).
 * @param {string} url the script's `import.meta.url`
 * @param {import('node:util').ParseArgsConfig['options']} options what it takes
 * @param {{ positionals?: boolean }} [more] whether it takes arguments that are not flags
 * @returns {{ values: Record<string, string | boolean | undefined>, positionals: string[] }}
 */
export function scriptArgs(url, options, { positionals = false } = {}) {
  const file = fileURLToPath(url);
  const takes = Object.entries(options)
    .map(([name, o]) => `--${name}${o.type === 'string' ? '=' : ''}`)
    .join(' ');
  let parsed;
  try {
    parsed = parseArgs({
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: positionals,
    });
  } catch (e) {
    const unknown = e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && /'(-[^']*)'/.exec(e.message)?.[1];
    process.stderr.write(
      `${path.basename(file)}: ${unknown ? `unknown ${unknown}; it takes ${takes}` : e.message} (--help for more)\n`,
    );
    process.exit(2);
  }
  if (parsed.values.help) {
    process.stdout.write(usage(file));
    process.exit(0);
  }
  return parsed;
}

/**
 * Whether the script at `url` is the one Node was started with (`node scripts/x.mjs`), not a
 * module another script imports: the one test, for every script (paths compared as paths, so a
 * folder with a space or a relative start reads the same).
 * @param {string} url the script's `import.meta.url`
 */
export function runDirectly(url) {
  return process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(url);
}

/** The script's leading comment, without the comment marks. */
export function usage(file) {
  const lines = [];
  for (const [i, line] of fs.readFileSync(file, 'utf8').split('\n').entries()) {
    if (i === 0 && line.startsWith('#!')) continue;
    if (!line.startsWith('//')) break;
    lines.push(line.replace(/^\/\/ ?/, ''));
  }
  return `${lines.join('\n')}\n`;
}
