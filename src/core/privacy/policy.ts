// The privacy policy: the registry classifier plus the user's allow and deny lists.
//
// Precedence, first match wins:
//   1. a workspace deny entry          → denied (a repository can always make the extension *more* private)
//   2. a user deny entry               → denied
//   3. a user allow entry              → allowed, even for a special-purpose address or internal name:
//                                        the user asked for it explicitly, in their own settings
//   4. the classifier                  → allowed only if globally reachable / public
// Deny always beats allow, whatever the specificity. Workspace settings can never allow: the API
// has no such input and ignores one if a caller smuggles it in, because `.vscode/settings.json`
// is written by whoever wrote the repository.
import type { Detection, DetectionKind } from '../detect/types';
import { l10n } from '../text/l10n';
import { classifyDomain, normalizeName } from './domain';
import {
  blockContains,
  blocksOverlap,
  classifyBlock,
  embeddedIPv4,
  parseAddress,
  parseBlock,
  parseCidr,
  type Block,
} from './ip';

export interface PolicyInput {
  /** User-level entries that may be looked up: IPs, CIDR blocks, domain suffixes. */
  userAllow?: readonly string[];
  /** User-level entries never looked up. */
  userDeny?: readonly string[];
  /** Workspace-level entries never looked up. (There are no workspace-level allows.) */
  workspaceDeny?: readonly string[];
}

export type DecisionSource = 'workspace-deny' | 'user-deny' | 'user-allow' | 'classifier' | 'invalid';

export interface PolicyDecision {
  allowed: boolean;
  reason: string;
  source: DecisionSource;
}

type Entry = { text: string; block: Block } | { text: string; suffix: string };

export interface PolicyError {
  list: 'userAllow' | 'userDeny' | 'workspaceDeny' | 'workspaceAllow';
  entry: string;
  message: string;
}

const NAME_SUFFIX = /^(?:[a-z0-9_](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

function parseEntry(raw: string): Entry | string {
  const text = raw.trim();
  if (text.length === 0 || text.length > 260) return l10n.t('empty or too long');
  if (/^[0-9a-f:.]+(?:%[^/]*)?(?:\/\d+)?$/i.test(text) && /[:]|^\d+\.\d+\.\d+\.\d+/.test(text)) {
    const block = parseBlock(text);
    return block ? { text, block } : l10n.t('not a valid IP address or CIDR block (strict parsing)');
  }
  const suffix = normalizeName(text.replace(/^\*?\./, ''));
  if (!NAME_SUFFIX.test(suffix)) return l10n.t('not an IP address, CIDR block or domain suffix');
  return { text, suffix };
}

/** What a detection (or a typed query) is, for matching against entries. */
type Subject = { kind: 'block'; block: Block; extra?: Block } | { kind: 'name'; name: string };

function subjectOf(kind: DetectionKind, value: string): Subject | undefined {
  if (kind === 'domain') {
    const name = normalizeName(value);
    return name ? { kind: 'name', name } : undefined;
  }
  const block = kind === 'cidr' ? parseCidr(value) : parseAddress(value);
  if (!block) return undefined;
  return { kind: 'block', block, extra: embeddedIPv4(block) };
}

function suffixMatch(name: string, suffix: string): boolean {
  return name === suffix || name.endsWith(`.${suffix}`);
}

/** Deny entries match anything they overlap; allow entries only what they contain. */
function matches(e: Entry, s: Subject, mode: 'deny' | 'allow'): boolean {
  if (s.kind === 'name') return 'suffix' in e && suffixMatch(s.name, e.suffix);
  if (!('block' in e)) return false;
  const test = (b: Block): boolean =>
    mode === 'deny' ? blocksOverlap(e.block, b) : blockContains(e.block, b);
  return test(s.block) || (s.extra !== undefined && test(s.extra));
}

export class PrivacyPolicy {
  private readonly userAllow: readonly Entry[];
  private readonly userDeny: readonly Entry[];
  private readonly workspaceDeny: readonly Entry[];
  /** Entries that were ignored, for the settings layer to report. */
  readonly errors: readonly PolicyError[];

  constructor(input: PolicyInput = {}) {
    const errors: PolicyError[] = [];
    const load = (list: PolicyError['list'], raw: readonly string[] | undefined): Entry[] => {
      const out: Entry[] = [];
      for (const entry of Array.isArray(raw) ? raw : []) {
        if (typeof entry !== 'string') continue;
        const e = parseEntry(entry);
        if (typeof e === 'string') errors.push({ list, entry, message: e });
        else out.push(e);
      }
      return out;
    };
    this.userAllow = load('userAllow', input.userAllow);
    this.userDeny = load('userDeny', input.userDeny);
    this.workspaceDeny = load('workspaceDeny', input.workspaceDeny);
    const smuggled = (input as { workspaceAllow?: unknown }).workspaceAllow;
    if (Array.isArray(smuggled) && smuggled.length > 0) {
      errors.push({
        list: 'workspaceAllow',
        entry: smuggled.map(String).join(', '),
        message: l10n.t('workspace settings cannot allow lookups; ignored'),
      });
    }
    this.errors = errors;
  }

  /** May this detection be sent to the lookup API? Runs on the refanged, canonical value. */
  check(d: Pick<Detection, 'kind' | 'value'>): PolicyDecision {
    const s = subjectOf(d.kind, d.value);
    if (!s) return { allowed: false, reason: l10n.t('not a valid address or name'), source: 'invalid' };
    const hit = (entries: readonly Entry[], mode: 'deny' | 'allow'): Entry | undefined =>
      entries.find((e) => matches(e, s, mode));
    let e = hit(this.workspaceDeny, 'deny');
    if (e)
      return {
        allowed: false,
        reason: l10n.t('denied by workspace setting "{0}"', e.text),
        source: 'workspace-deny',
      };
    e = hit(this.userDeny, 'deny');
    if (e)
      return { allowed: false, reason: l10n.t('denied by user setting "{0}"', e.text), source: 'user-deny' };
    e = hit(this.userAllow, 'allow');
    if (e)
      return { allowed: true, reason: l10n.t('allowed by user setting "{0}"', e.text), source: 'user-allow' };
    const c = s.kind === 'name' ? classifyDomain(s.name) : classifyBlock(s.block);
    if (c.global)
      return { allowed: true, reason: c.reason ?? l10n.t('globally reachable'), source: 'classifier' };
    return { allowed: false, reason: c.reason ?? l10n.t('not globally reachable'), source: 'classifier' };
  }

  /**
   * The names the deny lists hold (workspace first, canonical suffixes), for what cannot be
   * checked value by value: a pattern in query text (core/gate/patterns.ts).
   */
  deniedNames(): string[] {
    return [...this.workspaceDeny, ...this.userDeny].flatMap((e) => ('suffix' in e ? [e.suffix] : []));
  }

  /** The same decision for a typed value (an IP, a CIDR block or a host name). */
  checkValue(value: string): PolicyDecision {
    const v = value.trim();
    const kind: DetectionKind = parseCidr(v) ? 'cidr' : parseAddress(v) ? 'ipv4' : 'domain';
    return this.check({ kind, value: v });
  }
}
