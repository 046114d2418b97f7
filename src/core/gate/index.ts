/**
 * The one gate: for a value from any source (file text, a command argument, a saved search,
 * a restored page, a tree node, and what later comes: bulk triage, agent tools) it decides
 * whether the value may be sent to ODIN, and in which canonical form.
 *
 *   1. strict parsing to one canonical form (`parseTarget`): refanged, trimmed, brackets and
 *      IPv6 zone ids dropped, one trailing root dot allowed (two are not a name), case folded,
 *      Unicode names in punycode (UTS #46, as a browser maps them);
 *   2. the privacy policy on that canonical form only: workspace deny > user deny > user
 *      allow > the IANA / special-use classification. The deny and allow entries are put in
 *      the same canonical form first, so `mycompany.com` in a deny list also holds
 *      `X.MyCompany.com.`, `x.mycompany[.]com` and the full-width-dot spelling;
 *   3. the lookups mode and workspace trust, by what triggered the request:
 *        - `off`: nothing is sent, by any trigger;
 *        - Restricted Mode: nothing is sent automatically; an explicit command sends the one
 *          value it names only after the user confirmed it (`consented`, asked once a session);
 *        - `onCommand`: nothing automatic; explicit commands send;
 *        - `onHover`: both.
 *
 * Every network entry point asks `decide()` and sends `verdict.target.value`, never the
 * value it was given: the drift between two copies of this decision is where a leak hides.
 * Pure TypeScript: no `vscode` import.
 */
import { domainToASCII } from 'node:url';
import { formatIPv4, formatIPv6, parseIPv4, parseIPv6, refang } from '../detect';
import type { DetectionKind } from '../detect';
import { PrivacyPolicy, specialDomain, type DecisionSource, type PolicyDecision } from '../privacy';
import { formatBlock, parseCidr } from '../privacy/ip';
import { l10n } from '../text/l10n';
import { internalSuffix, patternCouldMatchName, type QueryPattern } from './patterns';
import { queryPatterns, queryValues } from './query';

export { queryValues, unescapeLucene, type QueryValue } from './query';

export type LookupsMode = 'onHover' | 'onCommand' | 'off';

/** Where a value came from (for the log and for what a verdict says). */
export type GateSource =
  'file' | 'command' | 'savedSearch' | 'restoredPage' | 'treeNode' | 'hover' | 'bulk' | 'agent';

/** What asks: a user action (a command, a click) or something that runs by itself. */
export type Trigger = 'explicit' | 'automatic';

/** A value in the one form that may go into a request. */
export interface Target {
  kind: 'ip' | 'cidr' | 'domain';
  /** Canonical text: `1.2.3.4`, `2001:db8::1` (no zone), `10.0.0.0/8`, `xn--bcher-kva.de`. */
  value: string;
  /** For addresses and blocks. */
  version?: 4 | 6;
}

export interface GateSettings {
  mode: LookupsMode;
  /** Workspace trust (false in Restricted Mode). */
  trusted: boolean;
  userAllow?: readonly string[];
  userDeny?: readonly string[];
  workspaceDeny?: readonly string[];
}

export interface GateRequest {
  trigger: Trigger;
  source: GateSource;
  /** Which kinds the caller can send (e.g. a host lookup takes an IP only). Default: any. */
  accept?: ReadonlyArray<Target['kind']>;
  /** For an explicit request in Restricted Mode: the user confirmed sending this session. */
  consented?: boolean;
}

/** Why a value may not be sent. */
export type BlockCode =
  | 'invalid' // not a strict IP, CIDR block or host name (or not a kind this caller takes)
  | 'workspace-deny'
  | 'user-deny'
  | 'not-public' // the IANA registries or the special-use names say it is not globally reachable
  | 'off' // odin.lookups.mode is off
  | 'untrusted' // Restricted Mode, automatic trigger
  | 'needs-consent' // Restricted Mode, explicit trigger, not yet confirmed
  | 'on-command'; // odin.lookups.mode is onCommand, automatic trigger

export type Verdict =
  | { send: true; target: Target; reason: string; source: DecisionSource }
  | {
      send: false;
      code: BlockCode;
      /** Short user text: why nothing was sent. */
      reason: string;
      /**
       * The refusal as one sentence naming the value and why: "10.0.0.7 is Private-Use
       * (RFC 1918): not sent to ODIN.", "45.33.32.156 is not sent to ODIN: lookups are off
       * (setting odin.lookups.mode)." What every caller shows (message, log, agent answer).
       */
      message: string;
      /** The canonical value, when the input parsed. */
      target?: Target;
      /** The privacy decision, when the input parsed (a card shows "Private-Use (RFC 1918)"). */
      privacy?: PolicyDecision;
    };

/** A query the gate refuses: the first value in it that may not be sent, and why. */
export interface QueryRefusal {
  code: 'workspace-deny' | 'user-deny' | 'not-public';
  /** The value in canonical form (`10.0.0.7`, `db.corp`). */
  value: string;
  /** User text naming the value and why: "10.0.0.7 is Private-Use (RFC 1918): not sent to ODIN." */
  reason: string;
  privacy: PolicyDecision;
}

/** What a search (src/core/savedSearches `SearchSpec`) sends that names a value. */
export interface SearchValues {
  ip?: string;
  domain?: string;
  query?: string;
  field?: string;
  keyword?: string;
}

const MAX_INPUT = 1024;

/** Drops one pair of brackets and an IPv6 zone id (`%eth0`, `%25eth0`). */
function stripIpDecoration(s: string): string {
  let v = s;
  if (v.startsWith('[') && v.endsWith(']')) v = v.slice(1, -1);
  else if (v.startsWith('[') && /^\[[^\]]*\]\/\d+$/.test(v)) v = v.slice(1).replace(']', '');
  const pct = v.indexOf('%');
  if (pct >= 0 && v.includes(':')) {
    const slash = v.indexOf('/', pct);
    v = v.slice(0, pct) + (slash >= 0 ? v.slice(slash) : '');
  }
  return v;
}

/** A strict IPv4 / IPv6 literal in canonical text, or undefined. */
function canonicalAddress(s: string): Target | undefined {
  const v4 = parseIPv4(s);
  if (v4 >= 0) return { kind: 'ip', value: formatIPv4(v4), version: 4 };
  const g = s.includes(':') ? parseIPv6(s) : undefined;
  return g ? { kind: 'ip', value: formatIPv6(g), version: 6 } : undefined;
}

/**
 * A host name in canonical form (lower case, punycode, no root dot), or undefined when it is
 * not one. Exactly one trailing dot (the DNS root) is accepted; `a.com..` is not a name.
 */
export function canonicalName(input: string): string | undefined {
  let s = input;
  if (s.endsWith('.')) s = s.slice(0, -1);
  if (s === '' || s.length > 253 || s.endsWith('.') || s.startsWith('.')) return undefined;
  // Only characters a name may hold before mapping: no spaces, slashes, `@`, `%`, `:` ...
  if (/[\s/\\@%:?#[\]<>"'`|{}^,;=+*!$&()~]/u.test(s)) return undefined;
  // UTS #46 mapping as URL parsing does it: case folding, full-width dots, Unicode → punycode.
  const ascii = domainToASCII(s);
  if (!ascii || ascii.endsWith('.') || ascii.length > 253) return undefined;
  // Each label: 1-63 characters, letters, digits, `_` and `-`, no hyphen at either end.
  if (!ascii.split('.').every((l) => /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/.test(l))) {
    return undefined;
  }
  return ascii;
}

/**
 * Parses a value from any source strictly to one canonical target: an IP address, a CIDR
 * block or a host name. Lenient IPv4 spellings (`012.0.0.1`, `0x7f.1`, `127.1`) are refused.
 */
export function parseTarget(input: unknown): Target | undefined {
  if (typeof input !== 'string') return undefined;
  if (input.length > MAX_INPUT) return undefined;
  const s = refang(input.trim());
  if (s === '' || /[\x00-\x1f\x7f]/.test(s)) return undefined;
  const ipish = stripIpDecoration(s);
  if (ipish.includes('/')) {
    const block = parseCidr(ipish);
    return block ? { kind: 'cidr', value: formatBlock(block), version: block.v } : undefined;
  }
  const addr = canonicalAddress(ipish);
  if (addr) return addr;
  // Digits and dots only, or hex/colon shapes, are failed addresses, never names.
  if (/^[0-9.]+$/.test(s) || s.includes(':') || /^0x[0-9a-f]/i.test(s)) return undefined;
  const name = canonicalName(s);
  if (!name) return undefined;
  // A name that is an IP literal in another spelling (`0x7f.0.0.1`) is not a name either.
  if (/^[0-9a-fx.]+$/.test(name) && /^(?:0x[0-9a-f]*|[0-9]+)(?:\.(?:0x[0-9a-f]*|[0-9]+))*$/.test(name)) {
    return undefined;
  }
  return { kind: 'domain', value: name };
}

/** A deny or allow entry in the gate's canonical form (entries it cannot read are kept as written). */
function canonicalEntry(raw: string): string {
  const text = raw.trim();
  const wild = /^\*?\./.exec(text)?.[0] ?? '';
  const body = text.slice(wild.length);
  const t = parseTarget(body);
  return t ? t.value : text;
}

function kindOf(t: Target): DetectionKind {
  if (t.kind === 'domain') return 'domain';
  if (t.kind === 'cidr') return 'cidr';
  return t.version === 6 ? 'ipv6' : 'ipv4';
}

type TriggerBlock = Exclude<BlockCode, 'invalid' | 'workspace-deny' | 'user-deny' | 'not-public'>;

/** Why nothing is sent for a mode or trust block, as a sentence. */
function triggerText(block: TriggerBlock): string {
  switch (block) {
    case 'off':
      return l10n.t('Lookups are off (setting odin.lookups.mode), so nothing was sent.');
    case 'untrusted':
      return l10n.t('This workspace is in Restricted Mode: ODIN sends nothing by itself.');
    case 'needs-consent':
      return l10n.t('This workspace is in Restricted Mode: confirm before anything is sent.');
    case 'on-command':
      return l10n.t('Lookups run on command only (setting odin.lookups.mode).');
  }
}

/** The same reasons naming the value, or nothing at all ("x is not sent to ODIN: <why>."). */
function triggerMessage(block: TriggerBlock, value?: string): string {
  switch (block) {
    case 'off':
      return value === undefined
        ? l10n.t('Nothing is sent to ODIN: lookups are off (setting odin.lookups.mode).')
        : l10n.t('{0} is not sent to ODIN: lookups are off (setting odin.lookups.mode).', value);
    case 'untrusted':
      return value === undefined
        ? l10n.t(
            'Nothing is sent to ODIN: this workspace is in Restricted Mode, where ODIN sends nothing by itself.',
          )
        : l10n.t(
            '{0} is not sent to ODIN: this workspace is in Restricted Mode, where ODIN sends nothing by itself.',
            value,
          );
    case 'needs-consent':
      return value === undefined
        ? l10n.t(
            "Nothing is sent to ODIN: this workspace is in Restricted Mode, where nothing is sent without the user's confirmation.",
          )
        : l10n.t(
            "{0} is not sent to ODIN: this workspace is in Restricted Mode, where nothing is sent without the user's confirmation.",
            value,
          );
    case 'on-command':
      return value === undefined
        ? l10n.t('Nothing is sent to ODIN: lookups run on command only (setting odin.lookups.mode).')
        : l10n.t('{0} is not sent to ODIN: lookups run on command only (setting odin.lookups.mode).', value);
  }
}

/**
 * A privacy refusal naming the value: a registry row (a capitalised name, "Private-Use (RFC
 * 1918)") reads as what it is, anything else (list entries, invalid values) as why.
 */
export function privacyMessage(value: string, decision: PolicyDecision): string {
  return decision.source === 'classifier' && /^[A-Z]/.test(decision.reason)
    ? l10n.t('{0} is {1}: not sent to ODIN.', value, decision.reason)
    : l10n.t('{0} is not sent to ODIN: {1}.', value, decision.reason.replace(/\.$/, ''));
}

/** How a refused input is named when it did not parse (quoted, cut short). */
/** A pattern as the query wrote it (`/re/`, `term~`), control characters dropped, bounded. */
function patternText(p: QueryPattern): string {
  // l10n: English, query syntax
  const text = p.kind === 'regex' ? `/${p.text}/` : p.kind === 'fuzzy' ? `${p.text}~` : p.text;
  return text.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 80);
}

function patternRefusal(written: string, what: string, why: string): string {
  return l10n.t('The pattern {0} could match {1}: not sent to ODIN ({2}).', written, what, why);
}

function shown(input: unknown): string {
  return typeof input === 'string' ? JSON.stringify(input.trim().slice(0, 60)) : l10n.t('The value');
}

export class Gate {
  private readonly policy: PrivacyPolicy;

  constructor(readonly settings: GateSettings) {
    this.policy = new PrivacyPolicy({
      userAllow: (settings.userAllow ?? []).map(canonicalEntry),
      userDeny: (settings.userDeny ?? []).map(canonicalEntry),
      workspaceDeny: (settings.workspaceDeny ?? []).map(canonicalEntry),
    });
  }

  /** Entries of the lists that could not be read (for the settings layer to report). */
  get listErrors(): PrivacyPolicy['errors'] {
    return this.policy.errors;
  }

  /** The privacy decision alone (lists + registries) for a value, whatever the mode and trust. */
  privacy(input: unknown): { target?: Target; decision: PolicyDecision } {
    const target = parseTarget(input);
    if (!target) {
      return {
        decision: {
          allowed: false,
          reason: l10n.t('not a valid IP address, CIDR block or host name'),
          source: 'invalid',
        },
      };
    }
    const decision = this.policy.check({ kind: kindOf(target), value: target.value });
    return { target, decision };
  }

  /**
   * The privacy decision for query text (a search, a summary, a saved search, a hunt, an
   * agent's query), whatever the mode and trust: every IP address, CIDR block and host name
   * in it, as the service reads it (`core/gate/query.ts`: Lucene parsed, escapes resolved),
   * is decided by `privacy()` exactly as a hovered value is. Addresses and blocks are refused
   * when `privacy()` refuses them; a dotted name when a deny list holds it or it is a
   * special-use or internal name (`db.corp`, `nas.local`). Other dotted words that are no
   * registrable name (`index.html`, `services.port`) are not hosts and pass. Returns the
   * first refused value, or undefined when the query may be sent.
   */
  query(text: unknown): QueryRefusal | undefined {
    if (typeof text !== 'string' || text.trim() === '') return undefined;
    const seen = new Set<string>();
    for (const { value } of queryValues(text)) {
      if (seen.has(value)) continue;
      seen.add(value);
      const { target, decision } = this.privacy(value);
      if (!target || decision.allowed) continue;
      if (target.kind === 'domain') {
        const internal = decision.source === 'classifier' && specialDomain(target.value) !== undefined;
        const denied = decision.source === 'user-deny' || decision.source === 'workspace-deny';
        if (!target.value.includes('.') || !(internal || denied)) continue;
      }
      const code =
        decision.source === 'workspace-deny' || decision.source === 'user-deny'
          ? decision.source
          : 'not-public';
      return { code, value: target.value, reason: privacyMessage(target.value, decision), privacy: decision };
    }
    return this.queryPattern(text);
  }

  /**
   * A pattern term that names what the value rules refuse refuses the query:
   * - a wildcard, regular expression or fuzzy term that could match a denied name (or that
   *   cannot be read well enough to tell): `hostnames:*mycompany*` names the denied
   *   `mycompany.com` as surely as the name written out;
   * - a wildcard over names under an internal suffix that pins a name (`*payroll*.corp`).
   * (core/gate/patterns.ts.)
   */
  private queryPattern(text: string): QueryRefusal | undefined {
    const names = this.policy.deniedNames();
    for (const p of queryPatterns(text)) {
      const refused = this.patternOverInternal(p) ?? this.patternOverNames(p, names);
      if (refused) return refused;
    }
    return undefined;
  }

  private patternOverNames(p: QueryPattern, names: readonly string[]): QueryRefusal | undefined {
    for (const name of names) {
      const could = patternCouldMatchName(p, name);
      if (could === false) continue;
      const decision = this.policy.check({ kind: 'domain', value: name });
      if (decision.source !== 'workspace-deny' && decision.source !== 'user-deny') continue;
      const written = patternText(p);
      const reason =
        could === true
          ? patternRefusal(written, name, decision.reason)
          : l10n.t(
              'The pattern {0} cannot be checked against the denied names: not sent to ODIN ({1}). Write the name out or use * and ? only.',
              written,
              decision.reason,
            );
      return { code: decision.source, value: written, reason, privacy: decision };
    }
    return undefined;
  }

  private patternOverInternal(p: QueryPattern): QueryRefusal | undefined {
    const special = internalSuffix(p);
    if (!special) return undefined;
    const written = patternText(p);
    const decision: PolicyDecision = { allowed: false, reason: special.reason, source: 'classifier' };
    return {
      code: 'not-public',
      value: written,
      reason: patternRefusal(written, `*.${special.suffix}`, special.reason),
      privacy: decision,
    };
  }

  /**
   * The privacy decision for everything a search sends, whatever the mode and trust: its IP
   * or domain as values (`privacy`), its query, field and keyword as query text (`query`).
   * Returns why it is refused (naming the value), or undefined when it may be sent.
   */
  search(spec: SearchValues): string | undefined {
    return this.searchRefusal(spec)?.message;
  }

  private searchRefusal(spec: SearchValues): { code: BlockCode; message: string } | undefined {
    for (const value of [spec.ip, spec.domain]) {
      if (value === undefined) continue;
      const { target, decision } = this.privacy(value);
      if (!decision.allowed)
        return {
          code: !target
            ? 'invalid'
            : decision.source === 'workspace-deny' || decision.source === 'user-deny'
              ? decision.source
              : 'not-public',
          message: l10n.t('{0} is not looked up: {1}.', target?.value ?? value, decision.reason),
        };
    }
    for (const text of [spec.query, spec.field, spec.keyword]) {
      const refused = this.query(text);
      if (refused) return { code: refused.code, message: refused.reason };
    }
    return undefined;
  }

  /**
   * May a search (any catalogue call that names its values in a spec) be sent now? The one
   * decision the request path asks per call (core/search `decideCall`): lookups off first
   * (nothing leaves, whatever the spec), then everything the spec sends (`search`), then
   * trust and the trigger, so a refused value never asks the user for a confirmation.
   */
  decideSearch(
    spec: SearchValues,
    req: Pick<GateRequest, 'trigger' | 'consented'>,
  ): { ok: true } | { ok: false; code: BlockCode; reason: string; message: string } {
    const block = this.triggerBlock(req);
    if (block === 'off')
      return { ok: false, code: block, reason: triggerText(block), message: triggerMessage(block) };
    const refused = this.searchRefusal(spec);
    if (refused) return { ok: false, code: refused.code, reason: refused.message, message: refused.message };
    if (block) return { ok: false, code: block, reason: triggerText(block), message: triggerMessage(block) };
    return { ok: true };
  }

  /** May `input` be sent for this request? The verdict carries the canonical value to send. */
  decide(input: unknown, req: GateRequest): Verdict {
    const { target, decision } = this.privacy(input);
    if (!target)
      return {
        send: false,
        code: 'invalid',
        reason: l10n.t('That is not a valid IP address, CIDR block or host name.'),
        message: req.accept
          ? l10n.t('{0} is not {1}: not sent to ODIN.', shown(input), describeKinds(req.accept))
          : l10n.t('{0} is not a valid IP address, CIDR block or host name: not sent to ODIN.', shown(input)),
      };
    if (req.accept && !req.accept.includes(target.kind)) {
      const expected = describeKinds(req.accept);
      return {
        send: false,
        code: 'invalid',
        reason: l10n.t('Expected {0}.', expected),
        message: l10n.t('{0} is not {1}: not sent to ODIN.', shown(input), expected),
        target,
      };
    }
    if (!decision.allowed) {
      const code: BlockCode =
        decision.source === 'workspace-deny'
          ? 'workspace-deny'
          : decision.source === 'user-deny'
            ? 'user-deny'
            : 'not-public';
      const message = privacyMessage(target.value, decision);
      return { send: false, code, reason: capitalise(decision.reason), message, target, privacy: decision };
    }
    const block = this.triggerBlock(req);
    if (block) {
      const message = triggerMessage(block, target.value);
      return { send: false, code: block, reason: triggerText(block), message, target, privacy: decision };
    }
    return { send: true, target, reason: decision.reason, source: decision.source };
  }

  /**
   * Whether anything at all may be sent for a trigger, before there is a value (a search, a
   * restored page deciding whether to fetch): the mode and trust part of `decide`.
   */
  mayRun(
    req: Pick<GateRequest, 'trigger' | 'consented'>,
  ): { ok: true } | { ok: false; code: BlockCode; reason: string; message: string } {
    const block = this.triggerBlock(req);
    if (!block) return { ok: true };
    return {
      ok: false,
      code: block,
      reason: triggerText(block),
      message: triggerMessage(block),
    };
  }

  /**
   * May the public exploitation feeds (CISA KEV, FIRST EPSS) be downloaded now? They carry
   * nothing of the user (no value, no key), so `onCommand` does not hold them back; lookups
   * `off` and Restricted Mode do: nothing leaves the machine by itself then.
   */
  mayFetchFeeds(): { ok: true } | { ok: false; reason: string } {
    if (this.settings.mode === 'off')
      return { ok: false, reason: l10n.t('lookups are off (odin.lookups.mode)') };
    if (!this.settings.trusted) return { ok: false, reason: l10n.t('the workspace is in Restricted Mode') };
    return { ok: true };
  }

  private triggerBlock(req: Pick<GateRequest, 'trigger' | 'consented'>): TriggerBlock | undefined {
    if (this.settings.mode === 'off') return 'off';
    if (!this.settings.trusted) {
      if (req.trigger === 'automatic') return 'untrusted';
      if (!req.consented) return 'needs-consent';
      return undefined;
    }
    if (req.trigger === 'automatic' && this.settings.mode === 'onCommand') return 'on-command';
    return undefined;
  }
}

/** "an IP address", "an IP address or a domain name": the kinds a request accepts. */
function describeKinds(kinds: ReadonlyArray<Target['kind']>): string {
  const named = kinds.map((k) =>
    k === 'ip' ? l10n.t('an IP address') : k === 'cidr' ? l10n.t('a CIDR block') : l10n.t('a domain name'),
  );
  return named.length ? named.reduce((a, b) => l10n.t('{0} or {1}', a, b)) : '';
}

function capitalise(s: string): string {
  const t = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?]$/.test(t) ? t : `${t}.`;
}
