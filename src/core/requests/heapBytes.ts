/**
 * What a value parsed from JSON holds on V8's heap, estimated from above: the lookup cache's
 * byte bound counts this, not the value's JSON length (two entries of "56 MiB" by their JSON
 * held 376 MiB: every small object, array and number costs more than its text). The sizes are
 * V8's on 64-bit Node without pointer compression (VS Code's, with it, are smaller), rounded
 * up; `test/unit/api/bounded.test.ts` measures the heap each answer shape retains against the
 * estimate, and a full cache against its bound.
 *
 * Pure Node: no `vscode` import.
 */

/** A string's header (map, hash, length) with alignment; characters count two bytes unless all fit in one. */
const STRING_BYTES = 24;
/** A number that is not a small integer is a heap number. */
const NUMBER_BYTES = 16;
/** JSArray (map, properties, elements, length); an empty one shares the empty elements store. */
const ARRAY_BYTES = 32;
/**
 * The elements store of an array built by `push`: a header and a slot for each of
 * `length + length / 2 + 17` elements, V8's growth (a one-element list holds 184 bytes).
 */
const ELEMENTS_HEADER = 16;
const SLOT_BYTES = 8;
/** A fast object: header and four in-object slots; past four, a property array with slack. */
const OBJECT_BYTES = 56;
const IN_OBJECT = 4;
const PROPERTY_ARRAY_BYTES = 80;
const PROPERTY_BYTES = 12;
/** Past this many properties an object built key by key is a hash table (dictionary mode). */
const FAST_PROPERTIES = 16;
/** A dictionary entry (key, value, details) at a load of a quarter at worst, and its header. */
const DICTIONARY_BYTES = 96;
const DICTIONARY_ENTRY_BYTES = 96;
/**
 * A hidden class (map and descriptors) for each new sequence of keys: objects of the same keys
 * in the same order share one, so it is counted once a value; a module's own keys (a header
 * named by the scanned host) are not shared with anything. The maps along one sequence share
 * one descriptor array that grows by a slot a key (V8's descriptor sharing), so each new key
 * costs a map and one descriptor, not a copy of all the descriptors before it.
 */
const MAP_BYTES = 160;
const DESCRIPTOR_BYTES = 24;

function stringBytes(s: string): number {
  const wide = /[^\u0000-\u00ff]/.test(s);
  return STRING_BYTES + (wide ? 2 : 1) * s.length;
}

function numberBytes(n: number): number {
  // Small integers live in the slot itself.
  return Number.isInteger(n) && n >= -0x80000000 && n <= 0x7fffffff ? 0 : NUMBER_BYTES;
}

function objectBytes(properties: number): number {
  if (properties > FAST_PROPERTIES) return DICTIONARY_BYTES + DICTIONARY_ENTRY_BYTES * properties;
  return properties <= IN_OBJECT ? OBJECT_BYTES : PROPERTY_ARRAY_BYTES + PROPERTY_BYTES * properties;
}

function arrayBytes(length: number): number {
  if (length === 0) return ARRAY_BYTES;
  return ARRAY_BYTES + ELEMENTS_HEADER + SLOT_BYTES * (length + Math.ceil(length / 2) + 17);
}

/** Estimated heap bytes held by `value` (a tree of JSON values; shared parts counted each time). */
export function heapBytes(value: unknown): number {
  let total = 0;
  // Key strings and key sequences (hidden classes) first met in this value.
  const keys = new Set<string>();
  const shapes = new Set<string>();
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    switch (typeof v) {
      case 'string':
        total += stringBytes(v);
        break;
      case 'number':
        total += numberBytes(v);
        break;
      case 'object':
        if (v === null) break;
        if (Array.isArray(v)) {
          total += arrayBytes(v.length);
          for (const x of v as unknown[]) if (x !== null && typeof x !== 'boolean') stack.push(x);
        } else {
          const o = v as Record<string, unknown>;
          const own = Object.keys(o);
          const fast = own.length <= FAST_PROPERTIES;
          total += objectBytes(own.length);
          // An object of a key sequence met before has its keys and every hidden class on
          // the way counted already: one lookup instead of one per key (a host's services
          // share one sequence).
          const whole = fast ? `\u0001${own.join('\u0000')}` : undefined;
          const known = whole !== undefined && shapes.has(whole);
          let shape = '';
          for (let i = 0; i < own.length; i++) {
            const k = own[i]!;
            if (!known) {
              if (!keys.has(k)) {
                keys.add(k);
                total += stringBytes(k);
              }
              if (fast) {
                shape += `${k}\u0000`;
                if (!shapes.has(shape)) {
                  shapes.add(shape);
                  total += MAP_BYTES + DESCRIPTOR_BYTES;
                }
              }
            }
            const x = o[k];
            if (x !== null && x !== undefined && typeof x !== 'boolean') stack.push(x);
          }
          if (whole !== undefined) shapes.add(whole);
        }
        break;
      default:
        break;
    }
  }
  return total;
}
