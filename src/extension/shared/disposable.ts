import type * as vscode from 'vscode';

/** Collects disposables and disposes them in reverse order, once. */
export class DisposableStore implements vscode.Disposable {
  private items: vscode.Disposable[] = [];
  private disposed = false;

  add<T extends vscode.Disposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
    } else {
      this.items.push(item);
    }
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const items = this.items.reverse();
    this.items = [];
    for (const item of items) {
      try {
        item.dispose();
      } catch {
        // One failing disposer must not keep the others from running.
      }
    }
  }
}
