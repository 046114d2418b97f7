/**
 * Completion and hover text for `.odinq` files, on top of the query completion the search
 * input already uses (core/query/completion). Pure: no VS Code; offsets are into the file.
 */
import { complete, ENUMERATIONS, tokenAt, type FieldInfo } from '../query/completion';
import { escapeMarkdown } from '../text/inert';
import { l10n } from '../text/l10n';
import { DOMAIN_FIELDS } from './diagnostics';
import { blankComments, HUNT_KINDS, HUNT_OPTIONS, queryAt, type HuntFile, type HuntKind } from './file';

export interface EditCompletion {
  label: string;
  insertText: string;
  /** Offsets of the text the completion replaces. */
  start: number;
  end: number;
  kind: 'field' | 'value' | 'operator' | 'keyword' | 'option';
  detail?: string;
  locked?: boolean;
  /** Sorts before the others (unlocked fields first). */
  sortText?: string;
}

const KIND_DOCS: Record<HuntKind, string> = {
  get hosts() {
    return l10n.t('Hosts: IPs with their services, location, ASN and CVEs (Lucene query).');
  },
  get buckets() {
    return l10n.t('Exposed storage buckets (Lucene query; sort= and order= apply).');
  },
  get files() {
    return l10n.t('Files in exposed buckets (Lucene query; counted and summarised).');
  },
  get domains() {
    return l10n.t('Domains and subdomains (filters: domain, keyword, publishedAfter, publishedBefore).');
  },
};

/**
 * Completions at `offset` of a file whose parse is `file`. `fields` gives the field catalogue
 * of a kind (the live one when it has arrived, else the built-in list).
 */
export function completeAt(
  text: string,
  file: HuntFile,
  offset: number,
  fields: (kind: HuntKind) => readonly FieldInfo[],
): EditCompletion[] {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const linePrefix = text.slice(lineStart, offset);
  const header = /^[ \t]*@(\w*)$/.exec(linePrefix);
  if (header) {
    const start = offset - header[1].length;
    return HUNT_KINDS.map((k) => ({
      label: k,
      insertText: `${k} `,
      start,
      end: offset,
      kind: 'keyword',
      detail: KIND_DOCS[k],
    }));
  }
  const inHeader = /^[ \t]*@(\w+)\s.*$/.exec(linePrefix);
  if (inHeader) {
    const kind = inHeader[1] as HuntKind;
    const value = /(\w+)=([\w.]*)$/.exec(linePrefix);
    if (value) {
      const def = HUNT_OPTIONS[value[1]];
      const values = def?.values ?? (value[1] === 'by' ? fields(kind).map((f) => f.name) : []);
      return values.map((v) => ({
        label: v,
        insertText: v,
        start: offset - value[2].length,
        end: offset,
        kind: 'value',
      }));
    }
    const word = /(?:^|\s)(\w*)$/.exec(linePrefix);
    if (!word || !/\s\w*$/.test(linePrefix)) return [];
    return Object.entries(HUNT_OPTIONS)
      .filter(([, d]) => d.kinds.includes(kind))
      .map(([k, d]) => ({
        label: `${k}=`,
        insertText: `${k}=`,
        start: offset - word[1].length,
        end: offset,
        kind: 'option',
        detail: d.doc,
      }));
  }
  const q = queryAt(file, offset);
  if (!q || offset < q.bodyStart || !q.kind) return [];
  const before = blankComments(text.slice(q.bodyStart, offset));
  if (q.kind === 'domains') {
    const word = /([A-Za-z]*)$/.exec(before)?.[1] ?? '';
    if (/:\s*\S*$/.test(before)) return [];
    return Object.entries(DOMAIN_FIELDS).map(([k, doc]) => ({
      label: `${k}:`,
      insertText: `${k}: `,
      start: offset - word.length,
      end: offset,
      kind: 'field',
      detail: doc,
    }));
  }
  const list = complete(before, { fields: fields(q.kind), max: 200 });
  // Every completion's value is the text up to the token's start plus what it inserts.
  const head = tokenAt(before).start;
  return list.map((c, i) => {
    const insert = c.value.slice(head);
    return {
      label: c.label,
      insertText: insert,
      start: q.bodyStart + head,
      end: offset,
      kind: c.kind,
      ...(c.detail ? { detail: c.detail } : {}),
      ...(c.locked
        ? {
            locked: true,
            detail: c.detail
              ? `${c.detail} · ${l10n.t('needs a higher plan')}`
              : l10n.t('needs a higher plan'),
          }
        : {}),
      sortText: String(i).padStart(4, '0'),
    };
  });
}

/** Short docs of the fields people use most (the catalogue carries names and categories only). */
export const FIELD_DOCS: Record<string, string> = {
  get ip() {
    return l10n.t('The host address (IPv4 or IPv6).');
  },
  get 'services.port'() {
    return l10n.t('An open port, e.g. `services.port:443`.');
  },
  get 'services.product'() {
    return l10n.t('Product name detected on a service, e.g. `nginx`.');
  },
  get 'services.name'() {
    return l10n.t('Service (protocol) name, e.g. `http`, `ssh`.');
  },
  get 'services.version'() {
    return l10n.t('Product version detected on a service.');
  },
  get 'services.cve.id'() {
    return l10n.t('A CVE the service is exposed to, e.g. `CVE-2021-44228`.');
  },
  get 'services.modules.http.title'() {
    return l10n.t('The HTML title of an HTTP service.');
  },
  get 'asn.number'() {
    return l10n.t('Autonomous system number, written `AS13335`.');
  },
  get 'asn.organization'() {
    return l10n.t('The organisation that holds the AS.');
  },
  get 'location.country_code'() {
    return l10n.t('Two-letter country code, e.g. `NL`.');
  },
  get 'location.country_name'() {
    return l10n.t("Country name; quote it when it has spaces: `'United States'`.");
  },
  get 'location.city'() {
    return l10n.t('City of the host.');
  },
  get 'tags.name'() {
    return l10n.t('A tag ODIN puts on the host, e.g. `cdn`.');
  },
  get banner() {
    return l10n.t('Free text in a service banner.');
  },
  get last_updated_at() {
    return l10n.t(
      'When ODIN last saw the host; ranges take quoted ISO dates: `["2024-07-08T00:00:00Z" TO *]`.',
    );
  },
  get provider() {
    return l10n.t('Cloud provider of a bucket or file: aws, gcp, do, linode.');
  },
  get categories() {
    return l10n.t('Categories of files found in a bucket.');
  },
  get labels() {
    return l10n.t('Labels ODIN gives a bucket.');
  },
  get 'file_cat_count.src'() {
    return l10n.t('Number of source-code files in a bucket; ranges such as `[10 TO *]`.');
  },
  get files() {
    return l10n.t('Number of files in a bucket.');
  },
  get ins_at() {
    return l10n.t('When the bucket was first indexed.');
  },
  get ext() {
    return l10n.t('File extension, quoted with its dot: `".db"`.');
  },
  get name() {
    return l10n.t('Bucket or file name (matched as words: `name: prod` finds `prod.db`).');
  },
};

export interface HoverInfo {
  start: number;
  end: number;
  markdown: string;
}

/**
 * How the hover's MarkdownString must be built: catalogue text (category names come from the
 * API) is escaped in `markdown`, and nothing in it may run, render an icon or load an image.
 */
export const HOVER_MARKDOWN_OPTIONS = {
  isTrusted: false,
  supportThemeIcons: false,
  supportHtml: false,
} as const;

/** Hover text for the field name or header word at `offset`, if any. Field values from the API are never shown. */
export function hoverAt(
  text: string,
  file: HuntFile,
  offset: number,
  fields: (kind: HuntKind) => readonly FieldInfo[],
): HoverInfo | undefined {
  const q = queryAt(file, offset);
  if (!q) return undefined;
  if (offset >= q.kindStart - 1 && offset <= q.kindEnd && q.kind) {
    return { start: q.kindStart - 1, end: q.kindEnd, markdown: `**@${q.kind}** — ${KIND_DOCS[q.kind]}` };
  }
  if (offset < q.bodyStart || !q.kind) return undefined;
  // The word under the cursor, when a ':' follows it (a field).
  let s = offset;
  let e = offset;
  while (s > 0 && /[\w.@-]/.test(text[s - 1])) s--;
  while (e < text.length && /[\w.@-]/.test(text[e])) e++;
  let after = e;
  while (after < text.length && /[ \t]/.test(text[after])) after++;
  if (s === e || text[after] !== ':') return undefined;
  const name = text.slice(s, e).replace(/^[-+]+/, '');
  if (q.kind === 'domains') {
    const doc = Object.hasOwn(DOMAIN_FIELDS, name) ? DOMAIN_FIELDS[name] : undefined;
    return doc ? { start: s, end: e, markdown: `**${escapeMarkdown(name, 200)}** — ${doc}` } : undefined;
  }
  const info = fields(q.kind).find((f) => f.name === name);
  const lines = [
    `**${escapeMarkdown(name, 200)}**${info?.category ? ` · ${escapeMarkdown(info.category, 200)}` : ''}`,
  ];
  // Own keys only: `constructor:` or `valueOf:` is no documented field.
  const doc = Object.hasOwn(FIELD_DOCS, name) ? FIELD_DOCS[name] : undefined;
  if (doc) lines.push(doc);
  if (info?.locked) lines.push(l10n.t('Locked: needs a higher ODIN plan.'));
  const values = Object.hasOwn(ENUMERATIONS, name) ? ENUMERATIONS[name] : undefined;
  if (values) lines.push(l10n.t('Values: {0}', values.map((v) => `\`${v}\``).join(', ')));
  if (!info && !doc) lines.push(l10n.t('Not in the {0} field catalogue.', q.kind));
  return { start: s, end: e, markdown: lines.join('\n\n') };
}
