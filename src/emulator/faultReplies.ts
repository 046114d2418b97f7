/**
 * Injected faults at the server: the active rules (injected through the admin API or
 * `Emulator.injectFault`, taken in order, each for its `count` of requests on the paths its
 * regex matches), the faults that answer instead of the endpoint (reset, hang, an error
 * status, an HTML page, an oversized body) and those that spoil the endpoint's own answer
 * (wrong types, `__proto__` keys, a wrong content type, a cut or trickled body).
 */
import type * as http from 'node:http';
import { type Fault, type FaultRule, HTML_ERROR_PAGE, breakTypes, parseFaultRule, pollute } from './faults';
import type { Reply } from './handlers/common';
import { JSON_TYPE, sendJson, sendOversized, sendReply, sendTrickle, type Timers } from './httpIo';

interface ActiveRule {
  rule: FaultRule;
  remaining: number;
  re?: RegExp;
}

export class FaultRules {
  private rules: ActiveRule[] = [];

  /** Checks and adds a rule; `count` -1 (or Infinity) is for ever, absent is once. */
  inject(rule: FaultRule): void {
    const checked = parseFaultRule(rule);
    const count =
      checked.count === undefined
        ? 1
        : checked.count === -1 || checked.count === Infinity
          ? -1
          : checked.count;
    this.rules.push({
      rule: checked,
      remaining: count,
      re: checked.path !== undefined ? new RegExp(checked.path) : undefined,
    });
  }

  /** The fault of the first rule that applies to `path`, counting it down. */
  take(path: string): Fault | undefined {
    for (const r of this.rules) {
      if (r.remaining === 0) continue;
      if (r.re && !r.re.test(path)) continue;
      if (r.remaining > 0) r.remaining--;
      return r.rule.fault;
    }
    return undefined;
  }

  /** The active rules with what is left of each. */
  list(): Array<FaultRule & { remaining: number }> {
    return this.rules.map((r) => ({ ...r.rule, remaining: r.remaining }));
  }

  clear(): void {
    this.rules = [];
  }
}

const CHALLENGE_PAGE =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><p>Checking your browser before accessing api.odin.io.</p></body></html>';

/**
 * Answers with a fault that takes the endpoint's place; false when the fault (if any) spoils
 * the answer instead. `entry.status` is the status written to the request log.
 */
export function answerWithFault(
  fault: Fault | undefined,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  entry: { status: number },
  errorBody: (message: string) => Record<string, unknown>,
  timers: Timers,
): boolean {
  switch (fault?.kind) {
    case 'reset':
      req.socket.destroy();
      return true;
    case 'hang':
      return true; // Never answer; close() destroys the socket.
    case 'status': {
      entry.status = fault.status;
      const headers: http.OutgoingHttpHeaders = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
      if (fault.html) {
        const html = HTML_ERROR_PAGE(fault.status);
        res.writeHead(fault.status, {
          'content-type': 'text/html; charset=UTF-8',
          'content-length': Buffer.byteLength(html),
          server: 'cloudflare',
          ...headers,
        });
        res.end(html);
      } else {
        sendJson(res, fault.status, errorBody(`Emulated error ${fault.status}`), headers);
      }
      return true;
    }
    case 'notJson': {
      entry.status = 200;
      res.writeHead(200, {
        'content-type': 'text/html; charset=UTF-8',
        'content-length': Buffer.byteLength(CHALLENGE_PAGE),
      });
      res.end(CHALLENGE_PAGE);
      return true;
    }
    case 'oversized':
      entry.status = 200;
      sendOversized(timers, res, fault.bytes);
      return true;
    default:
      return false;
  }
}

/** Writes the endpoint's reply, spoiled by the fault if it is one of those that spoil it. */
export function writeReply(
  reply: Reply,
  fault: Fault | undefined,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  timers: Timers,
): void {
  if (reply.text !== undefined) return sendReply(reply, req, res);
  let out = reply.body;
  if (fault?.kind === 'wrongTypes') out = breakTypes(out);
  if (fault?.kind === 'protoPollution') out = pollute(out);
  const contentType = fault?.kind === 'badContentType' ? 'text/plain; charset=utf-8' : undefined;
  if (fault?.kind === 'truncated') {
    const buf = Buffer.from(JSON.stringify(out));
    res.writeHead(reply.status, {
      'content-type': contentType ?? JSON_TYPE,
      'content-length': buf.length,
      connection: 'close',
    });
    res.write(buf.subarray(0, Math.max(1, Math.floor(buf.length / 2))), () => req.socket.destroy());
    return;
  }
  if (fault?.kind === 'trickle') {
    const buf = Buffer.from(JSON.stringify(out));
    sendTrickle(
      timers,
      res,
      reply.status,
      contentType ?? JSON_TYPE,
      buf,
      fault.bytesPerChunk,
      fault.intervalMs,
    );
    return;
  }
  sendReply({ ...reply, body: out }, req, res, contentType);
}
