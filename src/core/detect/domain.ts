// Host name validation against the public suffix list (tldts), plus the small set of
// heuristics that keep file names and member accesses in code from being read as domains.
import { parse } from 'tldts';
import { domainToASCII } from 'node:url';
import { detached } from '../text/detached';
import { CODE_SAFE_TLDS, FILE_EXTENSION_TLDS, MEMBER_NAME_TLDS, RECEIVERS, REVERSE_DNS_HEADS } from './rules';

const TLDTS_OPTIONS = {
  // Only the ICANN section counts: a private-section suffix (github.io, s3.amazonaws.com) is still
  // a name under an ICANN TLD, which is what makes it a public host name.
  allowPrivateDomains: false,
  extractHostname: false,
  validateHostname: false,
  detectIp: false,
  mixedInputs: false,
} as const;

const tldCache = new Map<string, boolean>();
const nameCache = new Map<string, NameInfo | null>();
const NAME_CACHE_MAX = 20_000;

export interface NameInfo {
  /** The ICANN public suffix (`com`, `co.uk`). */
  suffix: string;
  /** The registrable domain (`example.co.uk`). */
  registrable: string;
}

/** True if `label` (lower case) is an ICANN top-level domain. Cached: at most a few thousand. */
export function isIcannTld(label: string): boolean {
  let v = tldCache.get(label);
  if (v === undefined) {
    const r = parse(`x.${label}`, TLDTS_OPTIONS);
    // isIcann is false only when no rule matched (the implicit `*` rule): an unknown TLD.
    v = r.isIcann === true;
    if (tldCache.size < 50_000) tldCache.set(detached(label), v);
  }
  return v;
}

/**
 * Looks up `name` (lower case, syntactically valid) in the public suffix list. Returns
 * undefined unless its suffix is an ICANN suffix and the name has a label left of it.
 */
export function lookupName(name: string): NameInfo | undefined {
  let v = nameCache.get(name);
  if (v === undefined) {
    // The suffix and domain tldts returns are slices of the name it is given.
    name = detached(name);
    const r = parse(name, TLDTS_OPTIONS);
    v =
      r.isIcann === true && r.domain && r.publicSuffix
        ? { suffix: r.publicSuffix, registrable: r.domain }
        : null;
    if (nameCache.size >= NAME_CACHE_MAX) nameCache.clear();
    nameCache.set(name, v);
  }
  return v ?? undefined;
}

function isLdh(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45;
}

/**
 * Syntax check of a lower-case dotted name: 2+ labels, each 1-63 LDH characters without a hyphen
 * at either end, at most 253 in all, an alphabetic TLD. Leading `_service` labels
 * (`_dmarc.example.com`, `_sip._tcp.example.com`) are allowed; underscores elsewhere are not.
 */
export function isHostnameSyntax(name: string): boolean {
  const n = name.length;
  if (n < 3 || n > 253) return false;
  let labelStart = 0;
  let labels = 0;
  let servicePrefix = true;
  let serviceLabels = 0;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? name.charCodeAt(i) : 46;
    if (c !== 46) continue;
    const len = i - labelStart;
    if (len === 0 || len > 63) return false;
    let from = labelStart;
    if (name.charCodeAt(from) === 95) {
      if (!servicePrefix || len === 1) return false;
      serviceLabels++;
      from++;
    } else {
      servicePrefix = false;
    }
    if (name.charCodeAt(from) === 45 || name.charCodeAt(i - 1) === 45) return false;
    for (let k = from; k < i; k++) if (!isLdh(name.charCodeAt(k))) return false;
    labels++;
    labelStart = i + 1;
  }
  // Service labels sit left of a host name: `_dmarc.example.com`, not `_version.zero`.
  if (labels - serviceLabels < 2) return false;
  // The TLD is alphabetic (or an IDN `xn--` label).
  const tld = name.slice(name.lastIndexOf('.') + 1);
  if (tld.startsWith('xn--')) return tld.length > 4;
  for (let k = 0; k < tld.length; k++) {
    const c = tld.charCodeAt(k);
    if (c < 97 || c > 122) return false;
  }
  return true;
}

/** What is known about a name regardless of where it appears; cached per name. */
export interface NameFacts {
  info: NameInfo;
  /** Needs context in any mode: `this.x.com`, `com.example.app`, `setup.py`. */
  needsContext: boolean;
  /** Needs context in `code` mode: `user.name`, `node.id`, `collator.compare`. */
  needsContextInCode: boolean;
  labels: number;
}

const factsCache = new Map<string, NameFacts | null>();

/** The facts of a lower-case candidate name, or undefined if it is not a public host name. */
export function nameFacts(name: string): NameFacts | undefined {
  let f = factsCache.get(name);
  if (f !== undefined) return f ?? undefined;
  f = null;
  name = detached(name);
  if (isHostnameSyntax(name)) {
    const lastDot = name.lastIndexOf('.');
    const tld = name.slice(lastDot + 1);
    const info = isIcannTld(tld) ? lookupName(name) : undefined;
    if (info) {
      const firstDot = name.indexOf('.');
      const first = name.slice(0, firstDot);
      const marked = first === 'www' || info.suffix !== tld;
      const code = RECEIVERS.has(first) || (REVERSE_DNS_HEADS.has(first) && firstDot !== lastDot);
      const wordTld =
        MEMBER_NAME_TLDS.has(tld) || (tld.length > 2 && !CODE_SAFE_TLDS.has(tld) && !tld.startsWith('xn--'));
      // Minified member access: `e.id`, `it.ch`, `r1.st`.
      const shortPair = firstDot === lastDot && firstDot <= 2 && tld.length === 2;
      f = {
        info,
        needsContext: code || (!marked && FILE_EXTENSION_TLDS.has(tld)),
        needsContextInCode: code || shortPair || (!marked && wordTld && !name.includes('-')),
        labels: name.split('.').length,
      };
    }
  }
  if (factsCache.size >= NAME_CACHE_MAX) factsCache.clear();
  factsCache.set(name, f);
  return f ?? undefined;
}

/**
 * The domain decision for a candidate, given `f = nameFacts(its lower-case form)`: false when it
 * looks like code or a file name: a receiver first label (`this.`, `self.`), a reverse-DNS
 * identifier (`com.example.app`), a file-extension TLD (`setup.py`) or, in code, a TLD that is
 * also a word (`user.name`, `collator.compare`), a short pair (`e.id`) or a mixed-case spelling
 * (`Date.now`). Context (URL, e-mail, defang) lifts all of these; a `www.` label, a multi-label
 * public suffix (`co.in`) or a hyphen lifts the TLD-based ones; in code, so does being a quoted
 * name of three labels or more.
 *
 * @param strong after `scheme://`, `//`, `\\`, `@`, or defanged: the text says "this is a host"
 * @param code the text is code (`code` mode), not logs or prose
 * @param assigned followed by `=`: a member assignment or a `key=value` key
 * @param mixedCase written in mixed case: `Version.zero`, `Date.now`, `e.cA`
 * @param quoted the whole candidate is a string literal: `'api.example.dev'`
 */
export function acceptFacts(
  f: NameFacts,
  strong: boolean,
  code: boolean,
  assigned: boolean,
  mixedCase: boolean,
  quoted: boolean,
): boolean {
  if (strong) return true;
  if (code && mixedCase) return false;
  if (f.needsContext) return false;
  if (assigned && f.needsContextInCode) return false;
  // A quoted host name of three labels or more (`"api.example.dev"`) is a value, not a member.
  return !(code && f.needsContextInCode && !(quoted && f.labels >= 3));
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The value of a name as written: lower case, and in punycode (IDNA, by Node's WHATWG URL
 * parser) when written with letters outside ASCII (`Bücher-Login.de` → `xn--bcher-login-thb.de`);
 * '' if it is no valid IDN.
 */
export function nameValue(written: string): string {
  return NON_ASCII.test(written) ? domainToASCII(written) : written.toLowerCase();
}
