/**
 * The small request/reply helper of the pages (after vscode-hexeditor's shared/protocol.ts):
 * the page asks with `RequestClient.request`, the extension answers with `answerRequest`
 * (the webview kit calls it). The methods and their types come from the page's protocol
 * (`requests(...)` in `schema.ts`; the host page's are `Requests` in `protocol.ts`).
 */
import { index, literal, object, optional, text, union, type Check, type Infer } from './schema';
import { l10n } from '../core/text/l10n';

/** Method → the parameters it takes and the result it gives. */
export type RequestMap = Record<string, { params: unknown; result: unknown }>;

/** A request of one of the methods of `R`. */
export type RequestMessage<R extends RequestMap, M extends keyof R & string = keyof R & string> = {
  [K in M]: { type: 'request'; requestId: number; method: K; params: R[K]['params'] };
}[M];

/** Any result (the caller of `request` knows its type from the method). */
const anything: Check<unknown> = (v) => v;

/** The extension's answer to a request: declared once, checked by the page. */
export const replyMessage = union(
  object({ type: literal('reply'), requestId: index, ok: literal(true), result: optional(anything) }),
  object({ type: literal('reply'), requestId: index, ok: literal(false), error: text }),
);
export type ReplyMessage = Infer<typeof replyMessage>;

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
export class RequestClient<R extends RequestMap> {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly post: (message: RequestMessage<R>) => void,
    private readonly timeoutMs = 120_000,
  ) {}

  request<M extends keyof R & string>(method: M, params: R[M]['params']): Promise<R[M]['result']> {
    const requestId = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new Error(l10n.t('No answer from the extension.')));
      }, this.timeoutMs);
      this.pending.set(requestId, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.post({ type: 'request', requestId, method, params } as RequestMessage<R>);
    });
  }

  handleReply(message: { type: string; [key: string]: unknown }): boolean {
    if (message.type !== 'reply') return false;
    const reply = message as ReplyMessage;
    const p = this.pending.get(reply.requestId);
    if (!p) return true;
    this.pending.delete(reply.requestId);
    clearTimeout(p.timer);
    if (reply.ok) p.resolve(reply.result);
    else p.reject(new Error(reply.error));
    return true;
  }
}

export type RequestHandlers<R extends RequestMap> = {
  [M in keyof R]: (params: R[M]['params']) => Promise<R[M]['result']>;
};

/**
 * The extension side: runs the handler for a validated request and posts the reply
 * (errors as short text, never stack traces).
 */
export async function answerRequest<R extends RequestMap>(
  message: RequestMessage<R>,
  handlers: RequestHandlers<R>,
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
