/**
 * Shape checks of API answers: the fields whose wrong type would turn into a false
 * all-clear once normalised (`services: "none"` read as "no open ports", `is_vuln: "yes"` read
 * as "no known CVEs", a search whose `data` is not a list read as "no results").
 *
 * `normalize/` stays lenient about everything else (absent fields, `null`, extra fields):
 * this module only finds the values that are present with a type the model cannot hold, and
 * the client turns any finding into a `badResponse` error: "ODIN sent data in an unexpected
 * shape", with the field paths in the log. It is called at one point, `OdinClient.call`.
 */

export const UNEXPECTED_SHAPE_MESSAGE = 'ODIN sent data in an unexpected shape. Details are in the ODIN log.';

export interface ShapeProblem {
  /** Field path, e.g. `data[0].services`. */
  path: string;
  expected: string;
  got: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return `string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return typeof v;
}

class Checker {
  readonly problems: ShapeProblem[] = [];

  private add(path: string, expected: string, v: unknown): void {
    if (this.problems.length < 20) this.problems.push({ path, expected, got: typeName(v) });
  }

  /** Absent and null are fine everywhere: only a present value of another type is a problem. */
  private optional(
    o: Obj,
    key: string,
    path: string,
    expected: string,
    ok: (v: unknown) => boolean,
  ): unknown {
    const v = Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
    if (v === undefined || v === null) return undefined;
    if (!ok(v)) {
      this.add(`${path}.${key}`, expected, v);
      return undefined;
    }
    return v;
  }

  host(v: unknown, path: string): void {
    if (!isObj(v)) return this.add(path, 'object', v);
    const bool = (x: unknown): boolean => typeof x === 'boolean';
    const arr = (x: unknown): boolean => Array.isArray(x);
    this.optional(v, 'ip', path, 'string', (x) => typeof x === 'string');
    this.optional(v, 'is_vuln', path, 'boolean', bool);
    this.optional(v, 'is_ipv4', path, 'boolean', bool);
    this.optional(v, 'is_ipv6', path, 'boolean', bool);
    for (const key of ['banner', 'tags', 'domains', 'hostnames']) this.optional(v, key, path, 'array', arr);
    for (const key of ['asn', 'location', 'whois']) this.optional(v, key, path, 'object', isObj);
    const services = this.optional(v, 'services', path, 'array', arr) as unknown[] | undefined;
    services?.forEach((s, i) => this.service(s, `${path}.services[${i}]`));
  }

  private service(v: unknown, path: string): void {
    if (!isObj(v)) return this.add(path, 'object', v);
    // A port the model cannot read would drop the service: an open port hidden.
    const port = v.port;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
      this.add(`${path}.port`, 'integer 0-65535', port);
    }
    this.optional(v, 'cve', path, 'array or object', (x) => Array.isArray(x) || isObj(x));
  }

  envelope(body: Obj): void {
    if (Object.prototype.hasOwnProperty.call(body, 'success') && typeof body.success !== 'boolean')
      this.add('success', 'boolean', body.success);
  }

  list(data: unknown, path: string, each?: (item: unknown, path: string) => void): void {
    if (data === undefined || data === null) return;
    if (!Array.isArray(data)) return this.add(path, 'array', data);
    if (each) data.forEach((item, i) => each(item, `${path}[${i}]`));
  }

  listOrObject(data: unknown, path: string): void {
    if (data === undefined || data === null) return;
    if (!Array.isArray(data) && !isObj(data)) this.add(path, 'array or object', data);
  }
}

/** Which check an operation's `data` gets. */
export type ShapeKind = 'host' | 'hostList' | 'list' | 'listOrObject' | 'none';

/**
 * The problems of an envelope's `data` for a shape kind (empty when it has the expected
 * shape). `data` is what `envelopeData` found.
 */
export function shapeProblems(kind: ShapeKind, data: unknown): ShapeProblem[] {
  const c = new Checker();
  switch (kind) {
    case 'host': {
      const d = Array.isArray(data) && data.length === 1 ? data[0] : data;
      if (d !== undefined && d !== null && !(isObj(d) && Object.keys(d).length === 0)) c.host(d, 'data');
      break;
    }
    case 'hostList':
      c.list(data, 'data', (item, path) => c.host(item, path));
      break;
    case 'list':
      c.list(data, 'data');
      break;
    case 'listOrObject':
      c.listOrObject(data, 'data');
      break;
    case 'none':
      break;
  }
  return c.problems;
}

/**
 * The problems of the envelope itself: `success` is a boolean when present. `"false"` (a
 * string) beside data is neither a success nor a failure the client can read, so it is an
 * error, never the data read as a clean answer.
 */
export function envelopeProblems(body: Obj): ShapeProblem[] {
  const c = new Checker();
  c.envelope(body);
  return c.problems;
}

/** One line for the log: `data.services: expected array, got string "none"; …`. */
export function describeShapeProblems(problems: readonly ShapeProblem[]): string {
  return problems.map((p) => `${p.path}: expected ${p.expected}, got ${p.got}`).join('; ');
}
