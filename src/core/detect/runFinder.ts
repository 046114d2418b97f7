// The WebAssembly run finder (src/wasm/runs.ts), loaded once, on the first large scan: a hover's
// small scans never load it. Unavailable (null) where there is no WebAssembly or no Buffer to
// copy text with; the scanner then uses its JavaScript trigger search, which finds the same runs.
import { RUNS_WASM } from './runsWasm';

/** Record flag bits above scan.ts's classes: MARKED, IPV6_CHECKED, IPV4_CHECKED, PLAIN_IPV4 in src/wasm/runs.ts. */
export const MARKED = 256;
export const IPV6_CHECKED = 512;
export const IPV4_CHECKED = 1024;
/** A record that is a dotted quad to emit as it stands (start and end are the address's). */
export const PLAIN_IPV4 = 2048;

export interface RunFinder {
  /** The most characters a chunk can hold (CAP in src/wasm/runs.ts). */
  readonly capacity: number;
  /** Copies text[a, b) (at most `capacity` characters) into the finder's memory. */
  load(text: string, a: number, b: number): void;
  /**
   * Scans the loaded chunk of `n` characters (it must end with whitespace or the text) for runs
   * starting before `limit` (see `scan` in src/wasm/runs.ts); returns the record count.
   */
  scan(n: number, limit: number): number;
  /** Records: start, end, flags, relative to the chunk. */
  readonly records: Int32Array;
}

/** The part of the WebAssembly API used here (not in the ES2022 library typings). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
};

let finder: RunFinder | null | undefined;

/**
 * The run finder, with `classes` (scan.ts's table; ASCII is read) as its character classes: the
 * first caller's (there is one, scan.ts).
 */
export function runFinder(classes: Uint8Array): RunFinder | null {
  if (finder === undefined) finder = instantiate(classes);
  return finder;
}

function instantiate(classes: Uint8Array): RunFinder | null {
  if (typeof WebAssembly === 'undefined' || typeof Buffer === 'undefined') return null;
  try {
    const module = new WebAssembly.Module(Buffer.from(RUNS_WASM, 'base64'));
    const api = new WebAssembly.Instance(module, {}).exports;
    const memory = api.memory as { buffer: ArrayBuffer };
    const scan = api.scan as (n: number, limit: number) => number;
    // The memory has a fixed size (it never grows), so these views stay valid.
    const bytes = Buffer.from(memory.buffer);
    const capacity = (api.capacity as () => number)();
    const table = capacity * 2;
    bytes.set(classes.subarray(0, 128), table);
    // Records start at OUT (src/wasm/runs.ts): after the table.
    const records = new Int32Array(memory.buffer, table + 128, (memory.buffer.byteLength - table - 128) >> 2);
    return {
      capacity,
      load(text, a, b) {
        bytes.write(text.substring(a, b), 0, table, 'utf16le');
      },
      scan,
      records,
    };
  } catch {
    return null;
  }
}
