/**
 * `{{…}}` placeholders in a query cell, replaced before the query is checked and sent:
 *
 *   {{name}}          the notebook parameter `name` (a run's `--param name=…` wins)
 *   {{cell2.hosts}}   the IP addresses cell 2 found, as `(a OR b …)` (at most 100)
 *   {{cell2.values}}  the values of cell 2's summary, as `(a OR b …)` (at most 100)
 *   {{cell2.count}}   how many rows cell 2 found
 *
 * Cells are numbered from 1 over the whole notebook, Markdown cells included, as the editor
 * shows them. Every value is written as a Lucene term (quoted where it needs it), so a value
 * cannot add operators to the query; the query after substitution then passes the one gate
 * like any typed query. Pure: no VS Code.
 */
import { quoteValue } from '../query/query';
import { l10n } from '../text/l10n';

/** What a run of a cell gives later cells. */
export interface CellFacts {
  /** Host IPs in result order (hosts cells). */
  hosts?: string[];
  /** Summary values in result order (summary cells). */
  values?: string[];
  count: number;
}

/** The most values one placeholder expands to (a query is bounded; the service caps terms too). */
export const MAX_PLACEHOLDER_VALUES = 100;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const CELL_REF = /^cell(\d{1,4})\.(hosts|values|count)$/;
const PARAM_REF = /^[A-Za-z_][\w-]{0,63}$/;

export type Substitution = { ok: true; text: string; used: string[] } | { ok: false; message: string };

/**
 * A value as one escaped term (`2001\:db8\:\:1`): inside `field:(a OR b)` the project's query
 * checker refuses quoted phrases, and an escaped term reads the same to the service and the gate.
 */
export function escapedTerm(value: string): string {
  const bare = quoteValue(value);
  if (bare === value) return value;
  if (value === '') return '""';
  // An operator word as a value: its first letter escaped makes it a term.
  if (/^(AND|OR|NOT|TO)$/.test(value)) return `\\${value}`;
  return value.replace(/[\s"'()[\]{}:^~*?\\/!+\-&|<>=]/g, (c) => `\\${c}`);
}

function orList(values: readonly string[]): string {
  const v = values.slice(0, MAX_PLACEHOLDER_VALUES).map(escapedTerm);
  return v.length === 1 ? v[0] : `(${v.join(' OR ')})`;
}

/**
 * The cell's text with every placeholder replaced, or the first one that cannot be (an unknown
 * name, a cell not yet run or of another kind, an empty list): then nothing is sent.
 */
export function substitute(
  text: string,
  params: Readonly<Record<string, string>>,
  cells: ReadonlyMap<number, CellFacts>,
): Substitution {
  let problem: string | undefined;
  const used: string[] = [];
  const out = text.replace(PLACEHOLDER, (whole, name: string) => {
    if (problem) return whole;
    const ref = CELL_REF.exec(name);
    if (ref) {
      const n = Number(ref[1]);
      const facts = cells.get(n);
      if (!facts) {
        problem = l10n.t('{0}: cell {1} has no result yet (run it first).', whole, n);
        return whole;
      }
      used.push(name);
      if (ref[2] === 'count') return String(facts.count);
      const list = ref[2] === 'hosts' ? facts.hosts : facts.values;
      if (!list?.length) {
        problem = l10n.t('{0}: cell {1} found no {2}.', whole, n, ref[2]);
        return whole;
      }
      return orList(list);
    }
    if (PARAM_REF.test(name) && Object.prototype.hasOwnProperty.call(params, name)) {
      const v = params[name];
      if (v.trim() === '') {
        problem = l10n.t('{0}: the parameter "{1}" is empty.', whole, name);
        return whole;
      }
      used.push(name);
      return quoteValue(v.trim());
    }
    problem = l10n.t('{0}: no parameter "{1}" (add it to the notebook\'s parameters).', whole, name);
    return whole;
  });
  return problem ? { ok: false, message: problem } : { ok: true, text: out, used };
}

/** The text with each placeholder replaced by `x`s of its length (what the editor checks in a cell). */
export function blankPlaceholders(text: string): string {
  return text.replace(PLACEHOLDER, (whole) => 'x'.repeat(whole.length));
}
