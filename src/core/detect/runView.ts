// A run under analysis: its text in place, or refanged with a map back to the original offsets.
import { refangRun } from './refang';

/**
 * A run under analysis, as `str[lo, hi)`. A plain run is read in place (`str` is the text, no
 * copy); a run with defang markers is refanged into a new string with a map back to offsets in
 * the original.
 */
export class RunView {
  constructor(
    public str: string,
    public lo: number,
    public hi: number,
    /** For runs with markers: the original offset of index 0. */
    private readonly base = 0,
    /** For runs with markers: triples (refanged index, original offset, marker length). */
    private readonly marks?: number[],
  ) {}

  static marked(text: string, s: number, e: number): RunView {
    const marks: number[] = [];
    const str = refangRun(text, s, e, marks);
    return new RunView(str, 0, str.length, s, marks);
  }

  /** The shared view of a plain run (no markers): analyses are not reentrant. */
  static plain(text: string, s: number, e: number): RunView {
    const v = PLAIN_VIEW;
    v.str = text;
    v.lo = s;
    v.hi = e;
    return v;
  }

  /**
   * Original offset of index i: where character i starts, which is also where character i - 1
   * ends (i may equal hi: the run end).
   */
  orig(i: number): number {
    if (this.marks === undefined) return i;
    let off = this.base + i;
    for (let k = 0; k < this.marks.length && this.marks[k] < i; k += 3) off += this.marks[k + 2] - 1;
    return off;
  }

  /** True if [a, b) holds a character that came from a defang marker. */
  markedIn(a: number, b: number): boolean {
    if (this.marks === undefined) return false;
    for (let k = 0; k < this.marks.length; k += 3) if (this.marks[k] >= a && this.marks[k] < b) return true;
    return false;
  }
}

export const PLAIN_VIEW = new RunView('', 0, 0);
