/**
 * A run reads hundreds of pages of up to a few MB each and keeps only small findings from
 * them. V8 grows its heap to the garbage rate rather than to what is kept, so a long run's
 * memory would follow the pages read, not the findings. A full collection after each page
 * keeps the process near what it holds (docs/benchmarks.md: peak memory within 150 MB for
 * 50 hunts over 5,000 hosts). `gc` is reached without a command-line flag (the executable
 * takes none): V8's flag, set at run time, and the function from a fresh context.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/** Frees what the last page left behind. */
export function afterPage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}
