/**
 * Entry of the whole emulator's bundle (`dist/dev/emulator.js`, `npm run emulator`; not in the
 * .vsix, whose dist/emulator.js is demo.ts). Required as a module it only exports the
 * programmatic API; run directly it is the command line: `node dist/dev/emulator.js --port 8080
 * [--seed 1] [--hosts 5000] [--dialect spec|live] [--not-found 404|null] [--latency 0]
 * [--credits <n>]` (`--credits`: host credits left, 402 once spent).
 */
import { type EmulatorOptions, startEmulator } from './server';

export * from './server';
export * from './fixtures';

const USAGE =
  'Usage: emulator [--port <n>] [--seed <n>] [--hosts <n>] [--dialect spec|live] [--not-found 404|null] [--latency <ms>] [--credits <n>]';

/** `--help`: the usage, asked for (stdout, exit 0), not a mistake (stderr, exit 2). */
export class UsageAsked extends Error {}

/** Parses the command line; throws with a message on a bad argument, UsageAsked on `--help`. */
export function parseArgs(argv: string[]): EmulatorOptions {
  const opts: EmulatorOptions = {};
  const int = (name: string, v: string | undefined, min: number, max: number): number => {
    const n = v !== undefined && /^\d+$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`${name} needs an integer ${min}..${max}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] =
      a.startsWith('--') && a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case '--port':
        opts.port = int('--port', value(), 0, 65535);
        break;
      case '--seed':
        opts.seed = int('--seed', value(), 0, 2 ** 32 - 1);
        break;
      case '--hosts':
        opts.hosts = int('--hosts', value(), 0, 1_000_000);
        break;
      case '--latency':
        opts.latencyMs = int('--latency', value(), 0, 600_000);
        break;
      case '--credits':
        opts.credits = { host: int('--credits', value(), 0, 100_000_000) };
        break;
      case '--dialect': {
        const v = value();
        if (v !== 'spec' && v !== 'live') throw new Error('--dialect needs spec or live');
        opts.dialect = v;
        break;
      }
      case '--not-found': {
        const v = value();
        if (v !== '404' && v !== 'null') throw new Error('--not-found needs 404 or null');
        opts.notFound = v;
        break;
      }
      case '--help':
      case '-h':
        throw new UsageAsked(USAGE);
      default:
        throw new Error(`Unknown argument '${a}'\n${USAGE}`);
    }
  }
  return opts;
}

async function main(): Promise<void> {
  let opts: EmulatorOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageAsked) {
      console.log(e.message);
      return;
    }
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 2;
    return;
  }
  const started = Date.now();
  const emu = await startEmulator(opts);
  console.log(
    `ODIN API emulator listening on ${emu.url} (dialect ${emu.dialect}, ${emu.dataset.hosts.length} hosts, ${Date.now() - started} ms)`,
  );
  console.log(`Demo API key: ${emu.apiKey}`);
  console.log(`Admin: ${emu.url}/__admin/health  (log, faults, dialect)`);
  const stop = (): void => {
    void emu.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  });
}
