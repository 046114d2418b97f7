/**
 * The words of the modules that cannot import `vscode` (the core, and the plain modules of
 * src/extension that unit tests load in Node), translated the same way as the adapters'
 * `vscode.l10n.t`: the message is the key, `{0}`… its arguments. The extension gives
 * `vscode.l10n.t` once at activation (`useTranslator`); until then, and in plain Node, the
 * English message is formatted. One process-wide translator, as `@vscode/l10n` keeps one, so
 * no signature changes for a word. `scripts/l10n.mjs` collects the literal messages of these
 * calls, here and in src/extension, into l10n/bundle.l10n.json.
 */
export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;

/** The message with `{n}` replaced by argument n (what `vscode.l10n.t` does without a bundle). */
export const english: Translate = (message, ...args) =>
  // Without arguments every `{n}` stays as written: most labels of a card take none.
  args.length === 0
    ? message
    : message.replace(/\{(\d+)\}/g, (whole, i: string) =>
        Number(i) < args.length ? String(args[Number(i)]) : whole,
      );

let translate: Translate = english;
let forTheModel: () => boolean = () => false;

export const l10n = {
  t: (message: string, ...args: Array<string | number | boolean>): string =>
    (forTheModel() ? english : translate)(message, ...args),
};

/**
 * Words a language model reads stay English (ARCHITECTURE.md, "Localisation"): the agent's
 * tool calls reuse core words (exploitation signals, whois diffs, refusals), so while
 * `answering()` holds (src/agent/tools.ts: the call's async context) `l10n.t` formats English.
 */
export function englishWhile(answering: () => boolean): void {
  forTheModel = answering;
}

/** Called once by the extension's activation with `vscode.l10n.t`. */
export function useTranslator(t: Translate): void {
  translate = t;
}
