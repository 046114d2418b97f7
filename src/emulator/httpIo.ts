/**
 * The emulator's HTTP plumbing: request bodies read under a 1 MB cap, JSON replies, and the
 * slow answers of the faults (an oversized body pumped until the client gives up, a body
 * trickled in small pieces).
 */
import type * as http from 'node:http';
import type { Reply } from './handlers/common';

/** The server's timers (cleared on close) and whether it is closing. */
export interface Timers {
  later(ms: number, fn: () => void): void;
  readonly closing: boolean;
}

const MAX_BODY = 1024 * 1024;

export class BodyTooLarge extends Error {}

export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new BodyTooLarge());
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Writes an endpoint's reply: its text, or its body as JSON; the head alone for HEAD. */
export function sendReply(
  reply: Reply,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  jsonType = JSON_TYPE,
): void {
  const text = reply.text ?? JSON.stringify(reply.body);
  const type = reply.text !== undefined ? (reply.contentType ?? 'text/plain; charset=utf-8') : jsonType;
  res.writeHead(reply.status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(req.method === 'HEAD' ? undefined : text);
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendOversized(timers: Timers, res: http.ServerResponse, bytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  const head = '{"success":true,"message":"","data":[';
  const item = JSON.stringify('x'.repeat(1000));
  const chunk = Array.from({ length: 64 }, () => item).join(',');
  let sent = 0;
  let first = true;
  const pump = (): void => {
    if (res.destroyed || timers.closing) return;
    if (first) {
      res.write(head);
      sent += head.length;
    }
    while (sent < bytes) {
      const piece = (first ? '' : ',') + chunk;
      first = false;
      sent += piece.length;
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end(']}');
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
}

export function sendTrickle(
  timers: Timers,
  res: http.ServerResponse,
  status: number,
  contentType: string,
  buf: Buffer,
  size: number,
  interval: number,
): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': buf.length });
  let off = 0;
  const step = (): void => {
    if (res.destroyed || timers.closing) return;
    const piece = buf.subarray(off, off + size);
    off += piece.length;
    if (off >= buf.length) res.end(piece);
    else {
      res.write(piece);
      timers.later(interval, step);
    }
  };
  step();
}
