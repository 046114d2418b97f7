/**
 * How a node of the results tree looks, as plain data (nodeViews.ts makes it, resultsView.ts
 * turns it into a `TreeItem`, resultSet.ts keeps it per item). No VS Code here.
 */
export interface IconView {
  id: string;
  /** A theme colour id (`errorForeground`, `charts.orange`, ...). */
  color?: string;
}

export interface CommandView {
  command: string;
  title: string;
  arguments: unknown[];
}

export interface NodeView {
  label: string;
  description?: string;
  tooltip?: string;
  icon?: IconView;
  collapsible: 'none' | 'collapsed' | 'expanded';
  contextValue?: string;
  command?: CommandView;
  id?: string;
}
