/**
 * Query helpers for ODIN's Lucene query-string syntax (see docs/odin-facts.md,
 * "Query language"): quoting values, narrowing a query by a facet, building a "similar
 * hosts" query, and strict input checks for IPs and CVE ids. Pure: no VS Code.
 */
import { parseIPv4, parseIPv6 } from '../detect/ip';
import { refang as refangText } from '../detect/refang';
import { l10n } from '../text/l10n';

/** Characters that make a bare value need quotes (whitespace, Lucene operators, quotes). */
const NEEDS_QUOTES = /[\s"'()[\]{}:^~*?\\/!+\-&|<>=]/;

/** A value as a query term: bare when safe, else double-quoted with `"` and `\` escaped. */
export function quoteValue(value: string | number | boolean | null): string {
  if (value === null) return '""';
  if (typeof value !== 'string') return String(value);
  if (value !== '' && !NEEDS_QUOTES.test(value) && !/^(AND|OR|NOT|TO)$/.test(value)) return value;
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** `(<query>) AND field:"value"`; an empty or `*` query narrows to the term alone. */
export function narrowQuery(query: string, field: string, value: string | number | boolean | null): string {
  const term = `${field}:${typeof value === 'string' ? `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : quoteValue(value)}`;
  const q = query.trim();
  if (q === '' || q === '*') return term;
  return `(${q}) AND ${term}`;
}

export interface SimilarHostInput {
  asn?: { number?: string };
  services?: Array<{ port?: number; product?: string }>;
  location?: { country_code?: string };
}

/**
 * A query for hosts like this one: same ASN and the same open ports (at most three, the
 * most telling). Falls back to the country when the ASN is unknown.
 */
export function similarHostsQuery(host: SimilarHostInput): string {
  const parts: string[] = [];
  const asn = host.asn?.number?.trim();
  if (asn) parts.push(`asn.number:${quoteValue(asn)}`);
  else if (host.location?.country_code)
    parts.push(`location.country_code:${quoteValue(host.location.country_code)}`);
  const ports = [
    ...new Set((host.services ?? []).map((s) => s.port).filter((p): p is number => Number.isInteger(p))),
  ];
  const portTerms = ports.slice(0, 3).map((p) => `services.port:${p}`);
  if (portTerms.length === 1) parts.push(portTerms[0]);
  else if (portTerms.length > 1) parts.push(`(${portTerms.join(' OR ')})`);
  return parts.join(' AND ') || '*';
}

/** The hosts search for the hosts in a CIDR block (the block as the gate wrote it). */
export function hostsInBlockQuery(block: string): string {
  return `ip:"${block.replace(/[\\"]/g, '')}"`;
}

/**
 * Strict IPv4 (dotted decimal, no leading zeros, no short forms) or IPv6. Lenient forms
 * (`012.0.0.1`, `0x7f.1`, `127.1`) are refused: see SECURITY.md, "Privacy: what is never sent".
 */
export function isIp(text: string): boolean {
  return isIpv4(text) || isIpv6(text);
}

// The project's one IP parser (src/core/detect/ip.ts).
export function isIpv4(text: string): boolean {
  return parseIPv4(text) >= 0;
}

export function isIpv6(text: string): boolean {
  return parseIPv6(text) !== undefined;
}

export function ipError(text: string): string | undefined {
  const t = text.trim();
  if (!t) return l10n.t('Enter an IP address.');
  return isIp(t)
    ? undefined
    : l10n.t(
        '{0} is not an IPv4 or IPv6 address (write IPv4 as four numbers 0-255 without leading zeros).',
        t.slice(0, 60),
      );
}

export function isCveId(text: string): boolean {
  return /^CVE-\d{4}-\d{4,}$/i.test(text.trim());
}

export function cveError(text: string): string | undefined {
  return isCveId(text) ? undefined : l10n.t('Enter a CVE id such as CVE-2021-44228.');
}

/** A plausible domain name (letters, digits, hyphens, dots; at least one dot; no scheme). */
export function domainError(text: string): string | undefined {
  const t = text.trim().replace(/\.$/, '');
  if (!t) return l10n.t('Enter a domain name.');
  if (/[/:@\s]/.test(t))
    return l10n.t('Enter the domain name only (no scheme, path or port), e.g. example.com.');
  if (t.length > 253) return l10n.t('A domain name has at most 253 characters.');
  const labels = t.split('.');
  if (labels.length < 2) return l10n.t('Enter a full domain name such as example.com.');
  const ok = labels.every(
    (l) => /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$/.test(l) || /^xn--[A-Za-z0-9-]{1,59}$/.test(l),
  );
  return ok ? undefined : l10n.t('{0} is not a valid domain name.', t.slice(0, 60));
}

/**
 * Refangs the defanged forms a user may paste from a report (`1.2.3[.]4`, `example(.)com`,
 * `hxxps://`), so inputs accept what analysts copy: the project's one refang
 * (src/core/detect/refang.ts), on the trimmed input.
 */
export function refang(text: string): string {
  return refangText(text.trim());
}

/**
 * Walks the characters of a query that stand outside quoted phrases (inside quotes a
 * backslash escapes the next character); `visit` returns true to stop. Returns the quote
 * still open where the walk ended.
 */
export function walkUnquoted(
  text: string,
  visit: (ch: string, i: number) => boolean | void,
): string | undefined {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (visit(ch, i) === true) return quote;
  }
  return quote;
}

/** Quick syntax check done locally before sending: balanced quotes, parentheses and brackets. */
export function querySyntaxWarning(query: string): string | undefined {
  let depth = 0;
  let range = 0;
  const quote = walkUnquoted(query, (ch) => {
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '[' || ch === '{') range++;
    else if (ch === ']' || ch === '}') range--;
    return depth < 0;
  });
  if (depth < 0) return l10n.t('A ")" has no matching "(".');
  if (quote) return l10n.t('A {0} quote is not closed.', quote);
  if (depth > 0) return l10n.t('A "(" is not closed.');
  if (range !== 0) return l10n.t('A range [a TO b] is not closed.');
  return undefined;
}
