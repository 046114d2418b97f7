/**
 * A count as the cards, trees and status items write it (`12,345`). One formatter for the
 * process: `toLocaleString('en-US')` builds one per call whenever V8's single cached
 * formatter holds another locale (the extension host shares it with VS Code and every other
 * extension), which made a hover card's two or three counts cost more than the rest of it.
 */
let enUS: Intl.NumberFormat | undefined;

/** `n` with en-US digit grouping: what `n.toLocaleString('en-US')` gives. Built on first use, not at activation. */
export function fmt(n: number): string {
  return (enUS ??= new Intl.NumberFormat('en-US')).format(n);
}
