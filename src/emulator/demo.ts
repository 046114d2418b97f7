/**
 * Entry of the shipped emulator bundle (`dist/emulator.js`): the extension's "Try with Demo
 * Data" and `npm run demo` start it. It is the emulator's server (serve.ts) over the same
 * generated data, without what only the tests use (the admin API, injected faults, changes
 * of the data: server.ts), so a demo answers as the tests' emulator does when no fault is set.
 * `npm run emulator` runs the whole emulator (cli.ts, dist/dev/emulator.js).
 */
import type { Dataset } from './dataset';
import { type EmulatorOptions, GeneratedData, serve } from './serve';

export type { EmulatorOptions } from './serve';

/** A running demo emulator. */
export interface DemoEmulator {
  url: string;
  apiKey: string;
  readonly dataset: Dataset;
  close(): Promise<void>;
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<DemoEmulator> {
  const data = new GeneratedData(opts.seed ?? 1, opts.hosts ?? 5000);
  const running = await serve(opts, data);
  return {
    url: running.url,
    apiKey: running.s.apiKey,
    get dataset() {
      return data.dataset;
    },
    close: running.close,
  };
}
