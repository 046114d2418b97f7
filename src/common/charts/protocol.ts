/**
 * The chart page's view model and messages (a summary's buckets as a bar chart with a table
 * beside it), compiled by both the extension and the page. Nothing here imports `vscode` or
 * the DOM. The extension posts the bars; the page answers with a bar's bucket index (the id
 * of a value in one generation of the chart), never the value, a URL or a command.
 */
import type { ChartBar } from './bars';
import type { TimeUnit } from './timeHistogram';
import { withSaves } from '../exportProtocol';
import { index, literal, message, ms, object, text, trusted, union, type Infer } from '../schema';
import { wordsMessage } from '../words';

export type { ChartBar };

export interface ChartView {
  /** "Hosts by services.port": our words and the field name. */
  title: string;
  /** The summarised query (user text). */
  query: string;
  field: string;
  bars: ChartBar[];
  /** Everything counted (buckets + other). */
  total: number;
  /** Whether a bar narrows the search (false: the set is gone). */
  narrowable: boolean;
  /** The service's notes (counts may be off by ...). */
  notes: string[];
  /** Set when the summary is over a time field: the bars are bins of this unit, oldest first (timeHistogram.ts). */
  histogram?: TimeUnit;
}

/** What the extension posts to the chart page. */
export const toChart = union(
  object({ type: literal('chart'), generation: index, chart: trusted<ChartView>() }),
  object({ type: literal('empty'), message: text }),
  wordsMessage,
);
export type ToChart = Infer<typeof toChart>;

export function isToChart(raw: unknown): raw is ToChart {
  return toChart(raw) !== undefined;
}

const smallMessages = message(
  union(
    object({ type: literal('ready') }),
    /** First render of a generation: bars drawn, ms in the page. */
    object({ type: literal('rendered'), generation: index, bars: index, ms }),
    /** A bar was clicked (or Enter on it): narrow the search by that bucket's value. */
    object({ type: literal('narrow'), generation: index, bucket: index }),
  ),
);

/**
 * What the chart page sends: ids and counts within the kit's size cap, and the larger
 * messages, the SVG or PNG to save, each capped by its own size (exportProtocol.ts).
 */
export const fromChart = withSaves(smallMessages);
export type FromChart = Infer<typeof fromChart>;
