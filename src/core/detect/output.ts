// Output: where detections go (Detection objects, or rows of a compact DetectionTable), with
// the kinds filter and the limit applied once, here.
import type { DetectionTable } from './table';
import type { Detection, DetectionKind, DetectOptions } from './types';

export const ALL_KINDS: ReadonlySet<DetectionKind> = new Set(['ipv4', 'ipv6', 'cidr', 'domain']);

export interface Sink {
  text: string;
  /** Materialised detections (undefined when filling a table). */
  out: Detection[];
  /** Compact mode: detections as rows of numbers; `value` strings are not built. */
  table: DetectionTable | undefined;
  /** Build `value` strings (false in compact mode: `valueOf` builds one on demand). */
  values: boolean;
  /** Detections so far (either mode). */
  n: number;
  kinds: ReadonlySet<DetectionKind>;
  /** No kinds filter: every kind is wanted (skips the set lookups). */
  allKinds: boolean;
  mode: 'code' | 'text';
  limit: number;
}

/**
 * One detection. `written`: the raw text when the caller has it; `address`: a dotted quad's
 * number when the caller parsed it (a table keeps it, so a reader need not parse it again).
 */
export function emit(
  sink: Sink,
  kind: DetectionKind,
  start: number,
  end: number,
  value: string | undefined,
  defanged: boolean,
  port?: number,
  written?: string,
  address = -1,
): void {
  if ((!sink.allKinds && !sink.kinds.has(kind)) || sink.n >= sink.limit) return;
  sink.n++;
  if (sink.table !== undefined) {
    // Only a host name's value is built in compact mode; the others are built on demand.
    sink.table.push(kind, start, end, defanged, port, kind === 'domain' ? value : undefined, address);
    return;
  }
  const raw = written ?? sink.text.slice(start, end);
  // One string when the text is already canonical: the result list is most of what survives.
  const d: Detection = {
    kind,
    start,
    end,
    raw,
    value: value === undefined || value === raw ? raw : value,
    defanged,
  };
  if (port !== undefined) d.port = port;
  sink.out.push(d);
}

export function newSink(text: string, opts: DetectOptions, table: DetectionTable | undefined): Sink {
  return {
    text,
    out: [],
    table,
    values: table === undefined,
    n: 0,
    kinds: opts.kinds ? new Set(opts.kinds) : ALL_KINDS,
    allKinds: opts.kinds === undefined,
    mode: opts.mode ?? 'code',
    limit: opts.limit ?? Number.MAX_SAFE_INTEGER,
  };
}

/** Puts the detections since the `before`-th in order of start (one run's worth: a handful). */
export function reorder(sink: Sink, before: number): void {
  if (sink.n - before < 2) return;
  if (sink.table !== undefined) sink.table.sortFrom(before);
  else if (!sortedFrom(sink.out, before)) {
    const added = sink.out.splice(before).sort((a, b) => a.start - b.start);
    for (const d of added) sink.out.push(d);
  }
}

/** out[from..] already in order of start (the common case: nothing to reorder). */
function sortedFrom(out: Detection[], from: number): boolean {
  for (let k = from + 1; k < out.length; k++) if (out[k].start < out[k - 1].start) return false;
  return true;
}
