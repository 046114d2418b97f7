// The WebAssembly run finder (src/wasm/runs.ts), loaded once, on the first large scan: a hover's
// small scans never load it. Unavailable (null) where there is no WebAssembly or no Buffer to
// copy text with; the scanner then uses its JavaScript trigger search, which finds the same runs.
import { runsWasm } from './runsWasm';

/** Record flag bits above scan.ts's classes, as in src/wasm/runs.ts. */
export const MARKED = 256;
export const IPV6_CHECKED = 512;
export const IPV4_CHECKED = 1024;
/** What a spelling is, stored with it (rememberName): a public host name at all... */
export const HOST_NAME = 1;
/** ...one to take in text where nothing around it says otherwise... */
export const TEXT_OK = 2;
/** ...the same in code, as it stands... */
export const CODE_OK = 4;
/** ...and quoted. */
export const CODE_OK_QUOTED = 8;
/**
 * A host name candidate whose trimmed name and slots follow in the record: letters or `_`, dots,
 * no colon, no marker; or, with MARKED, letters, dots and dot markers, no colon. Its TLD has the
 * letters of one (TLDs known not to be one are dropped).
 */
export const NAME = 4096;
/** The candidate's TLD is known to be an ICANN TLD. */
export const TLD_KNOWN = 8192;
/** The candidate's name slot holds its spelling. */
export const NAME_KNOWN = 16384;
/** A MARKED name with a marker in its trimmed name. */
export const DEFANGED_NAME = 32768;
/** A NAME's TLD length is in its flags from this bit on. */
export const TLD_LENGTH_SHIFT = 16;
/** A name too long for a slot. */
export const NO_SLOT = 0xffff;
/** Where a record holds the number of rows written before it. */
export const ROWS_BEFORE = 6;

export interface RunFinder {
  /** The most characters a chunk can hold (CAP in src/wasm/runs.ts). */
  readonly capacity: number;
  /** Copies text[a, b) (at most `capacity` characters) into the finder's memory. */
  load(text: string, a: number, b: number): void;
  /**
   * Scans the loaded chunk of `n` characters (it must end with whitespace or the text), which
   * is at `offset` in the text, for runs starting before `limit` (see `scan` in
   * src/wasm/runs.ts), in text that is code or not; returns the record count.
   */
  scan(n: number, limit: number, code: boolean, offset: number): number;
  /**
   * Records of `stride` numbers: start, end, flags, relative to the chunk; for a NAME, also
   * its trimmed start and end and its slots (TLD | name << 16); then the number of rows
   * written before the record (ROWS_BEFORE).
   */
  readonly records: Int32Array;
  readonly stride: number;
  /**
   * The detections the last scan decided itself, in DetectionTable's row format (start and end
   * in the text, kind and flags), in order of start with the records' detections.
   */
  readonly rows: Int32Array;
  /** Rows the last scan wrote. */
  rowCount(): number;
  /** Name slots (numbered from 0). */
  readonly nameSlots: number;
  /** Stores the verdict on the TLD chunk[t, y) in `slot`: the finder drops names under a non-TLD. */
  rememberTld(slot: number, t: number, y: number, icann: boolean): void;
  /**
   * Stores the spelling chunk[x, y) in name slot `slot`, with `verdicts` (HOST_NAME, TEXT_OK,
   * CODE_OK, CODE_OK_QUOTED); the caller keeps what it says.
   */
  rememberName(slot: number, x: number, y: number, verdicts: number): void;
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
    const module = new WebAssembly.Module(Buffer.from(runsWasm(), 'base64'));
    const api = new WebAssembly.Instance(module, {}).exports;
    const memory = api.memory as { buffer: ArrayBuffer };
    const scan = api.scan as RunFinder['scan'];
    const int = (name: string): number => (api[name] as () => number)();
    // The memory has a fixed size (it never grows), so these views stay valid.
    const bytes = Buffer.from(memory.buffer);
    const capacity = int('capacity');
    bytes.set(classes.subarray(0, 128), int('classesAt'));
    const at = int('recordsAt');
    const rowsAt = int('rowsAt');
    const records = new Int32Array(memory.buffer, at, (rowsAt - at) >> 2);
    const rows = new Int32Array(memory.buffer, rowsAt, (memory.buffer.byteLength - rowsAt) >> 2);
    return {
      capacity,
      load(text, a, b) {
        bytes.write(text.substring(a, b), 0, capacity * 2, 'utf16le');
      },
      scan,
      records,
      stride: int('recordSize') >> 2,
      rows,
      rowCount: api.rowCount as RunFinder['rowCount'],
      nameSlots: int('nameSlots'),
      rememberTld: api.rememberTld as RunFinder['rememberTld'],
      rememberName: api.rememberName as RunFinder['rememberName'],
    };
  } catch {
    return null;
  }
}
