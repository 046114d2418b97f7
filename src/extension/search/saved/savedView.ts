/**
 * The "Saved Searches" view: saved searches grouped by what they search (hosts, domains,
 * exposed storage), click to run, context menu to rename / edit / duplicate / reorder /
 * delete, and drag and drop to reorder.
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
import { neutraliseUiText } from '../../../core/text';
import { ContextKeys, type ContextKeyValues } from '../../shared/contextKeys';
import type { SavedSearchStore } from './savedStore';

export type SavedNode = { type: 'group'; group: SearchGroup } | { type: 'search'; search: SavedSearch };

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

  constructor(
    private readonly store: SavedSearchStore,
    private readonly contextKeys: ContextKeyValues,
  ) {
    this.sub = store.onDidChange(() => this.refresh());
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
      return groups.map((g) => this.group(g));
    }
    if (element.type === 'group') {
      return list
        .filter((s) => KINDS[s.spec.kind].group === element.group)
        .map((search): SavedNode => ({ type: 'search', search }));
    }
    return [];
  }

  getParent(element: SavedNode): SavedNode | undefined {
    return element.type === 'search' ? this.group(KINDS[element.search.spec.kind].group) : undefined;
  }

  getTreeItem(element: SavedNode): vscode.TreeItem {
    if (element.type === 'group') {
      const count = this.store.list().filter((s) => KINDS[s.spec.kind].group === element.group).length;
      const item = new vscode.TreeItem(GROUP_LABELS[element.group], vscode.TreeItemCollapsibleState.Expanded);
      item.id = `group:${element.group}`;
      item.description = String(count);
      item.iconPath = new vscode.ThemeIcon(GROUP_ICONS[element.group]);
      item.contextValue = 'odin.savedGroup';
      return item;
    }
    const s = element.search;
    const what = describeSpec(s.spec);
    const item = new vscode.TreeItem(neutraliseUiText(s.name, 200), vscode.TreeItemCollapsibleState.None);
    item.id = `saved:${s.id}`;
    item.description = neutraliseUiText(`${KINDS[s.spec.kind].label} · ${what}`, 200);
    item.tooltip = `${neutraliseUiText(s.name, 200)}\n${KINDS[s.spec.kind].label}: ${neutraliseUiText(what, 1000)}\nClick to run.`;
    item.iconPath = new vscode.ThemeIcon('search');
    item.contextValue = 'odin.savedSearch';
    item.command = { command: 'odin.runSavedSearch', title: 'Run Saved Search', arguments: [s.id] };
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
    this.changed.dispose();
  }
}
