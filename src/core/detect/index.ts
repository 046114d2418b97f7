// Detection of IP addresses, CIDR blocks and host names in arbitrary text (code, logs, threat
// reports), with exact ranges into the original text. Pure TypeScript: no `vscode` import.
import { scan } from './scan';
import type { Detection, DetectOptions } from './types';

export type { Detection, DetectionKind, DetectOptions } from './types';
export { refang } from './refang';
export { canonicalIp, formatIPv4, formatIPv6, parseIPv4, parseIPv6 } from './ip';
export { MAX_RUN } from './scan';

/** All detections in `text`, in order of `start`. Linear time in `text.length`. */
export function detect(text: string, opts?: DetectOptions): Detection[] {
  return scan(text, 0, text.length, opts);
}

/**
 * Detections that overlap `[from, to)`, computed with the surrounding context (a token that
 * starts before `from` is read whole). Cost is proportional to the range plus a bounded margin,
 * so a hover can scan one line of a 5 MB minified file.
 */
export function detectInRange(text: string, from: number, to: number, opts?: DetectOptions): Detection[] {
  return scan(text, from, to, opts);
}

/**
 * The detection under the cursor at `offset` (`start <= offset < end`), or the one that ends
 * exactly at `offset` (caret just after the token).
 */
export function detectAt(text: string, offset: number, opts?: DetectOptions): Detection | undefined {
  const [hit] = scan(text, offset, offset, opts);
  if (hit || offset === 0) return hit;
  return scan(text, offset - 1, offset - 1, opts).find((d) => d.end === offset);
}
