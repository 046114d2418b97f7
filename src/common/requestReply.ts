/**
 * The small request/reply helper of the details pages (after vscode-hexeditor's
 * shared/protocol.ts): the page asks with `RequestClient.request`, the extension answers
 * with `answerRequest`. The methods and their types are `Requests` in `protocol.ts`.
 */
import type { ReplyMessage, RequestMessage, RequestMethod, Requests, ToWebview } from './protocol';

type Pending = {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
};

/**
 * The page side of request/reply: `request('banner', {...})` posts a `request` with a
 * fresh id and resolves with the matching `reply`. Feed every incoming message to
 * `handleReply`; it returns true when the message was a reply it consumed.
 */
export class RequestClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly post: (message: RequestMessage) => void,
    private readonly timeoutMs = 120_000,
  ) {}

  request<M extends RequestMethod>(method: M, params: Requests[M]['params']): Promise<Requests[M]['result']> {
    const requestId = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new Error('No answer from the extension.'));
      }, this.timeoutMs);
      this.pending.set(requestId, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.post({ type: 'request', requestId, method, params } as RequestMessage);
    });
  }

  handleReply(message: ToWebview): boolean {
    if (message.type !== 'reply') return false;
    const p = this.pending.get(message.requestId);
    if (!p) return true;
    this.pending.delete(message.requestId);
    clearTimeout(p.timer);
    if (message.ok) p.resolve(message.result);
    else p.reject(new Error(message.error));
    return true;
  }
}

export type RequestHandlers = {
  [M in RequestMethod]: (params: Requests[M]['params']) => Promise<Requests[M]['result']>;
};

/**
 * The extension side: runs the handler for a validated request and posts the reply
 * (errors as short text, never stack traces).
 */
export async function answerRequest(
  message: RequestMessage,
  handlers: RequestHandlers,
  post: (reply: ReplyMessage) => unknown,
  errorText: (err: unknown) => string = (e) => (e instanceof Error ? e.message : String(e)),
): Promise<void> {
  try {
    const handler = handlers[message.method] as (p: unknown) => Promise<unknown>;
    const result = await handler(message.params);
    await post({ type: 'reply', requestId: message.requestId, ok: true, result });
  } catch (err) {
    await post({ type: 'reply', requestId: message.requestId, ok: false, error: errorText(err) });
  }
}
