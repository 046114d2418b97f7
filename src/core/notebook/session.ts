/**
 * The request parts of a notebook run outside VS Code (the hunt runner, tests): the shared
 * session of a run outside VS Code (`core/requests/session.ts`: one client, cache, limiter,
 * request layer, ledger and gate), seen as a `NotebookSession`. The key is read from the
 * caller's function, never stored here. Pure: no VS Code.
 */
import type { GateSettings } from '../gate';
import type { OdinClient } from '../../api/client';
import type { RequestLayer } from '../requests/layer';
import { createSession, type Session } from '../requests/session';
import { readCredits } from '../search/run';
import type { NotebookSession } from './execute';

export interface HeadlessSessionOptions {
  baseUrl: string;
  apiKey: () => string | undefined;
  /** The gate's settings; default: sending on command, trusted (running the file is the act). */
  gate?: GateSettings;
  /** The session budget in credits (`ODIN_SESSION_BUDGET`); undefined: none. */
  budget?: number;
  log?: (level: string, message: string) => void;
}

/** A notebook's view of a session: its request path, gate, origin and the credits left. */
export function notebookSession(session: Session): NotebookSession {
  return {
    env: session,
    // Running the file is the user's act: no Restricted Mode consent outside VS Code.
    gate: () => ({ gate: session.current().gate, consented: true }),
    baseUrl: () => session.origin,
    credits: async (signal) => (await readCredits(session, { signal })).hostCert?.left,
  };
}

export function headlessSession(
  opts: HeadlessSessionOptions,
): NotebookSession & { requests: RequestLayer; client: OdinClient; session: Session } {
  const session = createSession({
    baseUrl: opts.baseUrl,
    apiKey: opts.apiKey,
    userAgent: 'odin-notebook',
    ...(opts.gate ? { gate: opts.gate } : {}),
    ...(opts.budget !== undefined ? { budget: opts.budget } : {}),
    limits: { perMinute: 600, maxConcurrent: 4 },
    ...(opts.log ? { log: opts.log } : {}),
  });
  return { ...notebookSession(session), session, requests: session.requests, client: session.client() };
}
