/**
 * "Save as SVG": the file is built here, not taken from the page. What a chart or map page
 * sends is parsed by a real XML parser (sax, strict, namespace-aware), and only the elements
 * and attributes those pages draw, each attribute with a value of its own kind (a number, a
 * colour, path data), are written again by our serialiser; anything else refuses the file.
 * Labels are text (`<text>`, `<title>`, `aria-label`): whatever they say (`url(`, `<script>`,
 * quotes) they are escaped, never a reason to refuse, and invisible characters are shown.
 * Pure: no VS Code.
 */
import { parser, type QualifiedAttribute, type QualifiedTag } from 'sax';
import { showInvisibles } from '../text/inert';
import { MAX_SVG_CHARS } from './exportLimits';

export { MAX_SVG_CHARS };

export type SvgCheck = { ok: true; svg: string } | { ok: false; reason: string };

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The elements a chart or map page draws; `text` and `title` hold text. */
const ELEMENTS = new Set(['svg', 'g', 'rect', 'text', 'title', 'path', 'circle']);
const TEXT_ELEMENTS = new Set(['text', 'title']);
const MAX_DEPTH = 16;

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)(e-?\d+)?(px|%)?$/i;
/** A colour as a computed style gives it: a name, `#hex` or one CSS colour function of numbers. */
const COLOUR =
  /^(none|transparent|currentcolor|[a-z]{3,20}|#[0-9a-f]{3,8}|(rgba?|hsla?|color|lab|lch|oklab|oklch)\([a-z0-9\s.,%/+-]*\))$/i;

/** Attribute → the check of its value; labels (`aria-label`) are any text. */
const ATTRIBUTES: Record<string, (v: string) => boolean> = {
  class: (v) => /^[\w\s-]*$/.test(v),
  role: (v) => /^[a-z]+$/.test(v),
  'aria-label': () => true,
  'aria-pressed': (v) => v === 'true' || v === 'false',
  'data-bar': (v) => /^\d+$/.test(v),
  'data-cluster': (v) => /^\d+$/.test(v),
  x: (v) => NUMBER.test(v),
  y: (v) => NUMBER.test(v),
  width: (v) => NUMBER.test(v),
  height: (v) => NUMBER.test(v),
  cx: (v) => NUMBER.test(v),
  cy: (v) => NUMBER.test(v),
  r: (v) => NUMBER.test(v),
  'stroke-width': (v) => NUMBER.test(v),
  'font-size': (v) => NUMBER.test(v),
  viewBox: (v) => /^\s*(-?[\d.]+[\s,]+){3}-?[\d.]+\s*$/.test(v),
  d: (v) => /^[MmLlHhVvZzCcSsQqTtAa\d\s.,eE+-]*$/.test(v),
  fill: (v) => COLOUR.test(v.trim()),
  stroke: (v) => COLOUR.test(v.trim()),
  'font-family': (v) => /^[\w\s,"'.-]*$/.test(v),
  'font-weight': (v) => /^[\w]+$/.test(v),
  'dominant-baseline': (v) => /^[a-z-]+$/.test(v),
  'text-anchor': (v) => v === 'start' || v === 'middle' || v === 'end',
};

/** Characters XML 1.0 does not allow (scan data may hold them): a viewer would not open the file. */
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function escapeText(s: string): string {
  return showInvisibles(s)
    .replace(XML_INVALID, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function escapeAttribute(s: string): string {
  return escapeText(s)
    .replace(/"/g, '&quot;')
    .replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

class Refused extends Error {}

/** The attribute as written again, or a refusal; namespace declarations are not kept. */
function attribute(a: QualifiedAttribute): string | undefined {
  if (a.name === 'xmlns') {
    if (a.value !== SVG_NS) throw new Refused('declares another default namespace');
    return undefined;
  }
  if (a.prefix === 'xmlns') return undefined;
  if (a.prefix !== '' || a.uri !== '') throw new Refused(`has a namespaced attribute ${a.name}`);
  const check = Object.prototype.hasOwnProperty.call(ATTRIBUTES, a.local) ? ATTRIBUTES[a.local] : undefined;
  if (!check) throw new Refused(`has an attribute ${a.local} no chart draws`);
  if (!check(a.value)) throw new Refused(`has an attribute ${a.local} of an unexpected value`);
  return ` ${a.local}="${escapeAttribute(a.value)}"`;
}

/**
 * The SVG file for what a chart or map page sent: one `<svg>` document of the allowed
 * elements and attributes, written again by our serialiser; a reason when it is anything else.
 */
export function checkSvg(text: unknown): SvgCheck {
  if (typeof text !== 'string') return { ok: false, reason: 'not text' };
  if (text.length > MAX_SVG_CHARS) return { ok: false, reason: 'too large' };
  const out: string[] = [];
  const open: string[] = [];
  let rootClosed = false;
  let started = false;
  const p = parser(true, { xmlns: true });
  p.onerror = (e) => {
    throw new Refused(`is not well-formed XML (${e.message.split('\n')[0]})`);
  };
  p.ondoctype = () => {
    throw new Refused('holds a document type declaration');
  };
  p.onprocessinginstruction = (pi) => {
    if (pi.name !== 'xml' || started) throw new Refused('holds a processing instruction');
  };
  p.oncomment = () => {
    throw new Refused('holds a comment');
  };
  p.oncdata = () => {
    throw new Refused('holds a CDATA section');
  };
  p.onopentag = (tag) => {
    const t = tag as QualifiedTag;
    if (rootClosed) throw new Refused('holds more than one document');
    if (!started && t.local !== 'svg') throw new Refused('is not an <svg> document');
    started = true;
    if (t.prefix !== '' || (t.uri !== SVG_NS && t.uri !== ''))
      throw new Refused(`holds a <${t.name}> element`);
    if (!ELEMENTS.has(t.local)) throw new Refused(`holds a <${t.local}> element`);
    if (open.length >= MAX_DEPTH) throw new Refused('is nested too deeply');
    const attrs = Object.values(t.attributes).map(attribute).join('');
    out.push(`<${t.local}${open.length === 0 ? ` xmlns="${SVG_NS}"` : ''}${attrs}>`);
    open.push(t.local);
  };
  p.onclosetag = () => {
    out.push(`</${open.pop()!}>`);
    if (open.length === 0) rootClosed = true;
  };
  p.ontext = (s) => {
    if (s.trim() === '') return;
    const inside = open[open.length - 1];
    if (inside === undefined || !TEXT_ELEMENTS.has(inside)) throw new Refused('holds text outside a label');
    out.push(escapeText(s));
  };
  try {
    p.write(text.replace(/^\uFEFF/, '')).close();
  } catch (e) {
    if (e instanceof Refused) return { ok: false, reason: e.message };
    throw e;
  }
  if (!rootClosed) return { ok: false, reason: 'not a whole <svg> document' };
  return { ok: true, svg: out.join('') };
}
