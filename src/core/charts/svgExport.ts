/**
 * What a chart page sends to be saved as SVG is checked before it is written: the page is
 * ours, but its labels are scan data, and a file a person opens later in a browser must not
 * run or fetch anything. Pure: no VS Code.
 */

/** Largest SVG a chart page may send (characters). */
export const MAX_SVG_CHARS = 2_000_000;

export type SvgCheck = { ok: true; svg: string } | { ok: false; reason: string };

/**
 * An `<svg` document (an XML declaration before it is allowed) with no script, no event
 * handler attribute, no foreign object, no `href`/`src`/`url(...)` to anything but a local
 * `#fragment`, and no entity declarations.
 */
export function checkSvg(text: unknown): SvgCheck {
  if (typeof text !== 'string') return { ok: false, reason: 'not text' };
  if (text.length > MAX_SVG_CHARS) return { ok: false, reason: 'too large' };
  const body = text.replace(/^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?/, '');
  if (!/^<svg[\s>]/.test(body)) return { ok: false, reason: 'not an <svg> document' };
  if (!/<\/svg>\s*$/.test(body)) return { ok: false, reason: 'not a whole <svg> document' };
  if (/<\s*script/i.test(body)) return { ok: false, reason: 'holds a script' };
  if (/<\s*foreignObject/i.test(body)) return { ok: false, reason: 'holds a foreign object' };
  if (/<!(DOCTYPE|ENTITY)/i.test(body)) return { ok: false, reason: 'declares entities' };
  if (/\son[a-z]+\s*=/i.test(body)) return { ok: false, reason: 'has an event handler attribute' };
  for (const m of body.matchAll(/\s(?:xlink:)?(?:href|src)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi)) {
    const v = m[1]!.replace(/^["']|["']$/g, '').trim();
    if (!v.startsWith('#')) return { ok: false, reason: 'links to a resource' };
  }
  if (/url\(\s*['"]?\s*(?!#)/i.test(body)) return { ok: false, reason: 'links to a resource' };
  return { ok: true, svg: text };
}
