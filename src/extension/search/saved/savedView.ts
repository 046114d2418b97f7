/**
 * The "Saved Searches" view: saved searches grouped by what they search (hosts, domains,
 * exposed storage), click to run, context menu to rename / edit / duplicate / reorder /
 * delete, and drag and drop to reorder. Beside them, "Workspace hunts": the workspace's
 * `.odinq` files, a node per file and per query (workspaceHunts.ts). A search or query that
 * ran twice says what changed ("+12 new, −3 gone since 20 Nov", snapshots.ts) and lists the
 * new results under "What's new".
 */
import * as vscode from 'vscode';
import {
  GROUP_LABELS,
  KINDS,
  describeSpec,
  moveBefore,
  type SavedSearch,
  type SearchGroup,
} from '../../../core/savedSearches';
import { huntSubject } from '../../../core/hunts/snapshot';
import { neutraliseUiText } from '../../../core/text/inert';
import { ContextKeys, type ContextKeyValues } from '../../shared/contextKeys';
import { nodeContext } from '../../../core/results/nodeMenus';
import type { SavedSearchStore } from './savedStore';
import type { News, SnapshotStore } from './snapshots';
import type { HuntFileEntry, WorkspaceHunt, WorkspaceHunts } from './workspaceHunts';

export type SavedNode =
  | { type: 'group'; group: SearchGroup }
  | { type: 'search'; search: SavedSearch }
  | { type: 'hunts' }
  | { type: 'huntFile'; file: HuntFileEntry }
  | { type: 'hunt'; file: HuntFileEntry; hunt: WorkspaceHunt }
  | { type: 'news'; parent: SavedNode & { type: 'search' | 'hunt' }; news: News }
  | { type: 'new'; parent: SavedNode & { type: 'news' }; id: string; news: News };

/** The snapshot subject of a personal saved search or a workspace query. */
export function subjectOf(n: SavedNode & { type: 'search' | 'hunt' }): object {
  return n.type === 'search' ? n.search.spec : huntSubject(n.hunt);
}

const NEW_ICONS: Record<string, string> = {
  host: 'server',
  bucket: 'database',
  domain: 'globe',
  facet: 'filter',
};

const GROUP_ICONS: Record<SearchGroup, string> = {
  hosts: 'server-environment',
  domains: 'globe',
  storage: 'database',
};
const MIME = 'application/vnd.code.tree.odin.savedsearches';

export class SavedSearchesProvider
  implements
    vscode.TreeDataProvider<SavedNode>,
    vscode.TreeDragAndDropController<SavedNode>,
    vscode.Disposable
{
  private readonly changed = new vscode.EventEmitter<SavedNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly dropMimeTypes = [MIME];
  readonly dragMimeTypes = [MIME];
  private readonly groupNodes = new Map<SearchGroup, SavedNode>();
  private readonly sub: { dispose(): void };

  private readonly huntsNode: SavedNode = { type: 'hunts' };
  /** Host nodes under "What's new" open the details page when it is available. */
  detailsAvailable = () => false;

  constructor(
    private readonly store: SavedSearchStore,
    private readonly contextKeys: ContextKeyValues,
    private readonly snapshots?: SnapshotStore,
    private readonly workspace?: WorkspaceHunts,
  ) {
    const subs = [
      store.onDidChange(() => this.refresh()),
      snapshots?.onDidChange(() => this.changed.fire(undefined)),
      workspace?.onDidChange(() => this.changed.fire(undefined)),
    ];
    this.sub = { dispose: () => subs.forEach((x) => x?.dispose()) };
  }

  refresh(): void {
    this.changed.fire(undefined);
    void this.contextKeys.set(ContextKeys.hasSavedSearches, this.store.list().length > 0);
  }

  private group(g: SearchGroup): SavedNode {
    let n = this.groupNodes.get(g);
    if (!n) {
      n = { type: 'group', group: g };
      this.groupNodes.set(g, n);
    }
    return n;
  }

  getChildren(element?: SavedNode): SavedNode[] {
    const list = this.store.list();
    if (!element) {
      const groups = (Object.keys(GROUP_LABELS) as SearchGroup[]).filter((g) =>
        list.some((s) => KINDS[s.spec.kind].group === g),
      );
      const nodes = groups.map((g) => this.group(g));
      if (this.workspace) {
        // The first scan fires a change when done (the group appears then).
        void this.workspace.start();
        if (this.workspace.list().length) nodes.push(this.huntsNode);
      }
      return nodes;
    }
    switch (element.type) {
      case 'group':
        return list
          .filter((s) => KINDS[s.spec.kind].group === element.group)
          .map((search): SavedNode => ({ type: 'search', search }));
      case 'hunts':
        return (this.workspace?.list() ?? []).map((file): SavedNode => ({ type: 'huntFile', file }));
      case 'huntFile':
        return element.file.hunts.map((hunt): SavedNode => ({ type: 'hunt', file: element.file, hunt }));
      case 'search':
      case 'hunt': {
        const news = this.newsOf(element);
        return news ? [{ type: 'news', parent: element, news }] : [];
      }
      case 'news':
        return element.news.added.map((id): SavedNode => ({
          type: 'new',
          parent: element,
          id,
          news: element.news,
        }));
      default:
        return [];
    }
  }

  private newsOf(n: SavedNode & { type: 'search' | 'hunt' }): News | undefined {
    const news = this.snapshots?.get(subjectOf(n))?.news;
    return news?.addedCount ? news : undefined;
  }

  getParent(element: SavedNode): SavedNode | undefined {
    switch (element.type) {
      case 'search':
        return this.group(KINDS[element.search.spec.kind].group);
      case 'huntFile':
        return this.huntsNode;
      case 'hunt':
        return { type: 'huntFile', file: element.file };
      case 'news':
      case 'new':
        return element.parent;
      default:
        return undefined;
    }
  }

  /** A tree item's id: stable across refreshes, so expansion and selection stay. */
  private idOf(n: SavedNode): string {
    switch (n.type) {
      case 'group':
        return `group:${n.group}`;
      case 'search':
        return `saved:${n.search.id}`;
      case 'hunts':
        return 'hunts';
      case 'huntFile':
        return `huntFile:${n.file.uri.toString()}`;
      case 'hunt':
        return `hunt:${n.file.uri.toString()}#${n.hunt.index}:${n.hunt.name}`;
      case 'news':
        return `${this.idOf(n.parent)}/news`;
      case 'new':
        return `${this.idOf(n.parent)}/${n.id}`;
    }
  }

  getTreeItem(element: SavedNode): vscode.TreeItem {
    if (element.type !== 'group' && element.type !== 'search') return this.workspaceItem(element);
    if (element.type === 'group') {
      const count = this.store.list().filter((s) => KINDS[s.spec.kind].group === element.group).length;
      const item = new vscode.TreeItem(GROUP_LABELS[element.group], vscode.TreeItemCollapsibleState.Expanded);
      item.id = `group:${element.group}`;
      item.description = String(count);
      item.iconPath = new vscode.ThemeIcon(GROUP_ICONS[element.group]);
      item.contextValue = nodeContext('odin.savedGroup');
      return item;
    }
    const s = element.search;
    const what = describeSpec(s.spec);
    const change = this.snapshots?.describe(s.spec);
    const item = new vscode.TreeItem(
      neutraliseUiText(s.name, 200),
      this.newsOf(element) ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `saved:${s.id}`;
    item.description = change ?? neutraliseUiText(`${KINDS[s.spec.kind].label} · ${what}`, 200);
    item.tooltip = change
      ? vscode.l10n.t(
          '{0}\n{1}: {2}\nLast run: {3}\nClick to run.',
          neutraliseUiText(s.name, 200),
          KINDS[s.spec.kind].label,
          neutraliseUiText(what, 1000),
          change,
        )
      : vscode.l10n.t(
          '{0}\n{1}: {2}\nClick to run.',
          neutraliseUiText(s.name, 200),
          KINDS[s.spec.kind].label,
          neutraliseUiText(what, 1000),
        );
    item.iconPath = new vscode.ThemeIcon('search');
    item.contextValue = nodeContext('odin.savedSearch');
    item.command = {
      command: 'odin.runSavedSearch',
      title: vscode.l10n.t('Run Saved Search'),
      arguments: [s.id],
    };
    return item;
  }

  private workspaceItem(element: Exclude<SavedNode, { type: 'group' | 'search' }>): vscode.TreeItem {
    const C = vscode.TreeItemCollapsibleState;
    let item: vscode.TreeItem;
    switch (element.type) {
      case 'hunts':
        item = new vscode.TreeItem(vscode.l10n.t('Workspace hunts'), C.Expanded);
        item.description = String(this.workspace?.list().reduce((n, f) => n + f.hunts.length, 0) ?? 0);
        item.tooltip = vscode.l10n.t(
          'The .odinq files of this workspace (shared through git). Click a query to run it.',
        );
        item.iconPath = new vscode.ThemeIcon('repo');
        item.contextValue = nodeContext('odin.workspaceHunts');
        break;
      case 'huntFile':
        item = new vscode.TreeItem(neutraliseUiText(element.file.label, 200), C.Expanded);
        item.resourceUri = element.file.uri;
        item.description = `${element.file.hunts.length}`;
        item.iconPath = vscode.ThemeIcon.File;
        item.contextValue = nodeContext('odin.huntFile');
        item.command = {
          command: 'vscode.open',
          title: vscode.l10n.t('Open File'),
          arguments: [element.file.uri],
        };
        break;
      case 'hunt': {
        const h = element.hunt;
        const change = this.snapshots?.describe(subjectOf(element));
        item = new vscode.TreeItem(
          neutraliseUiText(h.name, 200),
          this.newsOf(element) ? C.Collapsed : C.None,
        );
        item.description = change ?? neutraliseUiText(`${h.kind ?? '?'} · ${h.query || '*'}`, 200);
        item.tooltip = change
          ? vscode.l10n.t(
              '{0} ({1})\n{2}: {3}\nLast run: {4}\nClick to run.',
              neutraliseUiText(h.name, 200),
              neutraliseUiText(element.file.label, 200),
              h.kind ?? vscode.l10n.t('unknown kind'),
              neutraliseUiText(h.query || '*', 1000),
              change,
            )
          : vscode.l10n.t(
              '{0} ({1})\n{2}: {3}\nClick to run.',
              neutraliseUiText(h.name, 200),
              neutraliseUiText(element.file.label, 200),
              h.kind ?? vscode.l10n.t('unknown kind'),
              neutraliseUiText(h.query || '*', 1000),
            );
        item.iconPath = new vscode.ThemeIcon('search');
        item.contextValue = nodeContext('odin.hunt');
        item.command = {
          command: 'odin.runHunt',
          title: vscode.l10n.t('Run'),
          arguments: [element.file.uri.toString(), h.index],
        };
        break;
      }
      case 'news': {
        const n = element.news;
        item = new vscode.TreeItem(vscode.l10n.t("What's new"), C.Collapsed);
        item.description =
          n.addedCount > n.added.length
            ? vscode.l10n.t('{0} new (first {1})', n.addedCount, n.added.length)
            : vscode.l10n.t('{0} new', n.addedCount);
        item.tooltip = vscode.l10n.t(
          'Results of the last run that the run before it ({0}) did not have.',
          new Date(n.since).toUTCString(),
        );
        item.iconPath = new vscode.ThemeIcon('sparkle');
        item.contextValue = nodeContext('odin.news');
        break;
      }
      case 'new': {
        const type = element.news.type ?? 'host';
        item = new vscode.TreeItem(neutraliseUiText(element.id, 200), C.None);
        item.iconPath = new vscode.ThemeIcon(NEW_ICONS[type] ?? 'circle-small');
        item.tooltip = vscode.l10n.t('New since {0}', new Date(element.news.since).toUTCString());
        item.contextValue = nodeContext('odin.newResult');
        if (type === 'host' && this.detailsAvailable())
          item.command = {
            command: 'odin.openHostDetails',
            title: vscode.l10n.t('Open Host Details'),
            arguments: [element.id],
          };
        else if (type === 'domain' && this.detailsAvailable())
          item.command = {
            command: 'odin.openWhoisDetails',
            title: vscode.l10n.t('Open Whois Details'),
            arguments: [element.id],
          };
        break;
      }
    }
    item.id = this.idOf(element);
    return item;
  }

  // ---------------------------------------------------------------- drag and drop

  handleDrag(source: readonly SavedNode[], data: vscode.DataTransfer): void {
    const ids = source.flatMap((n) => (n.type === 'search' ? [n.search.id] : []));
    if (ids.length) data.set(MIME, new vscode.DataTransferItem(ids));
  }

  async handleDrop(target: SavedNode | undefined, data: vscode.DataTransfer): Promise<void> {
    const raw = data.get(MIME)?.value as unknown;
    const ids = Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
    if (!ids.length) return;
    if (target && target.type !== 'search' && target.type !== 'group') return;
    const targetId = target?.type === 'search' ? target.search.id : undefined;
    await this.store.update((list) => {
      if (target?.type === 'group') {
        // Dropped on a group: after that group's last entry.
        const inGroup = list.filter((s) => KINDS[s.spec.kind].group === target.group && !ids.includes(s.id));
        const last = inGroup[inGroup.length - 1];
        const after = last ? list[list.indexOf(last) + 1] : undefined;
        return moveBefore(list, ids, after?.id);
      }
      return moveBefore(list, ids, targetId);
    });
  }

  dispose(): void {
    this.sub.dispose();
    this.workspace?.dispose();
    this.changed.dispose();
  }
}
