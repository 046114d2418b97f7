/** Small helpers shared by the emulator tests: plain fetch against a real emulator. */
import { type Emulator, type EmulatorOptions, startEmulator } from '../../../src/emulator/server';

export interface Res {
  status: number;
  headers: Headers;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function call(
  emu: Emulator,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  opts: { key?: string | null; headers?: Record<string, string>; raw?: string } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? emu.apiKey : opts.key;
  if (key !== null) headers['X-API-Key'] = key;
  if (body !== undefined || opts.raw !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(emu.url + path, {
    method,
    headers,
    body: opts.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export const post = (
  emu: Emulator,
  path: string,
  body: unknown,
  opts?: Parameters<typeof call>[4],
): Promise<Res> => call(emu, 'POST', path, body, opts);
export const get = (emu: Emulator, path: string, opts?: Parameters<typeof call>[4]): Promise<Res> =>
  call(emu, 'GET', path, undefined, opts);

export function small(opts: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ hosts: 50, ...opts });
}
