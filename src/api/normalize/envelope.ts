/** The API envelope in both dialects: the payload under ` data`, `Data` or `data`, `meta`,
 * `pagination` and the server's error text. */
import { isObj, isEmpty, str, obj, type Obj } from './json';

function pick(body: Obj, keys: string[]): unknown {
  let fallback: unknown;
  for (const k of keys) {
    if (!Object.prototype.hasOwnProperty.call(body, k)) continue;
    const v = body[k];
    if (v !== null && v !== undefined && !isEmpty(v)) return v;
    if (fallback === undefined) fallback = v;
  }
  return fallback;
}

/** The payload: ` data` (spec host search), `Data` (spec field catalogues) or `data`. */
export function envelopeData(body: Obj): unknown {
  return pick(body, [' data', 'data', 'Data', ' Data']);
}

export function envelopeMeta(body: Obj): Obj {
  return obj(pick(body, ['meta', ' meta']));
}

export function envelopePagination(body: Obj): Obj {
  return obj(pick(body, ['pagination', ' pagination']));
}

/** The server's error text: `message` plus the ` error` string of the spec's host search. */
export function envelopeErrorText(body: unknown): string | undefined {
  if (!isObj(body)) return undefined;
  const parts = [str(body.message), str(body[' error']), str(body.error)].filter((x) => x);
  return parts.length ? [...new Set(parts)].join(': ') : undefined;
}
