/**
 * The committed configuration of unattended hunts (`odin-hunt.json` at the repository root):
 * privacy deny entries, a request budget and per-hunt caps. The runner (src/hunt) reads all of
 * it; the editor adds its deny entries to the workspace's own (a committed file may deny,
 * never allow: allow entries are the operator's, from the user settings or the runner's
 * environment). Nothing here can raise a limit set elsewhere: a budget or cap only lowers.
 *
 *   { "version": 1,
 *     "privacy": { "deny": ["corp.example.com", "198.51.100.0/24"] },
 *     "budget": 200,
 *     "perHunt": { "maxRequests": 20 },
 *     "hunts": { "Exposed RDP": { "maxRequests": 5 } } }
 *
 * Pure: no VS Code.
 */

export const RUN_CONFIG_FILE = 'odin-hunt.json';

export interface RunConfig {
  deny: string[];
  /** Requests the whole run may send (lowers `--budget`). */
  budget?: number;
  /** Requests one hunt may send, unless `hunts` names it. */
  perHunt?: number;
  /** Per hunt name: requests it may send. */
  hunts: Record<string, number>;
}

const MAX_BYTES = 256 * 1024;
const TOP_KEYS = new Set(['version', 'privacy', 'budget', 'perHunt', 'hunts', '$schema']);

// l10n: English, for the runner's CI output and the editor's log (a file a machine reads)
function count(v: unknown, where: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw new Error(`${where} must be a whole number of requests (0 or more)`);
  return v;
}

// l10n: English, for the runner's CI output and the editor's log (a file a machine reads)
function onlyKeys(o: Record<string, unknown>, keys: readonly string[], where: string): void {
  for (const k of Object.keys(o))
    if (!keys.includes(k)) throw new Error(`${where} has an unknown key "${k}" (known: ${keys.join(', ')})`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The configuration in `text`, or an Error whose message names the key at fault. An unknown
 * key is an error, not ignored: a misspelt `dney` must not leave values unprotected.
 */
// l10n: English, for the runner's CI output and the editor's log (a file a machine reads)
export function parseRunConfig(text: string): RunConfig {
  if (text.length > MAX_BYTES) throw new Error(`the file is larger than ${MAX_BYTES} bytes`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!isObject(raw)) throw new Error('the file must hold one JSON object');
  for (const k of Object.keys(raw))
    if (!TOP_KEYS.has(k)) throw new Error(`unknown key "${k}" (known: ${[...TOP_KEYS].join(', ')})`);
  if (raw.version !== undefined && raw.version !== 1) throw new Error('"version" must be 1');
  const out: RunConfig = { deny: [], hunts: {} };
  if (raw.privacy !== undefined) {
    if (!isObject(raw.privacy)) throw new Error('"privacy" must be an object');
    onlyKeys(raw.privacy, ['deny'], '"privacy"');
    const deny = raw.privacy.deny;
    if (deny !== undefined) {
      if (!Array.isArray(deny) || deny.length > 10_000 || !deny.every((d) => typeof d === 'string'))
        throw new Error('"privacy.deny" must be a list of IPs, CIDR blocks or domain names');
      out.deny = deny.map((d) => d.trim()).filter((d) => d !== '');
    }
  }
  if (raw.budget !== undefined) out.budget = count(raw.budget, '"budget"');
  if (raw.perHunt !== undefined) {
    if (!isObject(raw.perHunt)) throw new Error('"perHunt" must be an object');
    onlyKeys(raw.perHunt, ['maxRequests'], '"perHunt"');
    if (raw.perHunt.maxRequests !== undefined)
      out.perHunt = count(raw.perHunt.maxRequests, '"perHunt.maxRequests"');
  }
  if (raw.hunts !== undefined) {
    if (!isObject(raw.hunts)) throw new Error('"hunts" must be an object keyed by hunt name');
    for (const [name, v] of Object.entries(raw.hunts)) {
      if (!isObject(v)) throw new Error(`"hunts.${name}" must be an object`);
      onlyKeys(v, ['maxRequests'], `"hunts.${name}"`);
      if (v.maxRequests !== undefined) out.hunts[name] = count(v.maxRequests, `"hunts.${name}.maxRequests"`);
    }
  }
  return out;
}

/** The cap of one hunt: its own entry, else `perHunt`, else none. */
export function huntCap(config: RunConfig, name: string): number | undefined {
  return Object.hasOwn(config.hunts, name) ? config.hunts[name] : config.perHunt;
}

/** The lower of two limits, either of which may be absent (a committed file only lowers). */
export function lowerLimit(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}
