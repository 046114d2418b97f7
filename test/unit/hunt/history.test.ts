/**
 * The team's exposure history: snapshot the example hunts, move the emulator to its next
 * dated state, snapshot again, and `diff` prints exactly what the emulator changed on the
 * hosts the hunts see, from snapshot folders and from git refs alike.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { BUNDLE, hunt, scratch } from './support';

const KEY = 'odin-hunt-history-key-9e2f';

function ipsOf(file: string): Set<string> {
  return new Set(
    fs
      .readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { ip: string }).ip),
  );
}

/** The diff's text as ip → its change lines. */
function blocks(text: string): Map<string, string[]> {
  const m = new Map<string, string[]>();
  let ip = '';
  for (const line of text.trimEnd().split('\n')) {
    if (!line.startsWith(' ')) m.set((ip = line.split(' ')[0]), [line]);
    else m.get(ip)?.push(line.trim());
  }
  return m;
}

void describe('odin-hunt snapshot and diff over the emulator’s dated states', () => {
  let emu: Emulator;
  before(async () => {
    assert.ok(fs.existsSync(BUNDLE), 'dist/ci/hunt.js is built by esbuild before the unit tests');
    emu = await startEmulator({ hosts: 5000, apiKey: KEY });
  });
  after(async () => {
    await emu?.close();
  });

  void it('snapshot, next state, snapshot: diff prints the exact changes (folders and git refs)', async () => {
    const dir = scratch();
    const env = { ODIN_API_KEY: KEY, ODIN_API_URL: emu.url };
    assert.deepEqual(emu.setState(0).changes, []);
    const a = await hunt(['snapshot', 'hunts', '--out', 'snap'], env, dir);
    assert.equal(a.code, 0, a.stderr);
    const first = fs.readFileSync(path.join(dir, 'snap', 'hosts.jsonl'), 'utf8');
    const again = await hunt(['snapshot', 'hunts', '--out', 'snap2'], env, dir);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(
      fs.readFileSync(path.join(dir, 'snap2', 'hosts.jsonl'), 'utf8'),
      first,
      'stable: same data, same bytes',
    );
    fs.rmSync(path.join(dir, 'snap2'), { recursive: true });
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], {
        cwd: dir,
        encoding: 'utf8',
      });
    git('init', '-q');
    git('add', 'snap');
    git('commit', '-qm', 'state 0');
    fs.cpSync(path.join(dir, 'snap'), path.join(dir, 'old'), { recursive: true });

    const next = emu.setState(1);
    assert.equal(next.state, 1);
    assert.match(next.date, /^\d{4}-\d{2}-\d{2}$/);
    const b = await hunt(['snapshot', 'hunts', '--out', 'snap'], env, dir);
    assert.equal(b.code, 0, b.stderr);
    git('commit', '-qam', 'state 1');

    const d = await hunt(['diff', 'old', 'snap'], env, dir);
    assert.equal(d.code, 0, d.stderr);
    const byRef = await hunt(['diff', 'HEAD~1', 'HEAD', '--dir', 'snap'], env, dir);
    assert.equal(byRef.code, 0, byRef.stderr);
    assert.equal(byRef.stdout, d.stdout, 'git refs read the same snapshots');

    // What the emulator changed on the hosts the hunts see, and nothing else.
    const before = ipsOf(path.join(dir, 'old', 'hosts.jsonl'));
    const after = ipsOf(path.join(dir, 'snap', 'hosts.jsonl'));
    const seen = new Set([...before, ...after]);
    const [change] = next.changes;
    const expected = new Map<string, string[]>();
    const add = (ip: string, line: string): void => {
      if (seen.has(ip)) expected.set(ip, [...(expected.get(ip) ?? []), line]);
    };
    for (const e of change.servicesOpened)
      if (after.has(e.split(' ')[0]) && before.has(e.split(' ')[0]))
        add(e.split(' ')[0], `+ port ${e.split(' ')[1]}`);
    for (const e of change.servicesClosed)
      if (after.has(e.split(' ')[0]) && before.has(e.split(' ')[0]))
        add(e.split(' ')[0], `- port ${e.split(' ')[1]}`);
    for (const e of change.cvesAdded)
      if (after.has(e.split(' ')[0]) && before.has(e.split(' ')[0]))
        add(e.split(' ')[0], `+ CVE ${e.split(' ')[1]}`);
    const got = blocks(d.stdout);
    assert.ok(got.size > 0, d.stdout);
    for (const [ip, lines] of expected) {
      const have = got.get(ip);
      assert.ok(have, `${ip} is in the diff`);
      for (const l of lines)
        assert.ok(
          have.some((h) => h.startsWith(l)),
          `${ip}: "${l}" in ${JSON.stringify(have)}`,
        );
    }
    const changedIps = new Set(
      [
        ...change.servicesOpened,
        ...change.servicesClosed,
        ...change.cvesAdded,
        ...change.hostsAdded,
        ...change.hostsRemoved,
      ].map((e) => e.split(' ')[0]),
    );
    for (const [ip, lines] of got) {
      // A host the hunts gained or lost because a port opened or closed is new or gone to them.
      assert.ok(changedIps.has(ip), `${ip} changed in the emulator: ${lines.join(' | ')}`);
    }
    // With the KEV and EPSS copies (as the editor keeps them), hosts with a new KEV CVE come
    // first, and within a host KEV, then EPSS, orders the CVEs.
    fs.mkdirSync(path.join(dir, 'feeds'));
    for (const f of ['kev.json', 'epss.csv.gz'])
      fs.writeFileSync(
        path.join(dir, 'feeds', f),
        Buffer.from(await (await fetch(`${emu.url}/feeds/${f}`)).arrayBuffer()),
      );
    const ranked = await hunt(['diff', 'old', 'snap', '--feeds', 'feeds', '--json'], env, dir);
    assert.equal(ranked.code, 0, ranked.stderr);
    const hosts = JSON.parse(ranked.stdout) as Array<{ cvesOpened: Array<{ kev?: boolean; epss?: number }> }>;
    const kevFirst = hosts.map((h) => h.cvesOpened.some((c) => c.kev));
    assert.ok(kevFirst.includes(true), 'a new KEV CVE in this change');
    assert.deepEqual(
      kevFirst,
      [...kevFirst].sort((x, y) => Number(y) - Number(x)),
      'hosts with a new KEV CVE first',
    );
    for (const h of hosts) {
      const order = h.cvesOpened.map((c) => [Number(!!c.kev), c.epss ?? -1]);
      for (let i = 1; i < order.length; i++)
        assert.ok(
          order[i - 1][0] > order[i][0] ||
            (order[i - 1][0] === order[i][0] && order[i - 1][1] >= order[i][1]),
        );
    }
    const json = await hunt(['diff', 'old', 'snap', '--json'], env, dir);
    assert.equal((JSON.parse(json.stdout) as unknown[]).length, got.size);
    emu.setState(0);
  });

  void it('a bad snapshot side is a usage error naming it', async () => {
    const dir = scratch();
    const r = await hunt(['diff', 'nowhere', '--also-bad'], {}, dir);
    assert.equal(r.code, 2);
    const s = await hunt(['diff', 'no-such-ref', 'other'], {}, dir);
    assert.equal(s.code, 2);
    assert.match(s.stderr, /no-such-ref/);
  });
});
