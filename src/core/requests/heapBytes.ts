/**
 * What a value parsed from JSON holds on V8's heap, estimated from above: the lookup cache's
 * byte bound counts this, not the value's JSON length (two entries of "56 MiB" by their JSON
 * held 376 MiB: every small object, array and number costs more than its text). The sizes are
 * V8's on 64-bit Node without pointer compression, rounded up; `test/unit/core/heapBytes.test.ts`
 * measures real heap growth against the estimate for the answers the cache holds.
 *
 * Pure Node: no `vscode` import.
 */

/** Object header (map, properties, elements) and a slot per property; more for dictionary mode. */
const OBJECT_BYTES = 48;
const PROPERTY_BYTES = 24;
/** JSArray header plus its elements store, and a slot per element with growth slack. */
const ARRAY_BYTES = 48;
const ELEMENT_BYTES = 10;
/** A string's header; characters count two bytes unless all of them fit in one. */
const STRING_BYTES = 24;
/** A number that is not a small integer is a boxed double. */
const NUMBER_BYTES = 16;

function stringBytes(s: string): number {
  const wide = /[^\u0000-\u00ff]/.test(s);
  return STRING_BYTES + (wide ? 2 : 1) * s.length;
}

/** Estimated heap bytes held by `value` (a tree of JSON values; shared parts counted each time). */
export function heapBytes(value: unknown): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    switch (typeof v) {
      case 'string':
        total += stringBytes(v);
        break;
      case 'number':
        total += NUMBER_BYTES;
        break;
      case 'object':
        if (v === null) break;
        if (Array.isArray(v)) {
          total += ARRAY_BYTES + ELEMENT_BYTES * v.length;
          for (const x of v as unknown[]) if (x !== null && typeof x !== 'boolean') stack.push(x);
        } else {
          const o = v as Record<string, unknown>;
          const keys = Object.keys(o);
          total += OBJECT_BYTES + PROPERTY_BYTES * keys.length;
          for (const k of keys) {
            const x = o[k];
            if (x !== null && x !== undefined && typeof x !== 'boolean') stack.push(x);
          }
        }
        break;
      default:
        break;
    }
  }
  return total;
}
