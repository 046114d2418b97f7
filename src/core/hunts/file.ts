/**
 * The `.odinq` file format: one or more named queries, each a header line then the query,
 * which may span lines. Pure: no VS Code.
 *
 *   # Exposed remote desktops (a comment: `#` at a line start or after whitespace, outside quotes)
 *   @hosts RDP in the Netherlands  size=50
 *   services.port:3389
 *     AND location.country_code:NL
 *
 *   @buckets Big source dumps  sort=files order=desc
 *   provider: aws AND file_cat_count.src: [10 TO *]
 *
 *   @domains Example subdomains
 *   domain: example.com AND keyword: api
 *
 * A header is `@<kind> <name> [option=value ...]`; kinds are hosts, buckets, files and
 * domains. Every offset here is a UTF-16 offset into the whole file text, so an editor maps
 * it to a position directly.
 */
import type { SearchSpec } from '../search/kinds';
import { l10n } from '../text/l10n';

export type HuntKind = 'hosts' | 'buckets' | 'files' | 'domains';
export const HUNT_KINDS: readonly HuntKind[] = ['hosts', 'buckets', 'files', 'domains'];

/** Options a header may carry, with what each kind accepts. */
export const HUNT_OPTIONS: Record<
  string,
  { kinds: readonly HuntKind[]; doc: string; values?: readonly string[] }
> = {
  size: {
    kinds: HUNT_KINDS,
    get doc() {
      return l10n.t('Results per page (1–100).');
    },
  },
  sort: {
    kinds: ['buckets'],
    get doc() {
      return l10n.t('Sort field of a bucket search.');
    },
    values: ['ins_at', 'files', 'scan_at', 'last_found_at'],
  },
  order: {
    kinds: ['buckets'],
    get doc() {
      return l10n.t('Sort direction.');
    },
    values: ['desc', 'asc'],
  },
  by: {
    kinds: ['hosts', 'files'],
    get doc() {
      return l10n.t('Default field for "Summarize by…".');
    },
  },
};

export interface HuntOption {
  key: string;
  value: string;
  /** Offset of `key`. */
  start: number;
  end: number;
}

export interface HuntQuery {
  /** 0-based index in the file. */
  index: number;
  kind: HuntKind | undefined;
  /** The kind as written (for diagnostics when unknown). */
  kindText: string;
  name: string;
  options: HuntOption[];
  /** Offsets of the header line (without its line break). */
  headerStart: number;
  headerEnd: number;
  /** Offset of the kind word (after `@`) and its end. */
  kindStart: number;
  kindEnd: number;
  /** The query's text area: from the line after the header to the next header (or the end). */
  bodyStart: number;
  bodyEnd: number;
  /** The body with comments blanked out by spaces: same length, so offsets map 1:1. */
  body: string;
  /** The query as sent: comments removed, lines joined by single spaces, trimmed. */
  query: string;
}

export interface FileProblem {
  start: number;
  end: number;
  message: string;
  code: 'noHeader' | 'unknownKind' | 'unknownOption' | 'badOption' | 'noName';
  /** A replacement the quick fix may offer. */
  fix?: { title: string; start: number; end: number; text: string };
}

export interface HuntFile {
  queries: HuntQuery[];
  problems: FileProblem[];
}

const HEADER = /^[ \t]*@([A-Za-z]*)/;

/**
 * Replaces comments with spaces (same length). A `#` starts a comment at the start of a line
 * or after whitespace, outside a quoted phrase; `#` inside a word (`a#b`) is kept.
 */
export function blankComments(text: string): string {
  const out = text.split('');
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') quote = undefined; // a phrase never swallows the next line's header or comment
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const prev = text[i - 1];
      if (ch === '"' || prev === undefined || /[\s:([{]/.test(prev)) quote = ch;
    } else if (ch === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      while (i < text.length && text[i] !== '\n') {
        if (text[i] !== '\r') out[i] = ' ';
        i++;
      }
      i--;
    }
  }
  return out.join('');
}

/** Levenshtein distance, capped (for "did you mean" suggestions). */
export function editDistance(a: string, b: string, cap = 8): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** The closest of `candidates` to `word` when it is close enough to be a likely typo. */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  const limit = Math.max(2, Math.floor(word.length / 3));
  const w = word.toLowerCase();
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase(), limit);
    if (d < bestD && d <= limit) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/** The file's lines, each without its line break (`\r\n` or `\n`). */
function fileLines(text: string): Array<{ start: number; end: number }> {
  const lines: Array<{ start: number; end: number }> = [];
  for (let start = 0; start <= text.length;) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    lines.push({ start, end: end > start && text[end - 1] === '\r' ? end - 1 : end });
    if (nl < 0) break;
    start = nl + 1;
  }
  return lines;
}

/** A fix that replaces `start..end` by `text`. */
function withFix(
  title: string,
  start: number,
  end: number,
  text: string | undefined,
): Pick<FileProblem, 'fix'> {
  return text ? { fix: { title, start, end, text } } : {};
}

/** The problem of a header whose kind is missing or unknown, with the nearest kind as a fix. */
function kindProblem(kindText: string, kindStart: number, kindEnd: number): FileProblem {
  const guess = kindText ? nearest(kindText, HUNT_KINDS) : undefined;
  return {
    start: kindStart - 1,
    end: Math.max(kindEnd, kindStart),
    code: 'unknownKind',
    message: kindText
      ? l10n.t('"{0}" is not a kind of query. Use one of: {1}.', kindText, HUNT_KINDS.join(', '))
      : l10n.t('The header needs a kind. Use one of: {0}.', HUNT_KINDS.join(', ')),
    ...withFix(l10n.t('Change to {0}', `@${guess}`), kindStart, kindEnd, guess),
  };
}

/** A header's options (the trailing `key=value` words), each checked against `kind`. */
function headerOptions(
  tokens: ReadonlyArray<{ text: string; start: number }>,
  kind: HuntKind | undefined,
  problems: FileProblem[],
): HuntOption[] {
  const options: HuntOption[] = [];
  for (const t of tokens) {
    const eq = t.text.indexOf('=');
    const opt: HuntOption = {
      key: t.text.slice(0, eq),
      value: t.text.slice(eq + 1),
      start: t.start,
      end: t.start + t.text.length,
    };
    options.push(opt);
    const def = HUNT_OPTIONS[opt.key];
    if (!def) {
      const guess = nearest(opt.key, Object.keys(HUNT_OPTIONS));
      problems.push({
        start: opt.start,
        end: opt.start + opt.key.length,
        code: 'unknownOption',
        message: l10n.t('Unknown option "{0}". Options: {1}.', opt.key, Object.keys(HUNT_OPTIONS).join(', ')),
        ...withFix(l10n.t('Change to {0}', guess ?? ''), opt.start, opt.start + opt.key.length, guess),
      });
      continue;
    }
    const err = optionError(opt, kind, def);
    if (err) problems.push({ start: opt.start, end: opt.end, code: 'badOption', message: err });
  }
  return options;
}

/** A header line (`@kind name key=value…`) as a query whose body is still to come. */
function parseHeader(
  text: string,
  line: { start: number; end: number },
  header: RegExpExecArray,
  index: number,
  problems: FileProblem[],
): HuntQuery {
  const kindText = header[1];
  const kindStart = line.start + header[0].length - kindText.length;
  const kindEnd = kindStart + kindText.length;
  const kind = (HUNT_KINDS as readonly string[]).includes(kindText) ? (kindText as HuntKind) : undefined;
  if (!kind) problems.push(kindProblem(kindText, kindStart, kindEnd));
  // The rest: name words, then trailing key=value options.
  const rest = header.input.slice(header[0].length);
  const tokens: Array<{ text: string; start: number }> = [];
  for (const t of rest.matchAll(/\S+/g)) tokens.push({ text: t[0], start: kindEnd + (t.index ?? 0) });
  let firstOption = tokens.length;
  while (firstOption > 0 && /^[A-Za-z]\w*=/.test(tokens[firstOption - 1].text)) firstOption--;
  const nameTokens = tokens.slice(0, firstOption);
  const lastName = nameTokens[nameTokens.length - 1];
  const name = lastName ? text.slice(nameTokens[0].start, lastName.start + lastName.text.length) : '';
  const options = headerOptions(tokens.slice(firstOption), kind, problems);
  if (!name) {
    problems.push({
      start: line.start,
      end: line.end,
      code: 'noName',
      message: l10n.t('Give the query a name after the kind, e.g. "@hosts Exposed RDP".'),
      fix: { title: l10n.t('Add a name'), start: kindEnd, end: kindEnd, text: ` ${l10n.t('Untitled hunt')}` },
    });
  }
  return {
    index,
    kind,
    kindText,
    name: name || l10n.t('Query {0}', index + 1),
    options,
    headerStart: line.start,
    headerEnd: line.end,
    kindStart,
    kindEnd,
    bodyStart: Math.min(text.length, line.end + (text[line.end] === '\r' ? 2 : 1)),
    bodyEnd: text.length,
    body: '',
    query: '',
  };
}

/** Text before the first header: never run, so a problem with a fix that adds a header. */
function noHeaderProblem(start: number, end: number): FileProblem {
  return {
    start,
    end,
    code: 'noHeader',
    message: l10n.t(
      'A query needs a header line above it, such as "@hosts My hunt". Text before the first header is never run.',
    ),
    fix: {
      title: l10n.t('Add a header "@hosts"'),
      start,
      end: start,
      // l10n: English, a header's syntax (its name is worded)
      text: `@hosts ${l10n.t('Untitled hunt')}\n`,
    },
  };
}

/** Parses a whole `.odinq` file. Never throws: problems are returned with their offsets. */
export function parseHuntFile(text: string): HuntFile {
  const blank = blankComments(text);
  const queries: HuntQuery[] = [];
  const problems: FileProblem[] = [];
  let orphanStart: number | undefined;
  let orphanEnd = 0;
  let current: HuntQuery | undefined;
  const close = (q: HuntQuery, end: number): void => {
    q.bodyEnd = end;
    q.body = blank.slice(q.bodyStart, end);
    q.query = q.body
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '')
      .join(' ');
  };
  for (const line of fileLines(text)) {
    const blankLine = blank.slice(line.start, line.end);
    const m = HEADER.exec(blankLine);
    if (!m) {
      if (!current && blankLine.trim() !== '') {
        orphanStart ??= line.start + blankLine.search(/\S/);
        orphanEnd = line.start + blankLine.trimEnd().length;
      }
      continue;
    }
    if (current) close(current, line.start);
    current = parseHeader(text, line, m, queries.length, problems);
    queries.push(current);
  }
  if (current) close(current, text.length);
  if (orphanStart !== undefined) problems.push(noHeaderProblem(orphanStart, orphanEnd));
  return { queries, problems };
}

function optionError(
  opt: HuntOption,
  kind: HuntKind | undefined,
  def: (typeof HUNT_OPTIONS)[string],
): string | undefined {
  if (kind && !def.kinds.includes(kind))
    return l10n.t('"{0}" does not apply to {1} queries (only {2}).', opt.key, kind, def.kinds.join(', '));
  if (opt.key === 'size') {
    const n = Number(opt.value);
    if (!/^\d+$/.test(opt.value) || n < 1 || n > 100)
      return l10n.t('"size" must be a whole number from 1 to 100.');
  }
  if (def.values && !def.values.includes(opt.value))
    return l10n.t('"{0}" must be one of: {1}.', opt.key, def.values.join(', '));
  if (opt.key === 'by' && !/^[A-Za-z0-9_.]+$/.test(opt.value)) return l10n.t('"by" must be a field name.');
  return undefined;
}

/** The option's value, if given. */
export function optionValue(q: HuntQuery, key: string): string | undefined {
  return q.options.find((o) => o.key === key)?.value;
}

/** The query whose header or body contains `offset`. */
export function queryAt(file: HuntFile, offset: number): HuntQuery | undefined {
  for (let i = file.queries.length - 1; i >= 0; i--)
    if (offset >= file.queries[i].headerStart) return file.queries[i];
  return undefined;
}

/** Text for a new query appended to a file (used by "Save into a file"). */
export function formatHunt(
  kind: HuntKind,
  name: string,
  query: string,
  options: Record<string, string> = {},
): string {
  const opts = Object.entries(options)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => ` ${k}=${v}`)
    .join('');
  // A trailing `word=value` in a name would read back as an option: `=` becomes `-`.
  const safeName = name.replace(/\s+/g, ' ').trim().replace(/=/g, '-') || l10n.t('Untitled hunt');
  return `@${kind} ${safeName}${opts}\n${query.trim() || '*'}\n`;
}

/**
 * The file offset of offset `n` of `q.query` (the query as sent, lines joined by one space),
 * so a position the API reports lands on the right character of the file.
 */
export function queryOffsetToFile(q: HuntQuery, n: number): number {
  let sent = 0;
  let last = q.bodyStart;
  for (const m of q.body.matchAll(/[^\r\n]+/g)) {
    const line = m[0];
    const lead = line.length - line.trimStart().length;
    const trimmed = line.trim();
    if (!trimmed) continue;
    const start = q.bodyStart + (m.index ?? 0) + lead;
    if (n <= sent + trimmed.length) return start + Math.max(0, n - sent);
    sent += trimmed.length + 1; // the joining space
    last = start + trimmed.length;
  }
  return last;
}

/** The `.odinq` kind and body for a saved spec (for "Save into a file"); undefined when it has none. */
export function huntOf(
  spec: SearchSpec,
): { kind: HuntKind; query: string; options: Record<string, string> } | undefined {
  switch (spec.kind) {
    case 'hosts':
      return { kind: 'hosts', query: spec.query ?? '*', options: {} };
    case 'hostSummary':
      return { kind: 'hosts', query: spec.query ?? '*', options: spec.field ? { by: spec.field } : {} };
    case 'buckets':
      return {
        kind: 'buckets',
        query: spec.query ?? '*',
        options: {
          ...(spec.sortBy ? { sort: spec.sortBy } : {}),
          ...(spec.sortDir ? { order: spec.sortDir } : {}),
        },
      };
    case 'fileCount':
    case 'fileSummary':
      return { kind: 'files', query: spec.query ?? '*', options: spec.field ? { by: spec.field } : {} };
    case 'domains':
    case 'domainCount': {
      const parts = (['domain', 'keyword', 'publishedAfter', 'publishedBefore'] as const)
        .filter((k) => spec[k])
        .map(
          (k) =>
            `${k}: ${/^[\w.-]+$/.test(spec[k] ?? '') ? spec[k] : `"${(spec[k] ?? '').replace(/["\\]/g, '\\$&')}"`}`,
        );
      return { kind: 'domains', query: parts.join(' AND '), options: {} };
    }
    default:
      return undefined;
  }
}
