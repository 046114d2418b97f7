/**
 * Making attacker-written text (banners, titles, whois fields, domain names) inert before
 * it reaches any VS Code surface that interprets syntax: Markdown in hovers, `$(icon)` in
 * status bar / quick pick / tree labels, `[x](command:...)` links in notifications.
 * See SECURITY.md, "Rendering attacker strings".
 */

/**
 * Bidi controls, zero-width characters, NUL, other C0/C1 controls (ANSI escapes start
 * with ESC), the line/paragraph separators, the soft hyphen, the Mongolian vowel separator
 * and the interlinear annotation marks. Shown visibly instead of being interpreted: the one
 * list for every surface (the pages' `text()` in src/webview/dom.ts reads it too). Tabs and
 * newlines are not in it.
 */
export const INVISIBLE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb]/;
const INVISIBLE_G = new RegExp(INVISIBLE.source, 'g');

/** A character's code point as `U+XXXX`. */
export function codePoint(ch: string): string {
  return `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Replaces invisible and control characters with a visible `<U+XXXX>` marker. */
export function showInvisibles(text: string): string {
  return text.replace(INVISIBLE_G, (ch) => `<${codePoint(ch)}>`);
}

/** Cuts `text` to at most `max` characters (by code point), marking the cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = Array.from(text.slice(0, max + 1))
    .slice(0, Math.max(0, max - 1))
    .join('');
  return `${cut}…`;
}

/**
 * For one-line plain-text surfaces that still parse syntax: notifications (links),
 * status bar, quick picks and tree items (`$(icon)`). Newlines and tabs collapse to spaces.
 */
export function neutraliseUiText(text: string, max = 500): string {
  const oneLine = showInvisibles(text.replace(/[\r\n\t]+/g, ' '));
  // `$(name)` renders an icon; `[label](target)` renders a link in notifications.
  const inert = oneLine.replace(/\$\(/g, '$\u200a(').replace(/\]\(/g, ']\u200a(');
  return truncate(inert, max);
}

/**
 * Backslash-escapes every ASCII punctuation character Markdown may read as syntax. That
 * includes what starts or holds an autolink (`.` `:` `/` `@`): a renderer that linkifies
 * (VS Code's Markdown preview, GitHub) sees `www\.x\.com`, `a\@b\.c`, `https\:\/\/` as text,
 * since an escaped character ends the text run a link would be found in.
 */
export function escapeMarkdownSyntax(text: string): string {
  // `$&` is the match: no call per character.
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&:"'=$@/]/g, '\\$&');
}

/** Text every step of `escapeMarkdown` leaves as it is. */
const PLAIN = /^[A-Za-z0-9 ,]*$/;

/**
 * Escapes text for Markdown so that it renders literally: no links, images, emphasis,
 * headings, HTML or autolinks. Use for every API string put into a MarkdownString.
 */
export function escapeMarkdown(text: string, max = 2000): string {
  // Letters, digits, spaces and commas are what most words on a card are (names, places,
  // products), and no step below changes them: one test instead of four passes.
  if (text.length <= max && PLAIN.test(text)) return text;
  const visible = showInvisibles(truncate(text.replace(/\r\n?/g, '\n'), max));
  return (
    escapeMarkdownSyntax(visible)
      // Collapse newlines: hover cards lay out API text on one line each.
      .replace(/\n+/g, ' ')
  );
}

/**
 * Wraps text in a fenced code block whose fence is longer than any backtick run inside,
 * so the text can never close the fence early. Invisible characters are made visible.
 */
export function codeFence(text: string, language = 'text', max = 4000): string {
  const body = showInvisibles(truncate(text.replace(/\r\n?/g, '\n'), max));
  let longest = 0;
  for (const m of body.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${body}\n${fence}`;
}
