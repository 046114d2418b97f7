/**
 * Blanks out known secret values (the API key) and anything that looks like an
 * `X-API-Key: ...` header from a text before it is logged or shown.
 */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join('‹redacted›');
  }
  return out.replace(/(x-api-key["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, '$1‹redacted›');
}

/**
 * `value` with the secrets redacted in every string it holds (object keys included), for
 * data from a server that may echo the key. Returns `value` itself when nothing changed, so
 * a clean answer costs one walk and no copy. Cycles and depth are bounded.
 */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  const keys = secrets.filter((k) => k.length > 0);
  const seen = new WeakMap<object, unknown>();
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return redactSecrets(v, keys);
    if (!v || typeof v !== 'object' || depth > 64) return v;
    const done = seen.get(v);
    if (done !== undefined) return done;
    seen.set(v, v);
    let changed = false;
    let out: unknown;
    if (Array.isArray(v)) {
      const arr = v.map((x) => {
        const y = walk(x, depth + 1);
        if (y !== x) changed = true;
        return y;
      });
      out = changed ? arr : v;
    } else {
      const entries: Array<[string, unknown]> = [];
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        const rk = redactSecrets(k, keys);
        const y = walk(x, depth + 1);
        if (y !== x || rk !== k) changed = true;
        entries.push([rk, y]);
      }
      if (changed) {
        // Own data properties only (a `__proto__` key stays a key, never a prototype).
        const copy = Object.create(Object.getPrototypeOf(v) as object | null) as Record<string, unknown>;
        for (const [k, y] of entries)
          Object.defineProperty(copy, k, { value: y, enumerable: true, writable: true, configurable: true });
        out = copy;
      } else {
        out = v;
      }
    }
    seen.set(v, out);
    return out;
  };
  return walk(value, 0) as T;
}
