/**
 * The inputs of the search commands. The query input is a QuickPick used as a text box:
 * its value is the query; the items below it complete field names (from the field
 * catalogue of the origin, locked fields marked), enumeration values after `categories:`,
 * `labels:`, `provider:`, the operators, then recent queries and the examples. A query the
 * service rejected comes back here with its error in the title and as the first item.
 */
import * as vscode from 'vscode';
import { EXAMPLES, complete, querySyntaxWarning, type FieldInfo, type QueryTarget } from '../../core/query';
import { cveError, domainError, ipError, refang } from '../../core/query';
import { BUCKET_SORT_FIELDS, dateError } from '../../core/savedSearches';
import { neutraliseUiText } from '../../core/text/inert';
import type { FieldCatalogue } from './fieldCatalogue';

export interface QueryPromptOptions {
  title: string;
  target: QueryTarget;
  value?: string;
  /** The service's answer to the previous try of this query (shown next to it). */
  error?: string;
  recent: readonly string[];
  catalogue: FieldCatalogue;
}

type Item = vscode.QuickPickItem & {
  action: 'run' | 'fill' | 'error' | 'none';
  value: string;
};

const EDIT_BUTTON: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('edit'),
  tooltip: vscode.l10n.t('Edit this query'),
};

/** What a row says after its label: its category or detail, and whether the plan locks it. */
function rowDescription(detail: string | undefined, locked: boolean | undefined): string {
  return [
    detail ? neutraliseUiText(detail, 60) : '',
    locked ? vscode.l10n.t('locked: needs a higher plan') : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** A queryable field as a quick-pick row (API text neutralised; locked fields marked). */
export function fieldItem(f: FieldInfo): vscode.QuickPickItem & { name: string } {
  return {
    label: neutraliseUiText(f.name, 200),
    description: rowDescription(f.category, f.locked),
    iconPath: new vscode.ThemeIcon(f.locked ? 'lock' : 'symbol-field'),
    name: f.name,
  };
}

const separator = (label: string): Item => ({
  label,
  kind: vscode.QuickPickItemKind.Separator,
  action: 'none',
  value: '',
});

/** The completions of what is typed, as rows that fill the box. */
function completionItems(value: string, fields: FieldInfo[]): Item[] {
  return complete(value, { fields, max: 40 }).map((c) => ({
    label: neutraliseUiText(c.label, 200),
    description: rowDescription(c.detail, c.locked),
    iconPath: new vscode.ThemeIcon(
      c.locked
        ? 'lock'
        : c.kind === 'field'
          ? 'symbol-field'
          : c.kind === 'value'
            ? 'symbol-enum-member'
            : 'symbol-operator',
    ),
    action: 'fill',
    value: c.value,
    alwaysShow: true,
  }));
}

/** Recent queries that contain what is typed (all when nothing is), at most ten. */
function recentItems(recent: readonly string[], value: string, needle: string): Item[] {
  return recent
    .filter((r) => r !== value && (!needle || r.toLowerCase().includes(needle)))
    .slice(0, 10)
    .map((r) => ({
      label: neutraliseUiText(r, 300),
      iconPath: new vscode.ThemeIcon('history'),
      action: 'run',
      value: r,
      alwaysShow: true,
      buttons: [EDIT_BUTTON],
    }));
}

function exampleItems(target: QueryTarget): Item[] {
  return EXAMPLES[target].map((ex) => ({
    label: ex.query,
    description: ex.description,
    iconPath: new vscode.ThemeIcon('lightbulb'),
    action: 'run',
    value: ex.query,
    alwaysShow: true,
    buttons: [EDIT_BUTTON],
  }));
}

/** The rows of the query prompt for what is typed: the service's error, "run", then sections. */
function queryItems(
  value: string,
  error: string | undefined,
  fields: FieldInfo[],
  opts: QueryPromptOptions,
): Item[] {
  const items: Item[] = [];
  if (error) {
    items.push({
      label: vscode.l10n.t('$(error) {0}', neutraliseUiText(error, 300)),
      description: vscode.l10n.t('the service rejected this query; edit it and press Enter'),
      action: 'error',
      value,
      alwaysShow: true,
    });
  }
  const warning = querySyntaxWarning(value);
  items.push({
    label: value.trim()
      ? vscode.l10n.t('$(search) {0}', neutraliseUiText(value, 300))
      : vscode.l10n.t('$(search) * (everything)'),
    description: warning ? vscode.l10n.t('$(warning) {0}', warning) : vscode.l10n.t('Run this query'),
    action: 'run',
    value,
    alwaysShow: true,
  });
  const completions = completionItems(value, fields);
  const needle = value.trim().toLowerCase();
  const recent = recentItems(opts.recent, value, needle);
  // Nothing typed yet: recent queries first, then the examples, then the fields.
  // While typing: completions of what is typed first, then matching recent queries.
  const sections: Array<[string, Item[]]> = needle
    ? [
        ['complete', completions],
        ['recent', recent],
      ]
    : [
        ['recent', recent],
        ['examples', exampleItems(opts.target)],
        ['fields', completions],
      ];
  for (const [label, list] of sections) {
    if (list.length) items.push(separator(label), ...list);
  }
  return items;
}

/** Asks for a query; resolves the text to run (`''` means everything) or undefined when dismissed. */
export function promptQuery(opts: QueryPromptOptions): Promise<string | undefined> {
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<Item>();
    const subs: vscode.Disposable[] = [qp];
    let fields: FieldInfo[] = opts.catalogue.builtin(opts.target);
    let error = opts.error;
    let done = false;
    const finish = (value: string | undefined): void => {
      if (done) return;
      done = true;
      resolve(value);
      for (const d of subs) d.dispose();
    };

    qp.title = error
      ? vscode.l10n.t('{0} — rejected: {1}', opts.title, neutraliseUiText(error, 200))
      : opts.title;
    qp.placeholder = vscode.l10n.t(
      'Type a query (field:value, AND, OR, "phrases", [a TO b]); Enter runs it, * or empty for everything',
    );
    qp.ignoreFocusOut = true;
    qp.matchOnDescription = false;
    qp.matchOnDetail = false;
    qp.value = opts.value ?? '';

    const render = (): void => {
      const value = qp.value;
      const items = queryItems(value, error, fields, opts);
      // When only the catalogue arrived (same text), keep the row the user moved to.
      const previous = value === renderedValue ? qp.activeItems[0] : undefined;
      renderedValue = value;
      qp.items = items;
      const keep = previous && items.find((i) => i.label === previous.label && i.value === previous.value);
      // Otherwise "run" is the active row, so Enter runs what was typed.
      const run = keep ?? items.find((i) => i.action === 'run');
      if (run) qp.activeItems = [run];
    };
    let renderedValue: string | undefined;

    subs.push(
      qp.onDidChangeValue(() => {
        if (error && qp.value !== opts.value) {
          error = undefined;
          qp.title = opts.title;
        }
        render();
      }),
      qp.onDidAccept(() => {
        // A click selects the row it is on; Enter selects the active row.
        const item = qp.selectedItems[0] ?? qp.activeItems[0];
        if (!item || item.action === 'run' || item.action === 'error') {
          finish((item?.action === 'run' ? item.value : qp.value).trim());
          return;
        }
        if (item.action === 'fill') {
          qp.value = item.value;
          render();
        }
      }),
      qp.onDidTriggerItemButton((e) => {
        qp.value = e.item.value;
        render();
      }),
      qp.onDidHide(() => finish(undefined)),
    );

    render();
    qp.show();

    // The catalogue of this origin, once (cached); the built-in list is used meanwhile.
    qp.busy = true;
    opts.catalogue
      .fields(opts.target)
      .then((list) => {
        if (done) return;
        if (list.length) fields = list;
        render();
      })
      .catch(() => undefined)
      .finally(() => {
        if (!done) qp.busy = false;
      });
  });
}

/** A field for a summary: the catalogue's fields to pick from, or any name typed. */
export async function promptField(
  title: string,
  target: QueryTarget,
  catalogue: FieldCatalogue,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<vscode.QuickPickItem>();
    let done = false;
    const finish = (v: string | undefined): void => {
      if (done) return;
      done = true;
      resolve(v);
      qp.dispose();
    };
    let fields = catalogue.builtin(target);
    qp.title = title;
    qp.placeholder = vscode.l10n.t('Field to summarise by (e.g. services.port, location.country_code)');
    qp.ignoreFocusOut = true;
    const render = (): void => {
      qp.items = fields.map(fieldItem);
    };
    qp.onDidAccept(() => {
      const typed = qp.value.trim();
      const picked = qp.activeItems[0]?.label;
      finish(
        picked && (!typed || picked.toLowerCase().includes(typed.toLowerCase()))
          ? picked
          : typed || undefined,
      );
    });
    qp.onDidHide(() => finish(undefined));
    render();
    qp.show();
    qp.busy = true;
    catalogue
      .fields(target)
      .then((list) => {
        if (!done && list.length) {
          fields = list;
          render();
        }
      })
      .catch(() => undefined)
      .finally(() => {
        if (!done) qp.busy = false;
      });
  });
}

export async function promptIp(title: string, value?: string): Promise<string | undefined> {
  const v = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('IPv4 or IPv6 address (defanged forms such as 1.2.3[.]4 are accepted)'),
    placeHolder: '45.33.32.156',
    value,
    ignoreFocusOut: true,
    validateInput: (text) => ipError(refang(text)),
  });
  return v === undefined ? undefined : refang(v);
}

export async function promptDomain(
  title: string,
  opts: { optional?: boolean; value?: string } = {},
): Promise<string | undefined> {
  const v = await vscode.window.showInputBox({
    title,
    prompt: opts.optional
      ? vscode.l10n.t('Domain (leave empty to search by keyword only)')
      : vscode.l10n.t('Domain name'),
    placeHolder: 'example.com',
    value: opts.value,
    ignoreFocusOut: true,
    validateInput: (text) => (opts.optional && text.trim() === '' ? undefined : domainError(refang(text))),
  });
  return v === undefined ? undefined : refang(v).replace(/\.$/, '').toLowerCase();
}

export async function promptCve(title: string): Promise<string | undefined> {
  const v = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('CVE id'),
    placeHolder: vscode.l10n.t('CVE-2021-44228'),
    ignoreFocusOut: true,
    validateInput: (text) => cveError(text),
  });
  return v?.trim().toUpperCase();
}

export async function promptText(title: string, prompt: string, value?: string): Promise<string | undefined> {
  return vscode.window.showInputBox({ title, prompt, value, ignoreFocusOut: true });
}

/** An optional date, YYYY-MM-DD, validated (and not before `notBefore`). `''` = none. */
export async function promptDate(
  title: string,
  prompt: string,
  notBefore?: string,
): Promise<string | undefined> {
  const v = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('{0} (YYYY-MM-DD; leave empty for no limit)', prompt),
    placeHolder: vscode.l10n.t('YYYY-MM-DD'),
    ignoreFocusOut: true,
    validateInput: (text) => {
      const t = text.trim();
      if (!t) return undefined;
      const why = dateError(t);
      if (why) return why;
      if (notBefore && t < notBefore) return vscode.l10n.t('Must not be before {0}.', notBefore);
      return undefined;
    },
  });
  return v?.trim();
}

export interface DomainInputs {
  domain?: string;
  keyword?: string;
  publishedAfter?: string;
  publishedBefore?: string;
}

export async function promptDomainFilter(title: string): Promise<DomainInputs | undefined> {
  const domain = await promptDomain(`${title} (1/4)`, { optional: true });
  if (domain === undefined) return undefined;
  const keyword = await promptText(
    `${title} (2/4)`,
    vscode.l10n.t('Keyword in the domain or subdomain (optional)'),
  );
  if (keyword === undefined) return undefined;
  if (!domain && !keyword.trim()) {
    void vscode.window.showWarningMessage(vscode.l10n.t('ODIN: enter a domain or a keyword to search for.'));
    return undefined;
  }
  const after = await promptDate(`${title} (3/4)`, vscode.l10n.t('Published after'));
  if (after === undefined) return undefined;
  const before = await promptDate(`${title} (4/4)`, vscode.l10n.t('Published before'), after || undefined);
  if (before === undefined) return undefined;
  return {
    ...(domain ? { domain } : {}),
    ...(keyword.trim() ? { keyword: keyword.trim() } : {}),
    ...(after ? { publishedAfter: after } : {}),
    ...(before ? { publishedBefore: before } : {}),
  };
}

export async function promptBucketSort(): Promise<{ sortBy?: string; sortDir?: 'asc' | 'desc' } | undefined> {
  const items: Array<vscode.QuickPickItem & { sortBy?: string; sortDir?: 'asc' | 'desc' }> = [
    { label: vscode.l10n.t('Service default order'), description: vscode.l10n.t('no sort') },
    ...BUCKET_SORT_FIELDS.flatMap((f) => [
      { label: vscode.l10n.t('{0} descending', f), sortBy: f, sortDir: 'desc' as const },
      { label: vscode.l10n.t('{0} ascending', f), sortBy: f, sortDir: 'asc' as const },
    ]),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('ODIN: Sort Exposed Buckets'),
    placeHolder: vscode.l10n.t('Sort order'),
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  return picked.sortBy ? { sortBy: picked.sortBy, sortDir: picked.sortDir } : {};
}
