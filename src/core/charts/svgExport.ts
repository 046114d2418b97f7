/**
 * What a chart page sends to be saved as SVG is checked before it is written: the page is
 * ours, but its labels are scan data, and a file a person opens later in a browser must not
 * run or fetch anything. Labels are text content (escaped by the serialiser), so only the
 * tags and their attributes are checked. Pure: no VS Code.
 */

/** Largest SVG a chart page may send (characters). */
export const MAX_SVG_CHARS = 2_000_000;

export type SvgCheck = { ok: true; svg: string } | { ok: false; reason: string };

/** Elements that run, embed or style from elsewhere: none of them is in a chart we draw. */
const REFUSED_ELEMENTS =
  /^(script|foreignobject|style|iframe|object|embed|image|feimage|use|a|animate|set|handler)$/i;
const TAG = /<\/?\s*([A-Za-z][\w:.-]*)([^>]*)>/g;
const ATTR = /([^\s=/>]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/g;

/**
 * An `<svg` document (an XML declaration before it is allowed) with no declaration,
 * comment or processing instruction inside, no element that runs or embeds, no `on*`
 * attribute, no `href`/`src` but a local `#fragment`, no `url(...)` but a local one.
 */
export function checkSvg(text: unknown): SvgCheck {
  if (typeof text !== 'string') return { ok: false, reason: 'not text' };
  if (text.length > MAX_SVG_CHARS) return { ok: false, reason: 'too large' };
  const body = text.replace(/^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?/, '').trimEnd();
  if (!/^<svg[\s>]/.test(body) || !body.endsWith('</svg>'))
    return { ok: false, reason: 'not a whole <svg> document' };
  if (/<[!?]/.test(body)) return { ok: false, reason: 'holds a declaration or instruction' };
  for (const tag of body.matchAll(TAG)) {
    const name = tag[1]!;
    if (REFUSED_ELEMENTS.test(name)) return { ok: false, reason: `holds a <${name}> element` };
    for (const attr of tag[2]!.matchAll(ATTR)) {
      const key = attr[1]!.toLowerCase();
      const value = attr[2]!.replace(/^["']|["']$/g, '').trim();
      if (key.startsWith('on')) return { ok: false, reason: 'has an event handler attribute' };
      if (/(^|:)(href|src)$/.test(key) && !value.startsWith('#'))
        return { ok: false, reason: 'links to a resource' };
      if (/url\(\s*['"]?\s*(?!#)/i.test(value) || /url\(/i.test(key))
        return { ok: false, reason: 'links to a resource' };
    }
  }
  return { ok: true, svg: text };
}
