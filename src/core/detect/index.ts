// Detection of IP addresses, CIDR blocks and host names in arbitrary text (code, logs, threat
// reports, any language), with exact ranges into the original text. Pure TypeScript: no
// `vscode` import.
//
// What counts, and the decisions behind it:
// - IPv4: exactly four decimal parts 0-255 without leading zeros, not part of a longer dotted
//   run (`1.2.3.4.5`, OIDs), not glued to letters (`v1.2.3.4`), not a product version
//   (`Chrome/120.0.0.0`, `Version=4.0.0.0`). `a.b.c.d:port` gives `port`; `a.b.c.d/nn` is a CIDR
//   block when nn is a valid prefix length (else the address alone). Ranges `a-b` give both ends.
// - IPv6: every RFC 4291 spelling (full, compressed, mixed `::ffff:1.2.3.4`, upper case), zone ids
//   (`fe80::1%eth0`, `%25` inside brackets), `[addr]:port`. A compressed form needs a digit, or
//   brackets, or a prefix (`::/0`), since `Foo::Bar` and `a::b` are code; `x[::2]` is a slice.
// - Domains: a syntactically valid host name whose suffix is an ICANN public suffix (tldts,
//   private section off, so `x.github.io` is read under `io`) with a registrable label. Not file
//   names with extension TLDs (`setup.py`, `README.md`, `main.tf`), receivers (`this.foo.bar`),
//   reverse-DNS identifiers (`com.example.app`), calls (`foo.bar(`), paths (`src/x.com`), or the
//   local part of an e-mail address. E-mail addresses yield their domain part (`user@example.com`
//   → `example.com`): that is the host a lookup is about. In `code` mode (the default) TLDs that
//   are words (`user.name`, `collator.compare`), short pairs (`e.id`) and mixed-case spellings
//   (`Date.now`) also need context: a URL, an `@`, a defang marker, `www.`, a hyphen, a
//   multi-label suffix, or quotes around a 3+-label name. Names under non-ICANN suffixes
//   (`db.corp.internal`, `printer.local`) are not detected at all; the privacy classifier
//   explains them if a caller asks.
// - Names written with letters outside ASCII (`bücher-login.de`, a look-alike `раураl.com`) are
//   found whole: `raw` is the name as written, `value` its punycode (`xn--bcher-login-thb.de`).
// - Defanged forms: `[.]` `(.)` `{.}` `[dot]` `(dot)` `{dot}` `[:]` inside a token, and hosts after
//   `hxxp(s)://`, `hxxp[:]//`, `[://]`, `[at]`; `defanged` is set and `value` is refanged.
// - Ranges cover the address or name only (not brackets or the port); `raw` is the text there.
// - Linear time: one pass over runs of [0-9A-Za-z._:-] and markers, each analysed in time linear in
//   its length; runs longer than MAX_RUN are skipped. Large inputs skip between trigger characters
//   with native searches. No regular expression sees unbounded input.
// How a candidate becomes an indicator, module by module, and how to add a rule: docs/detection.md.
import { scan, scanTable } from './scan';
import type { DetectionTable } from './table';
import type { Detection, DetectOptions } from './types';

export type { Detection, DetectionKind, DetectOptions } from './types';
export { refang } from './refang';
export { canonicalIp, formatIPv4, formatIPv6, parseIPv4, parseIPv6 } from './ip';
export { MAX_RUN } from './scan';
export type { DetectionTable } from './table';

/** All detections in `text`, in order of `start`. Linear time in `text.length`. */
export function detect(text: string, opts?: DetectOptions): Detection[] {
  return scan(text, 0, text.length, opts);
}

/**
 * All detections in `text` as a compact table: the same detections as `detect`, as numbers,
 * with `raw` and `value` built only for the rows a caller reads (`table.get(i)`). For whole
 * files and large logs, where `detect` would allocate an object and strings per hit.
 */
export function detectTable(text: string, opts?: DetectOptions): DetectionTable {
  return scanTable(text, opts);
}

/**
 * Detections that overlap `[from, to)`, computed with the surrounding context (a token that
 * starts before `from` is read whole). Cost is proportional to the range plus a bounded margin,
 * so a hover can scan one line of a 5 MB minified file.
 */
export function detectInRange(text: string, from: number, to: number, opts?: DetectOptions): Detection[] {
  return scan(text, from, to, opts);
}

/**
 * The detection under the cursor at `offset` (`start <= offset < end`), or the one that ends
 * exactly at `offset` (caret just after the token).
 */
export function detectAt(text: string, offset: number, opts?: DetectOptions): Detection | undefined {
  const [hit] = scan(text, offset, offset, opts);
  if (hit || offset === 0) return hit;
  return scan(text, offset - 1, offset - 1, opts).find((d) => d.end === offset);
}
