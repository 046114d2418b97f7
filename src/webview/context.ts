import type { FromWebview, RenderedCounts, RequestClient } from '../common/protocol';

/** What a page gets from main.ts: posting, request/reply, and the `rendered` report. */
export interface PageContext {
  post(message: FromWebview): void;
  requests: RequestClient;
  /** Reports what is on screen (counts) with the time since `started` (performance.now()). */
  rendered(counts: Partial<RenderedCounts>, started: number): void;
}
