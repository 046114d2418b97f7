/**
 * The hunt runner as CI runs it: dist/ci/hunt.js as a child process against the emulator on
 * 127.0.0.1, over the example hunts. Each Done-when line of the runner is a test here:
 * findings exit 1 with SARIF that validates against the official schema, fingerprints that
 * survive a moved hunt, the baseline, the budget, 402, an unreachable service, a malformed
 * hunt, and the gate (proved on the emulator's request log).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { BUNDLE, hunt, SCHEMA, scratch, type Ran } from './support';

const KEY = 'odin-hunt-test-key-5b1c7d';

interface SarifResult {
  ruleId: string;
  partialFingerprints: Record<string, string>;
  baselineState: string;
  suppressions?: unknown[];
  locations: Array<{
    physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
  }>;
}
interface SarifLog {
  runs: Array<{ automationDetails: { id: string }; results: SarifResult[] }>;
}

function readSarif(file: string): SarifLog {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as SarifLog;
}

function prints(log: SarifLog): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of log.runs.flatMap((x) => x.results))
    m.set(r.partialFingerprints['odinHuntFinding/v1'], r.locations[0].physicalLocation.region.startLine);
  return m;
}

function noKey(r: Ran, ...files: string[]): void {
  assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY), 'the key is in no output');
  for (const f of files)
    if (fs.existsSync(f)) assert.ok(!fs.readFileSync(f, 'utf8').includes(KEY), `no key in ${f}`);
}

void describe('odin-hunt run (dist/ci/hunt.js against the emulator)', () => {
  let emu: Emulator;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    assert.ok(fs.existsSync(BUNDLE), 'dist/ci/hunt.js is built by esbuild before the unit tests');
    emu = await startEmulator({ hosts: 5000, apiKey: KEY });
    env = { ODIN_API_KEY: KEY, ODIN_API_URL: emu.url };
  });
  after(async () => {
    await emu?.close();
  });

  void it('exits 1 with the example hunts’ findings; SARIF valid against the SARIF 2.1.0 schema; JUnit and JSONL per finding', async () => {
    const dir = scratch();
    const out = (f: string): string => path.join(dir, 'out', f);
    const r = await hunt(
      [
        'run',
        'hunts',
        '--sarif',
        'out/r.sarif',
        '--junit',
        'out/r.xml',
        '--jsonl',
        'out/r.jsonl',
        '--summary',
        'out/s.md',
      ],
      env,
      dir,
    );
    assert.equal(r.code, 1, r.stderr);
    noKey(r, out('r.sarif'), out('r.xml'), out('r.jsonl'), out('s.md'));
    // The official schema unchanged but for its draft-04 header: its one `id` (the root's)
    // is draft-07's `$id`, the keywords it uses mean the same in both drafts.
    const {
      id,
      $schema: _draft4,
      ...schema
    } = JSON.parse(fs.readFileSync(SCHEMA, 'utf8')) as Record<string, unknown>;
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile({ ...schema, $id: String(id) });
    const log = readSarif(out('r.sarif'));
    assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 5)));
    const results = log.runs.flatMap((x) => x.results);
    assert.ok(results.length > 50, `found ${results.length}`);
    assert.deepEqual(
      log.runs.map((x) => x.automationDetails.id),
      ['odin-hunt/hunts/exposure.odinq/', 'odin-hunt/hunts/storage.odinq/'],
      'one category per hunt file',
    );
    for (const res of results) {
      assert.equal(res.baselineState, 'new');
      assert.match(res.partialFingerprints['odinHuntFinding/v1'], /^[0-9a-f]{64}$/);
      assert.match(res.locations[0].physicalLocation.artifactLocation.uri, /^hunts\/\w+\.odinq$/);
    }
    // An RDP host is anchored on the RDP hunt's header line (line 5 of exposure.odinq).
    const rdp = results.find((x) => x.ruleId === 'odin/hosts/exposed-rdp-in-the-netherlands');
    assert.equal(rdp?.locations[0].physicalLocation.region.startLine, 5);
    const lines = fs.readFileSync(out('r.jsonl'), 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, results.length, 'one JSON line per finding');
    const xml = fs.readFileSync(out('r.xml'), 'utf8');
    const names = [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)].map(
      (m) => `${m[1]}|${m[2]}`,
    );
    assert.equal(new Set(names).size, names.length, 'every JUnit case has a unique name');
    assert.equal((xml.match(/<failure /g) ?? []).length, results.length, 'one failing case per new finding');
    assert.match(
      xml,
      /<testcase classname="hunts\/exposure.odinq.Log4Shell on web ports" name="Log4Shell on web ports"[^>]*\/>/,
    );
    assert.match(fs.readFileSync(out('s.md'), 'utf8'), /new findings/);
  });

  void it('a hunt moved three lines down keeps its fingerprints (no line in them)', async () => {
    const dir = scratch();
    const a = await hunt(['run', 'hunts', '--sarif', 'a.sarif'], env, dir);
    assert.equal(a.code, 1, a.stderr);
    const file = path.join(dir, 'hunts', 'exposure.odinq');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace('@hosts Exposed RDP', '# moved\n#\n#\n@hosts Exposed RDP'));
    const b = await hunt(['run', 'hunts', '--sarif', 'b.sarif'], env, dir);
    assert.equal(b.code, 1, b.stderr);
    const pa = prints(readSarif(path.join(dir, 'a.sarif')));
    const pb = prints(readSarif(path.join(dir, 'b.sarif')));
    assert.deepEqual([...pb.keys()].sort(), [...pa.keys()].sort());
    const moved = [...pa].filter(([fp, line]) => pb.get(fp) === line + 3);
    assert.ok(moved.length > 10, 'the moved hunt’s results are now three lines lower, same fingerprints');
  });

  void it('--update-baseline, then a re-run exits 0; an expired entry counts as new again (exit 1)', async () => {
    const dir = scratch();
    const u = await hunt(
      [
        'run',
        'hunts',
        '--baseline',
        'baseline.json',
        '--update-baseline',
        '--reason',
        'known, tracked in SEC-1',
        '--added-by',
        'ci-test',
        '--expires',
        '2099-12-31',
      ],
      env,
      dir,
    );
    assert.equal(u.code, 0, u.stderr);
    const base = JSON.parse(fs.readFileSync(path.join(dir, 'baseline.json'), 'utf8')) as {
      entries: Array<{ fingerprint: string; reason: string; expires: string; addedBy: string }>;
    };
    assert.ok(base.entries.length > 50);
    assert.deepEqual(
      { reason: base.entries[0].reason, expires: base.entries[0].expires, addedBy: base.entries[0].addedBy },
      { reason: 'known, tracked in SEC-1', expires: '2099-12-31', addedBy: 'ci-test' },
    );
    const again = await hunt(
      ['run', 'hunts', '--baseline', 'baseline.json', '--sarif', 'c.sarif', '--junit', 'c.xml'],
      env,
      dir,
    );
    assert.equal(again.code, 0, again.stderr);
    const results = readSarif(path.join(dir, 'c.sarif')).runs.flatMap((x) => x.results);
    assert.ok(results.every((x) => x.baselineState === 'unchanged' && x.suppressions?.length === 1));
    assert.doesNotMatch(fs.readFileSync(path.join(dir, 'c.xml'), 'utf8'), /<failure /);
    base.entries[0].expires = '2000-01-01';
    fs.writeFileSync(path.join(dir, 'baseline.json'), JSON.stringify({ version: 1, entries: base.entries }));
    const expired = await hunt(
      ['run', 'hunts', '--baseline', 'baseline.json', '--jsonl', 'e.jsonl'],
      env,
      dir,
    );
    assert.equal(expired.code, 1, expired.stderr);
    const fresh = fs
      .readFileSync(path.join(dir, 'e.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { state: string; fingerprint: string })
      .filter((f) => f.state !== 'baselined');
    assert.deepEqual(
      fresh.map((f) => [f.fingerprint, f.state]),
      [[base.entries[0].fingerprint, 'expired']],
    );
    const advisory = await hunt(['run', 'hunts', '--baseline', 'baseline.json', '--advisory'], env, dir);
    assert.equal(advisory.code, 0, 'advisory reports and passes');
  });

  void it('--budget 1 exits 3 having sent at most one request, and names the hunts it skipped', async () => {
    const dir = scratch();
    emu.clearLog();
    const r = await hunt(['run', 'hunts', '--budget', '1', '--summary', 's.md'], env, dir);
    assert.equal(r.code, 3, r.stderr);
    assert.ok(emu.requests.length <= 1, `${emu.requests.length} requests`);
    const summary = fs.readFileSync(path.join(dir, 's.md'), 'utf8');
    assert.match(summary, /### Not scanned/);
    assert.match(summary, /Telnet left open in Germany.*budget/);
  });

  void it("ODIN_SESSION_BUDGET is the session ledger's budget: 2 exits 3 having sent at most two requests", async () => {
    const dir = scratch();
    emu.clearLog();
    const r = await hunt(['run', 'hunts', '--summary', 's.md'], { ...env, ODIN_SESSION_BUDGET: '2' }, dir);
    assert.equal(r.code, 3, r.stderr);
    assert.ok(emu.requests.length <= 2, `${emu.requests.length} requests`);
    assert.match(fs.readFileSync(path.join(dir, 's.md'), 'utf8'), /### Not scanned/);
    const bad = await hunt(['run', 'hunts'], { ...env, ODIN_SESSION_BUDGET: 'lots' }, dir);
    assert.equal(bad.code, 2, 'a budget that is not a count is a configuration error');
  });

  void it('a 402 from the service exits 3 and the summary says what was skipped', async () => {
    const dir = scratch();
    emu.setCredits({ host: 2, bucket: 0 });
    try {
      const r = await hunt(['run', 'hunts', '--summary', 's.md', '--jsonl', 'f.jsonl'], env, dir);
      assert.equal(r.code, 3, r.stderr);
      const summary = fs.readFileSync(path.join(dir, 's.md'), 'utf8');
      assert.match(summary, /### Not scanned/);
      assert.ok(fs.existsSync(path.join(dir, 'f.jsonl')), 'what was found before the 402 is written');
    } finally {
      emu.setCredits({ host: 1_000_000, bucket: 1_000_000 });
    }
  });

  void it('an unreachable service exits 4, and still writes its outputs', async () => {
    const dir = scratch();
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const r = await hunt(
      ['run', 'hunts', '--api-url', `http://127.0.0.1:${port}`, '--sarif', 'x.sarif'],
      env,
      dir,
    );
    assert.equal(r.code, 4, r.stderr);
    assert.ok(fs.existsSync(path.join(dir, 'x.sarif')));
    noKey(r, path.join(dir, 'x.sarif'));
  });

  void it('a malformed hunt exits 2 naming its file and line, and sends nothing', async () => {
    const dir = scratch();
    fs.writeFileSync(
      path.join(dir, 'hunts', 'broken.odinq'),
      '@hosts Fine\nservices.port:22\n\n@hosts Broken\nservices.port:(22 OR\n',
    );
    emu.clearLog();
    const r = await hunt(['run', 'hunts'], env, dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /hunts\/broken\.odinq:5:\d+: /);
    assert.equal(emu.requests.length, 0);
    const bad = await hunt(['run', 'hunts', '--budget', 'lots'], env, dir);
    assert.equal(bad.code, 2);
    fs.rmSync(path.join(dir, 'hunts', 'broken.odinq'));
    const nokey = await hunt(['run', 'hunts'], { ODIN_API_URL: emu.url }, dir);
    assert.equal(nokey.code, 2);
    assert.match(nokey.stderr, /ODIN_API_KEY/);
  });

  void it('the gate: a hunt naming 10.0.0.0/8 or a denied domain sends nothing for them (the emulator’s log)', async () => {
    const dir = scratch();
    fs.writeFileSync(
      path.join(dir, 'hunts', 'inside.odinq'),
      [
        '@hosts Our private range',
        'ip:"10.0.0.0/8" AND services.port:22',
        '',
        '@hosts Our denied name',
        'hostnames.name:vpn.corp-denied.example.org',
        '',
        '@domains Denied subdomains',
        'domain: corp-denied.example.org',
        '',
      ].join('\n'),
    );
    fs.writeFileSync(
      path.join(dir, 'odin-hunt.json'),
      JSON.stringify({ version: 1, privacy: { deny: ['corp-denied.example.org'] } }),
    );
    emu.clearLog();
    const r = await hunt(['run', 'hunts', '--summary', 's.md', '--sarif', 'g.sarif'], env, dir);
    assert.equal(r.code, 3, r.stderr);
    const sent = JSON.stringify(emu.requests);
    assert.ok(emu.requests.length > 0, 'the other hunts ran');
    assert.ok(!sent.includes('10.0.0.0'), 'the private block was never sent');
    assert.ok(!sent.includes('corp-denied'), 'the denied name was never sent');
    const summary = fs.readFileSync(path.join(dir, 's.md'), 'utf8');
    assert.match(summary, /Our private range.*refused by the gate/);
    assert.match(summary, /Private-Use/);
    assert.match(summary, /Denied subdomains/);
    // A committed file may deny, never allow: an allow key is refused as configuration.
    fs.writeFileSync(
      path.join(dir, 'odin-hunt.json'),
      JSON.stringify({ privacy: { allow: ['10.0.0.0/8'] } }),
    );
    const allow = await hunt(['run', 'hunts'], env, dir);
    assert.equal(allow.code, 2);
    assert.match(allow.stderr, /odin-hunt\.json: .*unknown key "allow"/);
  });
});
