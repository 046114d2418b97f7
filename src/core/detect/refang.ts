// Refanging: the inverse of the defanging threat reports use so indicators are not clickable.

const CLOSE_OF: Record<string, string> = { ']': '[', ')': '(', '}': '{' };

/**
 * Replaces defang markers with what they stand for: `[.]` `(.)` `{.}` `[dot]` `(dot)` `{dot}` → `.`,
 * `[:]` → `:`, `[://]` → `://`, `[at]` `(at)` `[@]` → `@`, and `hxxp(s)://` style schemes → `http(s)://`.
 *
 * One left-to-right pass with the output used as a stack: a marker is reduced when its closing
 * bracket arrives, so nested forms (`[[.]]`) reduce fully and the result is a fixed point:
 * `refang(refang(x)) === refang(x)`. Linear time.
 */
export function refang(s: string): string {
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    const open = CLOSE_OF[c];
    if (open !== undefined && reduce(out, open, c)) continue;
    out.push(c);
  }
  return out
    .join('')
    .replace(/\bh(?:xx|xxx|xt|tx)p(s?)(?=:\/\/)/gi, 'http$1')
    .replace(/\bfxp(s?)(?=:\/\/)/gi, 'ftp$1');
}

/** If `out` ends with `open` + a marker body, replaces them by the marker's meaning. */
function reduce(out: string[], open: string, close: string): boolean {
  const n = out.length;
  const at = (k: number): string => (n - k >= 0 ? out[n - k] : '');
  let body: string | undefined;
  let len = 0;
  if (at(2) === open && at(1) === '.') [body, len] = ['.', 2];
  else if (at(2) === open && at(1) === '@' && close === ']') [body, len] = ['@', 2];
  else if (at(2) === open && at(1) === ':' && close === ']') [body, len] = [':', 2];
  else if (at(4) === open && close === ']' && at(3) + at(2) + at(1) === '://') [body, len] = ['://', 4];
  else if (at(4) === open && (at(3) + at(2) + at(1)).toLowerCase() === 'dot') [body, len] = ['.', 4];
  else if (at(3) === open && close !== '}' && (at(2) + at(1)).toLowerCase() === 'at') [body, len] = ['@', 3];
  if (body === undefined) return false;
  out.length = n - len;
  for (const ch of body) out.push(ch);
  return true;
}
