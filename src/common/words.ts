/**
 * The pages' words, localised. A page writes its own text through `l10n.t` of
 * core/text/l10n.ts, the message being the key, as the extension does; the translations
 * come from the extension (the trusted side: `vscode.l10n.bundle`, never scan data) in a
 * `words` message that the webview kit posts right after the page's `ready` and before its
 * data. In English the bundle is undefined and nothing is posted: the page formats its
 * English messages. Every page's `to<Page>` schema accepts this one message.
 */
import { english, useTranslator } from '../core/text/l10n';
import { literal, object, type Check, type Infer } from './schema';
import { isRec } from './validate';

/** Most messages a bundle may hold (ours has a few hundred). */
const MAX_WORDS = 20_000;

/** Message → translation, every value a string; a fresh object without a prototype. */
export const dictionary: Check<Record<string, string>> = (v) => {
  if (!isRec(v)) return undefined;
  const entries = Object.entries(v);
  if (entries.length > MAX_WORDS) return undefined;
  const out = Object.create(null) as Record<string, string>;
  for (const [k, s] of entries) {
    if (typeof s !== 'string') return undefined;
    out[k] = s;
  }
  return out;
};

/** The translations of the page's messages, posted once per `ready` when VS Code is not in English. */
export const wordsMessage = object({ type: literal('words'), words: dictionary });
export type WordsMessage = Infer<typeof wordsMessage>;

/**
 * Points the page's `l10n.t` at `words` (a message without a translation stays English; the
 * arguments are formatted into the translation the same way as into the English).
 */
export function useWords(words: Record<string, string>): void {
  const table = new Map(Object.entries(words));
  useTranslator((message, ...args) => english(table.get(message) ?? message, ...args));
}
