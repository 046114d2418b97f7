/** A result set's rows, shared by the search runner, the result trees and the exporters. Pure: no VS Code. */
import type {
  AggregationBucket,
  Bucket,
  Cve,
  DomainRecord,
  Exploit,
  Host,
  WhoisRecord,
} from '../../api/types';

/** One row of a result set, tagged by what it is. */
export type ResultItem =
  | { t: 'host'; v: Host }
  | { t: 'domain'; v: DomainRecord }
  | { t: 'bucket'; v: Bucket }
  | { t: 'cve'; v: Cve; ip?: string }
  | { t: 'exploit'; v: Exploit; ip?: string }
  | { t: 'whois'; v: WhoisRecord }
  | { t: 'facet'; v: AggregationBucket; field: string }
  | { t: 'count'; v: number; label: string };
