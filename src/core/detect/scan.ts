// The entry points of the scanner: the whole text (objects or a compact table) or a range.
// How it works, and how to add a rule: docs/detection.md.
import { scanEach, scanTriggers, syncPoint } from './candidates';
import { newSink, type Sink } from './output';
import { DetectionTable } from './table';
import type { Detection, DetectOptions } from './types';

export { MAX_RUN } from './rules';
export { setFastPaths } from './runs';

/** Internal: tests compare the strategies, which must agree on every input. */
export interface ScanOptions extends DetectOptions {
  strategy?: Strategy;
}

type Strategy = 'each' | 'triggers';

export function scan(text: string, from: number, to: number, opts: ScanOptions = {}): Detection[] {
  const sink = newSink(text, opts, undefined);
  const stop = run(sink, from, to, opts);
  if (from === 0 && stop === text.length) return sink.out;
  return sink.out.filter((d) => d.end > from && d.start < stop);
}

/** The whole text into a compact table (no per-detection objects or value strings). */
export function scanTable(text: string, opts: ScanOptions = {}): DetectionTable {
  const table = new DetectionTable(text);
  run(newSink(text, opts, table), 0, text.length, opts);
  return table;
}

/** Scans the runs that start in [from, to) (or cover `from` when empty); returns the stop offset. */
function run(sink: Sink, from: number, to: number, opts: ScanOptions): number {
  const text = sink.text;
  const n = text.length;
  from = Math.max(0, Math.min(from, n));
  to = Math.max(from, Math.min(to, n));
  // Runs that start before `stop` are analysed whole; a zero-width range asks for the
  // detection covering one offset.
  const stop = Math.min(n, Math.max(to, from + 1));
  const start = syncPoint(text, from);
  const strategy = opts.strategy ?? (stop - start > 65_536 ? 'triggers' : 'each');
  if (strategy === 'each') scanEach(sink, start, stop);
  else scanTriggers(sink, start, stop);
  return stop;
}
