/**
 * Every prompt the extension opens, as an event the tests wait on instead of a fixed time: a
 * quick pick, an input box, a file dialog (a quick input in this host) or a modal message. The
 * real prompt still opens (the `vscode.window` functions are wrapped, not replaced); the
 * tests then close it the way a person would (Escape, `workbench.action.closeQuickOpen`) or the
 * test host dismisses the modal.
 */
import * as vscode from 'vscode';

export interface Prompt {
  kind: string;
  /** The title, prompt, placeholder or message it showed (what the user would read). */
  text: string;
}

type Listener = (p: Prompt) => void;

const listeners = new Set<Listener>();
/** How many prompts were shown since the spy was installed. */
let promptCount = 0;
/** Every prompt shown since the spy was installed, oldest first. */
export const shownPrompts: Prompt[] = [];
let installed = false;

function textOf(options: unknown): string {
  if (typeof options === 'string') return options;
  if (!options || typeof options !== 'object') return '';
  const o = options as Record<string, unknown>;
  return [o.title, o.prompt, o.placeHolder, o.openLabel, o.saveLabel]
    .filter((x) => typeof x === 'string')
    .join(' · ');
}

function emit(kind: string, text: string): void {
  const p = { kind, text };
  promptCount++;
  shownPrompts.push(p);
  if (shownPrompts.length > 200) shownPrompts.shift();
  for (const l of [...listeners]) l(p);
}

/** Wraps the prompt functions of `vscode.window` (the extension and the tests share this object). */
export function installPromptSpy(): void {
  if (installed) return;
  installed = true;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wrapping the API's own functions
  const w = vscode.window as any;
  const wrap = (name: string, kindOf: (args: unknown[]) => string | undefined, textAt: number): void => {
    const original = w[name] as (...a: unknown[]) => unknown;
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      const kind = kindOf(args);
      const result = original.apply(this, args);
      if (kind) emit(kind, textOf(args[textAt]));
      return result;
    };
    w[name] = wrapped;
    if (w[name] !== wrapped) throw new Error(`vscode.window.${name} cannot be wrapped in this host`);
  };
  wrap('showQuickPick', () => 'quickPick', 1);
  wrap('showInputBox', () => 'inputBox', 0);
  wrap('showOpenDialog', () => 'openDialog', 0);
  wrap('showSaveDialog', () => 'saveDialog', 0);
  // A modal, or a notification with buttons the command waits on (it ends when it is dismissed).
  const messageKind = (args: unknown[]): string | undefined => {
    const rest = args.slice(1);
    if (rest.some((a) => !!a && typeof a === 'object' && (a as { modal?: unknown }).modal === true))
      return 'modal';
    return rest.some((a) => typeof a === 'string' || (!!a && typeof a === 'object' && 'title' in a))
      ? 'notification'
      : undefined;
  };
  for (const name of ['showInformationMessage', 'showWarningMessage', 'showErrorMessage']) {
    const original = w[name] as (...a: unknown[]) => unknown;
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      const result = original.apply(this, args);
      const kind = messageKind(args);
      if (kind) emit(kind, String(args[0] ?? ''));
      return result;
    };
    w[name] = wrapped;
  }
  for (const [name, kind] of [
    ['createQuickPick', 'quickPick'],
    ['createInputBox', 'inputBox'],
  ] as const) {
    const original = w[name] as () => { show(): void; title?: string; placeholder?: string; prompt?: string };
    w[name] = function (this: unknown): unknown {
      const input = original.apply(this);
      const show = input.show.bind(input);
      input.show = () => {
        show();
        emit(kind, [input.title, input.placeholder, input.prompt].filter(Boolean).join(' · '));
      };
      return input;
    };
  }
}

/** A mark of the prompts shown so far: take it before running the command that should prompt. */
export function promptMark(): number {
  installPromptSpy();
  return promptCount;
}

/** Prompts a person must answer before the command goes on: inputs, dialogs, modals. */
export const WAITS_FOR_USER = (p: Prompt): boolean => p.kind !== 'notification';

/**
 * Resolves with the first prompt shown after `mark` that `accept` takes (every kind by
 * default), or with undefined when `settled` (the command's own promise) ends first. Callers
 * bound it with `within` (index.ts).
 */
export function promptSince(
  mark: number,
  settled: Promise<unknown>,
  accept: (p: Prompt) => boolean = () => true,
): Promise<Prompt | undefined> {
  const since = shownPrompts.slice(Math.max(0, shownPrompts.length - (promptCount - mark)));
  const already = promptCount > mark ? since.find(accept) : undefined;
  if (already) return Promise.resolve(already);
  return new Promise((resolve) => {
    const listener: Listener = (p) => {
      if (!accept(p)) return;
      listeners.delete(listener);
      resolve(p);
    };
    listeners.add(listener);
    settled.then(
      () => (listeners.delete(listener), resolve(undefined)),
      () => (listeners.delete(listener), resolve(undefined)),
    );
  });
}
