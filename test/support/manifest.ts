import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `value` with every `%key%` string replaced by its text in `nls`, as VS Code shows it. */
export function resolveNls(value: unknown, nls: Record<string, string>): unknown {
  if (typeof value === 'string') {
    const m = /^%(.+)%$/.exec(value);
    return m && m[1] in nls ? nls[m[1]] : value;
  }
  if (Array.isArray(value)) return value.map((v) => resolveNls(v, nls));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveNls(v, nls)]));
  return value;
}

/** package.json as a person reads it: `%key%` strings in English from package.nls.json. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function readManifest(root: string): any {
  const pkg: unknown = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  return resolveNls(pkg, nls);
}
