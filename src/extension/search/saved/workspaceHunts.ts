/**
 * The `.odinq` files of the workspace, for the "Workspace hunts" group of the Saved Searches
 * view (a team shares hunts through git). Files are found once when the view first asks,
 * then followed with a FileSystemWatcher. Reading a file only lists its queries (the header
 * lines, no query parser): nothing runs by itself, a query node runs on a click through
 * `odin.runHunt`, which checks the query and refuses in Restricted Mode.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseHuntFile, type HuntKind } from '../../../core/hunts/file';

export const HUNT_GLOB = '**/*.odinq';
const EXCLUDE = '{**/node_modules/**,**/.git/**}';
const MAX_FILES = 200;
const MAX_BYTES = 1024 * 1024;

export interface WorkspaceHunt {
  index: number;
  name: string;
  kind: HuntKind | undefined;
  query: string;
  options: { key: string; value: string }[];
  /** Offset of the header line in the file (to open the file at the query). */
  headerStart: number;
}

export interface HuntFileEntry {
  uri: vscode.Uri;
  /** The path relative to its workspace folder (what the tree shows). */
  label: string;
  hunts: WorkspaceHunt[];
}

export class WorkspaceHunts implements vscode.Disposable {
  private readonly files = new Map<string, HuntFileEntry>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private watcher: vscode.FileSystemWatcher | undefined;
  private started: Promise<void> | undefined;
  private readonly subs: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private readonly dirty = new Set<string>();

  /**
   * Finds the files (once) and starts following them. Right after start-up the workspace
   * search can answer with nothing while the files are there (no watcher event will come for
   * them): an empty or failed first scan is tried again twice, after 3 s and 10 s.
   */
  start(): Promise<void> {
    this.started ??= this.scanWithRetry([3000, 10_000]);
    return this.started;
  }

  private async scanWithRetry(delays: number[]): Promise<void> {
    const found = await this.scan().then(
      () => this.files.size > 0,
      () => false,
    );
    if (found || !delays.length || !vscode.workspace.workspaceFolders?.length) return;
    const [wait, ...rest] = delays;
    this.retry = setTimeout(() => void this.scanWithRetry(rest), wait);
  }

  list(): HuntFileEntry[] {
    return [...this.files.values()].sort((a, b) => a.label.localeCompare(b.label));
  }

  get(uri: string): HuntFileEntry | undefined {
    return this.files.get(uri);
  }

  /** Reads everything again (and waits for it): after writing into a file, and by Re-run All. */
  async rescan(): Promise<void> {
    // Before the first start, the start's own scan is the fresh read: one workspace search, not two.
    if (!this.started) return this.start();
    await this.started;
    await this.scan();
  }

  private async scan(): Promise<void> {
    if (!this.watcher && vscode.workspace.workspaceFolders?.length) {
      this.watcher = vscode.workspace.createFileSystemWatcher(HUNT_GLOB);
      this.subs.push(
        this.watcher,
        this.watcher.onDidCreate((u) => this.touch(u)),
        this.watcher.onDidChange((u) => this.touch(u)),
        this.watcher.onDidDelete((u) => {
          if (this.files.delete(u.toString())) this.changed.fire();
        }),
        vscode.workspace.onDidChangeWorkspaceFolders(() => void this.scan()),
        // Opening or saving a file also arrives here: some file systems send no watcher event,
        // and on VS Code 1.100 a window reloaded under code-server got none for a new file.
        vscode.workspace.onDidOpenTextDocument((d) => {
          if (this.isWorkspaceHuntFile(d.uri) && !this.files.has(d.uri.toString())) this.touch(d.uri);
        }),
        vscode.workspace.onDidSaveTextDocument((d) => {
          if (this.isWorkspaceHuntFile(d.uri)) this.touch(d.uri);
        }),
      );
    }
    const uris = vscode.workspace.workspaceFolders?.length
      ? await vscode.workspace.findFiles(HUNT_GLOB, EXCLUDE, MAX_FILES)
      : [];
    const seen = new Set(uris.map((u) => u.toString()));
    for (const k of [...this.files.keys()]) if (!seen.has(k)) this.files.delete(k);
    await Promise.all(uris.map((u) => this.read(u)));
    this.changed.fire();
  }

  private touch(uri: vscode.Uri): void {
    if (this.isExcluded(uri)) return;
    this.dirty.add(uri.toString());
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const list = [...this.dirty];
      this.dirty.clear();
      void Promise.all(list.map((u) => this.read(vscode.Uri.parse(u)))).then(() => this.changed.fire());
    }, 150);
  }

  /** An `.odinq` file inside a workspace folder (what the glob would find). */
  private isWorkspaceHuntFile(uri: vscode.Uri): boolean {
    return (
      uri.path.endsWith('.odinq') &&
      vscode.workspace.getWorkspaceFolder(uri) !== undefined &&
      !this.isExcluded(uri)
    );
  }

  private isExcluded(uri: vscode.Uri): boolean {
    return /\/(node_modules|\.git)\//.test(uri.path);
  }

  private async read(uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > MAX_BYTES) {
        this.files.delete(key);
        return;
      }
      const text = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
      const parsed = parseHuntFile(text);
      this.files.set(key, {
        uri,
        label: labelOf(uri),
        hunts: parsed.queries.map((q) => ({
          index: q.index,
          name: q.name,
          kind: q.kind,
          query: q.query,
          options: q.options.map((o) => ({ key: o.key, value: o.value })),
          headerStart: q.headerStart,
        })),
      });
    } catch {
      this.files.delete(key);
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.retry) clearTimeout(this.retry);
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}

function labelOf(uri: vscode.Uri): string {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) return path.basename(uri.fsPath);
  const rel = path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? `${folder.name}/${rel}` : rel;
}
