/**
 * The "Results" view: a TreeDataProvider over the result sets (the current one expanded,
 * earlier ones kept below it as history). Loading, empty, error and "Load more" are nodes
 * of the tree (vscode-pull-request-github style); `getChildren` never shows a notification.
 * The view's description carries the count of the current set ("25 of 10,000").
 */
import type { ExploitationView } from '../../../core/exploitation';
import * as vscode from 'vscode';
import type { SearchSpec } from '../../../core/savedSearches';
import { ContextKeys, type ContextKeyValues } from '../../shared/contextKeys';
import { countDescription, view } from './nodeViews';
import type { NodeView } from './viewTypes';
import { children, setTitle, type Node } from './resultNodes';
import type { PageFetcher } from '../../../core/search';
import { ResultSet } from './resultSet';

/** How many result sets are kept (the current one and the history below it). */
export const MAX_SETS = 8;

export class ResultsProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private sets: ResultSet[] = [];
  /** Root nodes are kept so `onDidChangeTreeData(node)` refers to the same element. */
  private readonly setNodes = new Map<string, Node & { type: 'set' }>();
  private currentId: string | undefined;
  private treeView: vscode.TreeView<Node> | undefined;
  detailsAvailable = false;
  /** The KEV and EPSS feeds (`ctx.feeds.store`), for CVE nodes. */
  exploitation: ExploitationView | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly contextKeys: ContextKeyValues,
    /** Ids for new sets (`ctx.nextId`: no counter in the module). */
    private readonly newId: () => string,
  ) {}

  attach(treeView: vscode.TreeView<Node>): void {
    this.treeView = treeView;
    this.updateDescription();
  }

  current(): ResultSet | undefined {
    return this.sets.find((s) => s.id === this.currentId);
  }

  all(): readonly ResultSet[] {
    return this.sets;
  }

  get(id: unknown): ResultSet | undefined {
    return typeof id === 'string' ? this.sets.find((s) => s.id === id) : undefined;
  }

  /** Adds a new set on top (it becomes the current one); the oldest beyond MAX_SETS is dropped. */
  add(spec: SearchSpec, fetcher: PageFetcher, pageSize: number): ResultSet {
    const set = new ResultSet(spec, fetcher, pageSize, (s) => this.onSetChanged(s), this.newId());
    this.sets.unshift(set);
    this.setNodes.set(set.id, { type: 'set', set });
    for (const old of this.sets.splice(MAX_SETS)) {
      old.cancel();
      this.setNodes.delete(old.id);
    }
    this.currentId = set.id;
    this.fire(undefined);
    void this.contextKeys.set(ContextKeys.hasResults, true);
    return set;
  }

  makeCurrent(set: ResultSet): void {
    this.currentId = set.id;
    this.fire(undefined);
  }

  remove(set: ResultSet): void {
    set.cancel();
    this.sets = this.sets.filter((s) => s !== set);
    this.setNodes.delete(set.id);
    if (this.currentId === set.id) this.currentId = this.sets[0]?.id;
    this.fire(undefined);
    void this.contextKeys.set(ContextKeys.hasResults, this.sets.length > 0);
  }

  clear(): void {
    for (const s of this.sets) s.cancel();
    this.sets = [];
    this.setNodes.clear();
    this.currentId = undefined;
    this.fire(undefined);
    void this.contextKeys.set(ContextKeys.hasResults, false);
  }

  async reveal(set: ResultSet): Promise<void> {
    const node = this.setNodes.get(set.id);
    if (!this.treeView || !node) return;
    try {
      await this.treeView.reveal(node, { expand: true, focus: false, select: false });
    } catch {
      // The view may be hidden or not yet resolved: not an error for the user.
    }
  }

  private onSetChanged(set: ResultSet): void {
    const node = this.setNodes.get(set.id);
    if (!node) return;
    // Coalesce bursts (Load all fires after each page) into one refresh per frame.
    this.pendingNodes.add(node);
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      const nodes = [...this.pendingNodes];
      this.pendingNodes.clear();
      for (const n of nodes) this.changed.fire(n);
      this.updateDescription();
    }, 16);
  }
  private readonly pendingNodes = new Set<Node>();

  private fire(node: Node | undefined): void {
    this.changed.fire(node);
    this.updateDescription();
  }

  private updateDescription(): void {
    if (!this.treeView) return;
    const cur = this.current();
    this.treeView.description = cur ? countDescription(cur) : undefined;
    this.treeView.message = undefined;
  }

  // ---------------------------------------------------------------- TreeDataProvider

  getChildren(element?: Node): Node[] {
    if (!element) return this.sets.map((s) => this.setNodes.get(s.id)!).filter(Boolean);
    return children(element);
  }

  getParent(element: Node): Node | undefined {
    if (element.type === 'set') return undefined;
    return this.setNodes.get(element.set.id);
  }

  /** The plain description of a node (what the tests and the bench look at). */
  describe(element: Node): NodeView {
    return view(element, {
      currentId: this.currentId,
      detailsAvailable: this.detailsAvailable,
      exploitation: this.exploitation,
    });
  }

  getTreeItem(element: Node): vscode.TreeItem {
    return toTreeItem(this.describe(element));
  }

  dispose(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    for (const s of this.sets) s.cancel();
    this.changed.dispose();
  }
}

const STATES: Record<NodeView['collapsible'], vscode.TreeItemCollapsibleState> = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
};

export function toTreeItem(v: NodeView): vscode.TreeItem {
  const item = new vscode.TreeItem(v.label, STATES[v.collapsible]);
  if (v.id) item.id = v.id;
  if (v.description) item.description = v.description;
  // Plain-string tooltips: never Markdown, so API text cannot render links or images.
  if (v.tooltip) item.tooltip = v.tooltip;
  if (v.icon)
    item.iconPath = new vscode.ThemeIcon(
      v.icon.id,
      v.icon.color ? new vscode.ThemeColor(v.icon.color) : undefined,
    );
  if (v.contextValue) item.contextValue = v.contextValue;
  if (v.command) item.command = v.command;
  return item;
}

export { setTitle };
