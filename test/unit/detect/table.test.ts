/**
 * The compact table (`detectTable`) against the materialised form (`detect`): same rows, same
 * values built on demand, with kind filters, limits and on a slice of the bench's mixed log.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  detect,
  type DetectionKind,
  type DetectionTable,
  detectTable,
  formatIPv4,
} from '../../../src/core/detect';

const SAMPLE = [
  '45.33.32.156 - - [21/Nov/2025:08:10:02 +0000] "GET /index.html HTTP/1.1" 200 "https://shop.acme-logistics.com/"',
  'Failed password for root from 2001:DB8::1 port 22 ssh2; peer [fe80::1%25eth0]:8443 and fe80::2%eth1',
  '-A INPUT -s 203.0.113.0/24 -j DROP # ipv6: 2a01:4f8:1c1c::/48 and ::/0',
  'IOC: hxxps://evil123[.]com/gate.php seen from 45.1.2[.]3 and bad-site(dot)com, C2 2001[:]db8::7 and EVIL[DOT]ORG',
  'mail to admin@Example.COM, api.example.com:8443, 10.0.0.1-10.0.0.9, ::ffff:192.0.2.1',
].join('\n');

void describe('detectTable', () => {
  void it('holds the same detections as detect(), values built on demand', () => {
    for (const mode of ['code', 'text'] as const) {
      const table = detectTable(SAMPLE, { mode });
      const list = detect(SAMPLE, { mode });
      assert.ok(list.length >= 18, String(list.length));
      assert.equal(table.length, list.length);
      assert.deepEqual(table.toArray(), list);
      for (let i = 0; i < table.length; i++) {
        assert.equal(table.kind(i), list[i].kind);
        assert.equal(table.start(i), list[i].start);
        assert.equal(table.end(i), list[i].end);
        assert.equal(table.defanged(i), list[i].defanged);
        assert.equal(table.port(i), list[i].port);
      }
    }
  });

  void it('honours kind filters and limits like detect()', () => {
    const kinds: DetectionKind[][] = [['ipv4'], ['ipv6', 'cidr'], ['domain']];
    for (const k of kinds)
      assert.deepEqual(detectTable(SAMPLE, { kinds: k }).toArray(), detect(SAMPLE, { kinds: k }));
    for (const limit of [0, 1, 5]) {
      assert.deepEqual(detectTable(SAMPLE, { limit }).toArray(), detect(SAMPLE, { limit }));
    }
  });

  void it('honours kind filters and limits on a text large enough for the trigger search', () => {
    let big = SAMPLE;
    while (big.length < 200_000) big += `\n${big}`;
    const all = detect(big);
    assert.ok(all.length > 5000, String(all.length));
    for (const k of [['ipv4'], ['ipv6', 'cidr'], ['domain']] as DetectionKind[][]) {
      const want = all.filter((d) => k.includes(d.kind));
      assert.deepEqual(detectTable(big, { kinds: k }).toArray(), want, k.join());
      assert.deepEqual(detect(big, { kinds: k }), want, k.join());
    }
    for (const limit of [0, 1, 5, 1000, all.length - 1]) {
      assert.deepEqual(detectTable(big, { limit }).toArray(), all.slice(0, limit), String(limit));
    }
  });

  void it('agrees with detect() on generated lines of every bench log type', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const ip = () => `${[45, 10, 192, 172, 8][rnd(5)]}.${rnd(256)}.${rnd(256)}.${rnd(256)}`;
    const hex = () => rnd(65536).toString(16);
    const lines: string[] = [];
    for (let k = 0; k < 4000; k++) {
      lines.push(
        [
          `${ip()} - - [21/Nov/2025:08:10:02 +0000] "GET /wp-login.php HTTP/1.1" 404 1 "https://cdn.jsdelivr.net/" "Mozilla/5.0 Chrome/120.0.0.0"`,
          `Nov 21 03:12:01 bastion sshd[2345]: Failed password for invalid user admin from ${ip()} port ${rnd(65536)} ssh2`,
          `2 123456789012 eni-0a1b2c3d4e5f67890 ${ip()} ${ip()} ${rnd(65535)} 443 6 12 4410 1732172400 1732172460 ACCEPT OK`,
          `kernel: [812345.112233] [UFW BLOCK] IN=eth0 MAC=02:42:ac:11:00:02:02:42:ac:11:00:01:08:00 SRC=${ip()} DST=${ip()}`,
          `{"ts":"2025-11-21T08:30:01.120Z","client_ip":"${ip()}","host":"mail.contoso.co.uk","path":"/static/app.css"}`,
          `{"server":"2a01:4f8:${hex()}:${hex()}::${hex()}","alt":"fe80::${hex()}%eth0","query":"db.corp.internal"}`,
          `-A INPUT -s ${ip()}/${rnd(40)} -p tcp -j DROP # ipv6: 2a01:4f8:${hex()}::/48`,
          `IOC: hxxps://c2${rnd(999)}[.]ru/gate.php seen from ${ip().replace(/\.(\d+)$/, '[.]$1')} and phish-site(dot)com`,
        ][k % 8],
      );
    }
    const text = lines.join('\n');
    for (const mode of ['code', 'text'] as const) {
      const table = detectTable(text, { mode });
      assert.deepEqual(table.toArray(), detect(text, { mode }));
      assertKeys(table);
    }
  });

  void it("keeps the scanner's key of a row: a dotted quad's number, a host name's value", () => {
    // listIndicators finds an entry by these instead of the raw text: they must be the value's.
    for (const mode of ['code', 'text'] as const) {
      const table = detectTable(SAMPLE, { mode });
      const keyed = assertKeys(table);
      // A plain quad and a range; plain, upper-case, defanged and mailbox names.
      assert.ok(keyed.addresses >= 3 && keyed.names >= 5, JSON.stringify(keyed));
    }
  });
});

/** Every address(i) and name(i) of `table` is its row's value; returns how many rows had one. */
function assertKeys(table: DetectionTable): { addresses: number; names: number } {
  let addresses = 0;
  let names = 0;
  for (let i = 0; i < table.length; i++) {
    const d = table.get(i);
    const address = table.address(i);
    const name = table.name(i);
    if (address >= 0) {
      addresses++;
      assert.equal(d.kind, 'ipv4');
      assert.equal(formatIPv4(address), d.value);
    }
    if (name !== undefined) {
      names++;
      assert.equal(d.kind, 'domain');
      assert.equal(name, d.value);
    }
    // A plain quad always has its number (the list's fast path), a name always its value.
    if (d.kind === 'ipv4' && !d.defanged) assert.ok(address >= 0, d.raw);
    if (d.kind === 'domain') assert.ok(name !== undefined, d.raw);
  }
  return { addresses, names };
}
