/**
 * A tiny schema helper for webview messages: each message is declared once, as a check, and
 * both its TypeScript type (`Infer<typeof check>`) and its run-time validator come from that
 * declaration. No dependency (it runs in the pages' bundle too).
 *
 * A check returns a fresh value holding only what it validated, or `undefined`: objects
 * refuse keys they do not declare (even `__proto__`), numbers are finite, ids are short
 * printable strings, indexes are small non-negative integers.
 */
import { isId, isIndex, isRec, MAX_MESSAGE_CHARS } from './validate';

export interface Check<T> {
  (v: unknown): T | undefined;
  /** Set by `optional`: the key may be absent (or `undefined`). */
  readonly optional?: boolean;
}
export type Infer<C> = C extends Check<infer T> ? T : never;

type Shape = Record<string, Check<unknown>>;
type OptionalKeys<S extends Shape> = {
  [K in keyof S]: S[K] extends { readonly optional: true } ? K : never;
}[keyof S];
type Simplify<T> = { [K in keyof T]: T[K] } & {};
export type ObjectOf<S extends Shape> = Simplify<
  { [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> }
>;

/** A small non-negative integer: an index into the extension's own data, a count, a request id. */
export const index: Check<number> = (v) => (isIndex(v) ? v : undefined);
/** A short printable id (a CVE id, an exploit id). */
export const id: Check<string> = (v) => (isId(v) ? v : undefined);
export const bool: Check<boolean> = (v) => (typeof v === 'boolean' ? v : undefined);
/** Any string (only in what the extension posts: the page trusts its host). */
export const text: Check<string> = (v) => (typeof v === 'string' ? v : undefined);
/** A duration in ms: finite and not negative. */
export const ms: Check<number> = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;

export function literal<T extends string | boolean>(value: T): Check<T> {
  return (v) => (v === value ? value : undefined);
}

export function oneOf<T extends string>(values: readonly T[]): Check<T> {
  return (v) => (typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : undefined);
}

/** The key may be absent. */
export function optional<T>(check: Check<T>): Check<T> & { readonly optional: true } {
  const c = ((v: unknown) => check(v)) as Check<T> & { optional: true };
  return Object.assign(c, { optional: true as const });
}

/**
 * Data the extension posts (view models): the page trusts its host for their content, so
 * this checks only that it is an object or an array, and gives it its declared type.
 */
export function trusted<T extends object>(kind: 'object' | 'array' = 'object'): Check<T> {
  return (v) => ((kind === 'array' ? Array.isArray(v) : isRec(v)) ? (v as T) : undefined);
}

/** Exactly these keys (each optional one may be absent), each passing its check. */
export function object<S extends Shape>(shape: S): Check<ObjectOf<S>> {
  const keys = Object.keys(shape);
  return (v) => {
    if (!isRec(v)) return undefined;
    for (const k of Object.keys(v)) if (!keys.includes(k)) return undefined;
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const check = shape[k]!;
      const raw = v[k];
      if (raw === undefined && check.optional) continue;
      const value = check(raw);
      if (value === undefined) return undefined;
      out[k] = value;
    }
    return out as ObjectOf<S>;
  };
}

/** The first check that accepts the value (declare variants with distinct `type` literals). */
export function union<C extends Array<Check<unknown>>>(...checks: C): Check<Infer<C[number]>> {
  return (v) => {
    for (const check of checks) {
      const out = check(v);
      if (out !== undefined) return out as Infer<C[number]>;
    }
    return undefined;
  };
}

/** A further condition on what `check` accepted (e.g. two indexes that must differ). */
export function refine<T>(check: Check<T>, ok: (v: T) => boolean): Check<T> {
  return (v) => {
    const out = check(v);
    return out !== undefined && ok(out) ? out : undefined;
  };
}

/**
 * A message from a page: a record within the size cap (cycles and BigInt refused) that
 * passes `check`.
 */
export function message<T>(check: Check<T>): Check<T> {
  return (raw) => {
    if (!isRec(raw)) return undefined;
    let size: number;
    try {
      size = JSON.stringify(raw).length;
    } catch {
      return undefined; // cycles, BigInt: not something our pages send
    }
    return size > MAX_MESSAGE_CHARS ? undefined : check(raw);
  };
}

/** A request/reply method: its parameters (checked) and its result (posted by the extension). */
export interface MethodSchema<P, R> {
  params: Check<P>;
  result: Check<R>;
}
export type MethodsSchema = Record<string, MethodSchema<unknown, unknown>>;
/** The `Requests` type of a page (method → params and result), derived from its schema. */
export type RequestsOf<M extends MethodsSchema> = {
  [K in keyof M]: { params: Infer<M[K]['params']>; result: Infer<M[K]['result']> };
};

/** The `request` messages of a set of methods: `{ type: 'request', requestId, method, params }`. */
export function requests<M extends MethodsSchema>(
  methods: M,
): Check<
  {
    [K in keyof M & string]: { type: 'request'; requestId: number; method: K; params: Infer<M[K]['params']> };
  }[keyof M & string]
> {
  const variants = Object.entries(methods).map(([method, m]) =>
    object({ type: literal('request'), requestId: index, method: literal(method), params: m.params }),
  );
  return union(...variants) as never;
}
