/** The run-time checks under the message schemas (schema.ts): size cap, records, ids, indexes. */

/** Largest message the page may send (JSON characters). Its messages are ids and counts. */
export const MAX_MESSAGE_CHARS = 4096;
const MAX_ID_CHARS = 128;
const MAX_INDEX = 1_000_000;

export type Rec = Record<string, unknown>;
export const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isIndex = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < MAX_INDEX;
export const isId = (v: unknown): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= MAX_ID_CHARS && !/[\u0000-\u001f]/.test(v);
