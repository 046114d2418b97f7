/**
 * One request path and one ledger: no API call is made beside the search catalogue and the
 * request layer (a scan of src/), and the session's ledger counts every request the layer
 * sends, within the session budget, against the emulator's own request log.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { OdinClient } from '../../../src/api/client';
import { OverBudgetError, RequestBudget, SessionBudgetError } from '../../../src/core/requests/budget';
import { parseBudget, SessionLedger } from '../../../src/core/requests/ledger';
import { budgetFromEnv, createSession } from '../../../src/core/requests/session';
import { readCredits, searchPages, searchVia } from '../../../src/core/search';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import { startEmulator, type Emulator } from '../../../src/emulator/server';

const ROOT = join(__dirname, '..', '..', '..', '..');
const SRC = join(ROOT, 'src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The client's endpoint methods, read from the class itself (a new endpoint is covered at once). */
const METHODS = Object.getOwnPropertyNames(OdinClient.prototype).filter((m) => {
  const d = Object.getOwnPropertyDescriptor(OdinClient.prototype, m);
  // The endpoint methods (the transport's helpers, `post` and the like, are no API call of their own).
  return typeof d?.value === 'function' && /^(get|search|count|summarize|ping)/.test(m);
});

/**
 * Where a client method may be called: the client itself (src/api), the request layer
 * (src/core/requests), the catalogue (the one call per kind), and the emulator (it serves
 * the API, it never calls it).
 */
const ALLOWED = ['src/api/', 'src/core/requests/', 'src/core/search/catalogue.ts', 'src/emulator/'];

describe('one request path', () => {
  it('no API call beside the catalogue and the request layer: a direct client call anywhere else fails', () => {
    assert.ok(METHODS.includes('getHost') && METHODS.includes('getCreditsUsage'), METHODS.join());
    const call = new RegExp(`\\.(${METHODS.join('|')})\\s*\\(`, 'g');
    const found: string[] = [];
    for (const file of tsFiles(SRC)) {
      const rel = relative(ROOT, file).split('\\').join('/');
      if (ALLOWED.some((a) => rel.startsWith(a))) continue;
      // Comments may name a method; code may not call one.
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
      for (const m of text.matchAll(call)) found.push(`${rel}: ${m[0]}`);
    }
    assert.deepEqual(found, []);
  });
});

describe('the session ledger', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: 3, hosts: 80 });
  });
  after(() => emu.close());

  const session = (budget?: number) =>
    createSession({ baseUrl: emu.url, apiKey: () => emu.apiKey, userAgent: 'ledger-test', budget });

  /** What reached the service: the emulator's log, feeds aside. */
  const served = () => emu.requests.filter((r) => !r.endpoint.startsWith('feeds.')).length;

  it('counts every request the layer sends, free ones as requests only: its sum is the request log', async () => {
    const s = session();
    emu.clearLog();
    await searchVia(s, { kind: 'host', ip: FIXTURE_HOSTS.webServer }, { automatic: false });
    await searchVia(s, { kind: 'host', ip: FIXTURE_HOSTS.webServer }, { automatic: false }); // cached
    await searchVia(s, { kind: 'whois', domain: FIXTURE_DOMAINS.corp }, { automatic: false });
    await searchVia(s, { kind: 'whoisHistory', domain: FIXTURE_DOMAINS.corp }, { automatic: false });
    await searchVia(s, { kind: 'subdomainCount', domain: FIXTURE_DOMAINS.corp }, { automatic: false });
    await searchVia(s, { kind: 'hostExploits', ip: FIXTURE_HOSTS.webServer }, { automatic: false });
    await searchVia(
      s,
      { kind: 'hostCves', ip: FIXTURE_HOSTS.webServer },
      { automatic: false, page: { cursor: 1, limit: 1 } },
    );
    const pages = searchPages(s, { kind: 'hosts', query: 'services.port:22' }, s.current);
    const first = await pages(undefined, 5, new AbortController().signal);
    if (first.next !== undefined) await pages(first.next, 5, new AbortController().signal);
    await readCredits(s);
    assert.equal(s.ledger.requests, served(), JSON.stringify(emu.requests.map((r) => r.endpoint)));
    assert.equal(s.ledger.spent, served() - 1, 'the credits check is free');
    assert.ok(s.ledger.balance && s.ledger.balance.hostLeft > 0, 'the balance noted');
    s.dispose();
  });

  it('a budget of N stops every kind of call at N: nothing past it is sent, the answer says why', async () => {
    const s = session(2);
    emu.clearLog();
    await searchVia(s, { kind: 'host', ip: FIXTURE_HOSTS.webServer }, { automatic: false });
    await searchVia(s, { kind: 'whois', domain: FIXTURE_DOMAINS.corp }, { automatic: false });
    assert.equal(served(), 2);
    await assert.rejects(
      searchVia(s, { kind: 'hostCount', query: 'services.port:443' }, { automatic: false }),
      (e: unknown) =>
        e instanceof SessionBudgetError && e instanceof OverBudgetError && /session budget/.test(e.message),
    );
    const pages = searchPages(s, { kind: 'hosts', query: 'services.port:22' }, s.current);
    await assert.rejects(pages(undefined, 5, new AbortController().signal), SessionBudgetError);
    // A cached answer costs nothing and is still served; the free credits check still reads.
    const again = await searchVia(s, { kind: 'host', ip: FIXTURE_HOSTS.webServer }, { automatic: false });
    assert.equal(again.fromCache, true);
    await readCredits(s);
    assert.equal(served(), 3);
    assert.deepEqual([s.ledger.spent, s.ledger.left, s.ledger.requests], [2, 0, 3]);
    s.dispose();
  });

  it("a confirmation's count is a ceiling nested in the session budget: the first used up refuses", async () => {
    const s = session(10);
    emu.clearLog();
    const budget = new RequestBudget(1);
    await searchVia(s, { kind: 'host', ip: FIXTURE_HOSTS.webServer }, { automatic: false, budget });
    await assert.rejects(
      searchVia(s, { kind: 'whois', domain: FIXTURE_DOMAINS.corp }, { automatic: false, budget }),
      (e: unknown) => e instanceof OverBudgetError && !(e instanceof SessionBudgetError),
    );
    assert.deepEqual([served(), s.ledger.spent, budget.spent], [1, 1, 1]);
    s.dispose();
  });

  it('reads a budget from text strictly', () => {
    assert.deepEqual(parseBudget(undefined), {});
    assert.deepEqual(parseBudget(' 3 '), { budget: 3 });
    assert.ok('error' in parseBudget('3.5'));
    assert.ok('error' in parseBudget('-1'));
    assert.ok('error' in budgetFromEnv({ ODIN_SESSION_BUDGET: 'lots' }));
    const l = new SessionLedger({ budget: 1 });
    const seen: number[] = [];
    l.onDidChange((x) => seen.push(x.spent));
    l.charge();
    assert.throws(() => l.charge(), SessionBudgetError);
    l.charge(0);
    assert.deepEqual([l.spent, l.requests, seen], [1, 2, [1, 1]]);
  });
});
