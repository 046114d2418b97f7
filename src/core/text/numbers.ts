/**
 * A count as the cards, trees and status items write it (`12,345`). One formatter for the
 * process: `toLocaleString('en-US')` builds one per call whenever V8's single cached
 * formatter holds another locale (the extension host shares it with VS Code and every other
 * extension), which made a hover card's two or three counts cost more than the rest of it.
 */
let enUS: Intl.NumberFormat | undefined;

/** `n` with en-US digit grouping: what `n.toLocaleString('en-US')` gives. Built on first use, not at activation. */
export function fmt(n: number): string {
  // Whole numbers (nearly every count) grouped here: the same text, without a call into ICU.
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) {
    if (n > -1000 && n < 1000) return String(n);
    const digits = String(Math.abs(n));
    let out = digits.slice(0, digits.length % 3 || 3);
    for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
    return n < 0 ? `-${out}` : out;
  }
  return (enUS ??= new Intl.NumberFormat('en-US')).format(n);
}
