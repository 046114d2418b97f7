import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_EPSS_URL, DEFAULT_KEV_URL } from '../../core/exploitation/feed';
import { parseRunConfig, RUN_CONFIG_FILE } from '../../core/ci/runConfig';

/**
 * One typed getter per setting. Settings that could redirect the API key (the base URL)
 * are read from the user (global) value only, even though their `application` scope
 * already keeps VS Code from applying a workspace value: defence in depth against a
 * hostile `.vscode/settings.json`.
 */
export const DEFAULT_BASE_URL = 'https://api.odin.io';

export type LookupMode = 'onHover' | 'onCommand' | 'off';
const MODE_RANK: Record<LookupMode, number> = { onHover: 0, onCommand: 1, off: 2 };

/**
 * The `odin` settings as VS Code holds them. They are read on every request (the base URL, the
 * timeout) and every hover, and an `inspect` costs tens of microseconds in the extension host,
 * so what was read is kept until the settings may have changed: `watchSettings()`, the first
 * thing activation does, counts each change (its listener runs before any other of this
 * extension's, in the same turn as VS Code's own update), and a count not seen yet reads
 * afresh. Before it, or after its dispose, every read goes to VS Code.
 */
let changes = 0;
let watching = false;
/** `inspected`: what `inspect` said per key, and (keys starting with `=`) what `derived` computed. */
let kept: { at: number; section: vscode.WorkspaceConfiguration; inspected: Map<string, unknown> } | undefined;

function settings(): NonNullable<typeof kept> {
  if (!watching || !kept || kept.at !== changes)
    kept = { at: changes, section: vscode.workspace.getConfiguration('odin'), inspected: new Map() };
  return kept;
}

function section(): vscode.WorkspaceConfiguration {
  return settings().section;
}

/** What `inspect` says of one `odin` setting (kept as `section()` is). */
type Inspected<T> = { globalValue?: T; defaultValue?: T; workspaceValue?: T; workspaceFolderValue?: T };

function inspect<T>(key: string): Inspected<T> | undefined {
  const s = settings();
  if (!s.inspected.has(key)) s.inspected.set(key, s.section.inspect<T>(key));
  return s.inspected.get(key) as Inspected<T> | undefined;
}

/**
 * A value derived from the settings (`compute` reads them), kept as `inspect` keeps what it
 * read: the getters a hover and each request call (base URL, timeout, hover on/off) compute
 * once per change of the settings.
 */
function derived<T>(name: string, compute: () => T): T {
  const s = settings();
  const key = `=${name}`;
  if (!s.inspected.has(key)) s.inspected.set(key, compute());
  return s.inspected.get(key) as T;
}

/** Counts the changes that may change a setting's value (see `settings()`); activation calls it first. */
export function watchSettings(): vscode.Disposable {
  watching = true;
  changes++;
  const changed = (): void => void changes++;
  const subs = [
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('odin') && changed()),
    vscode.workspace.onDidGrantWorkspaceTrust(changed),
    vscode.workspace.onDidChangeWorkspaceFolders(changed),
  ];
  return {
    dispose: () => {
      watching = false;
      for (const sub of subs) sub.dispose();
    },
  };
}

/** The user-level value, ignoring any workspace or folder value. */
function userValue<T>(key: string, fallback: T): T {
  const info = inspect<T>(key);
  return info?.globalValue ?? info?.defaultValue ?? fallback;
}

/**
 * A number a workspace may lower (fewer credits, less read), never raise over the user's
 * value: the smallest valid value of the user (or default), workspace and folder levels.
 * Out-of-range values are ignored (the user's counts as `fallback`), so a workspace cannot
 * raise a limit by writing nonsense on either level. `fromWorkspaceFiles` are values the
 * workspace asks for in its files (a `.odinq` option such as `size=100`): they count like a
 * workspace setting, so they too may lower the limit, never raise it.
 */
export function lowestOf(
  key: string,
  valid: (n: number) => boolean,
  fallback: number,
  ...fromWorkspaceFiles: unknown[]
): number {
  const ok = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && valid(v);
  const info = inspect<number>(key);
  const user = info?.globalValue ?? info?.defaultValue;
  // An invalid user value counts as the fallback: a workspace still cannot go above it.
  const values = [
    ok(user) ? user : fallback,
    info?.workspaceValue,
    info?.workspaceFolderValue,
    ...fromWorkspaceFiles,
  ].filter(ok);
  return Math.min(...values);
}

export const config = {
  /**
   * Workspace trust (false in Restricted Mode). The one reader of `vscode.workspace.isTrusted`:
   * the gate decides on it (shared/gate.ts), display code asks `ctx.gate.trusted()`
   * (test/unit/gate/readers.test.ts fails on a new reader).
   */
  workspaceTrusted(): boolean {
    return vscode.workspace.isTrusted;
  },
  apiBaseUrl(): string {
    return derived('apiBaseUrl', () => userValue('apiBaseUrl', DEFAULT_BASE_URL).trim() || DEFAULT_BASE_URL);
  },
  requestTimeoutMs(): number {
    return derived('requestTimeoutMs', () => {
      const seconds = section().get<number>('requestTimeoutSeconds', 30);
      return Math.min(300, Math.max(1, Number.isFinite(seconds) ? seconds : 30)) * 1000;
    });
  },
  /**
   * When lookups may leave the machine. A workspace may make this stricter (e.g. `off`)
   * but never looser than the user's choice.
   */
  lookupMode(): LookupMode {
    const info = inspect<LookupMode>('lookups.mode');
    const candidates = [
      info?.globalValue ?? info?.defaultValue ?? 'onHover',
      info?.workspaceValue,
      info?.workspaceFolderValue,
    ].filter((m): m is LookupMode => typeof m === 'string' && m in MODE_RANK);
    return candidates.reduce((a, b) => (MODE_RANK[b] > MODE_RANK[a] ? b : a), 'onHover' as LookupMode);
  },
  /** A workspace may turn hovers off, never back on over the user's `false`. */
  hoverEnabled(): boolean {
    return derived('hoverEnabled', () => {
      const info = inspect<boolean>('hover.enabled');
      const values = [
        info?.globalValue ?? info?.defaultValue ?? true,
        info?.workspaceValue,
        info?.workspaceFolderValue,
      ];
      return !values.some((v) => v === false);
    });
  },
  /** Allow entries: user level only (a workspace can never widen what is sent). */
  privacyAllow(): string[] {
    return stringList(userValue<unknown>('privacy.allow', []));
  },
  /**
   * Deny entries from the user and, separately, from the workspace (denials only): its
   * settings and the committed `odin-hunt.json` of each folder, which CI's runner honours too.
   */
  privacyDeny(): { user: string[]; workspace: string[] } {
    const info = inspect<unknown>('privacy.deny');
    return {
      user: stringList(info?.globalValue ?? []),
      workspace: [
        ...stringList(info?.workspaceValue ?? []),
        ...stringList(info?.workspaceFolderValue ?? []),
        ...committedDeny(),
      ],
    };
  },
  cacheTtlHours(): { host: number; whois: number; notFound: number } {
    return {
      host: positive(userValue('cache.hostTtlHours', 24), 24),
      whois: positive(userValue('cache.whoisTtlHours', 72), 72),
      notFound: positive(userValue('cache.notFoundTtlHours', 6), 6),
    };
  },
  cacheMaxEntries(): number {
    return Math.floor(positive(userValue('cache.maxEntries', 5000), 5000));
  },
  /**
   * The window's session budget in credits (the ledger's ceiling over every surface):
   * undefined for none (0, the default). The user's value only: a workspace cannot raise it.
   */
  sessionBudget(): number | undefined {
    const v = userValue<unknown>('sessionBudget', 0);
    return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined;
  },
  requestsPerMinute(): number {
    return positive(userValue('rateLimit.requestsPerMinute', 60), 60);
  },
  maxConcurrentRequests(): number {
    return Math.floor(positive(userValue('rateLimit.maxConcurrent', 4), 4));
  },
  /**
   * Results per page: a workspace may lower the user's value (fewer credits), never raise
   * it, in its settings or in its files (`fromWorkspaceFile`: a `.odinq` query's `size=`).
   */
  searchPageSize(fromWorkspaceFile?: number): number {
    return Math.floor(lowestOf('search.pageSize', (n) => n >= 1 && n <= 100, 25, fromWorkspaceFile));
  },
  /** The memory bound of the lookup cache, in bytes (user setting; default 64 MiB). */
  cacheMaxBytes(): number {
    return Math.floor(positive(userValue('cache.maxMegabytes', 64), 64) * 1024 * 1024);
  },
  /**
   * Whether VS Code is offered the ODIN MCP server too (user level only: it starts a process
   * with the key). Off by default: its tools are the language-model tools VS Code already has.
   */
  offerMcpServer(): boolean {
    return userValue<unknown>('agent.offerMcpServer', false) === true;
  },

  /** The exploitation feeds: user level only (application scope), so a workspace cannot redirect or enable them. */
  feeds(): { enabled: boolean; kevUrl: string; epssUrl: string } {
    const url = (key: string, fallback: string): string => {
      const v = userValue<unknown>(key, fallback);
      return typeof v === 'string' && v.trim() !== '' ? v.trim() : fallback;
    };
    return {
      enabled: userValue<unknown>('feeds.enabled', true) !== false,
      kevUrl: url('feeds.kevUrl', DEFAULT_KEV_URL),
      epssUrl: url('feeds.epssUrl', DEFAULT_EPSS_URL),
    };
  },
  expiryWarningDays(): number {
    return positive(section().get<number>('whois.expiryWarningDays', 30), 30);
  },
  /** The triage's opt-in views: verdict decorations, and Problems entries for infrastructure files. */
  triageViews(): { decorations: boolean; problems: boolean } {
    return {
      decorations: section().get<boolean>('triage.decorations', false) === true,
      problems: section().get<boolean>('triage.problems', false) === true,
    };
  },
};

function stringList(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    : [];
}

function positive(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Fires `listener` when any `odin.*` setting changes. */
export function onConfigChange(listener: (e: vscode.ConfigurationChangeEvent) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('odin')) listener(e);
  });
}

/**
 * The deny entries of each workspace folder's `odin-hunt.json` (core/ci/runConfig.ts). A
 * file that cannot be read adds nothing here: the runner refuses it in CI with its reason.
 */
function committedDeny(): string[] {
  const out: string[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    try {
      out.push(
        ...parseRunConfig(fs.readFileSync(path.join(folder.uri.fsPath, RUN_CONFIG_FILE), 'utf8')).deny,
      );
    } catch {
      // No file, or one the runner reports: nothing to add.
    }
  }
  return out;
}
