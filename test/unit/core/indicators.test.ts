import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detect } from '../../../src/core/detect';
import { type IndicatorSummary, listIndicators } from '../../../src/core/detect/indicators';

const REPORT = [
  'Mail from acme-logistics[.]com led to secure-login-paypa1[.]com; the panel is on 193.42.33[.]7.',
  'Scanning from 185.220.101[.]34, then again from 185.220.101.34 and 185.220.101(.)34.',
  'Payload: hxxp://159.89.214[.]31/drop/a.bin and https://SECURE-LOGIN-PAYPA1.com/verify',
  'Internal: 10.0.22.114, 10.0.0.5; IPv6 2001:DB8::1 and 2001:db8:0:0::1; block 203.0.113.0/24.',
].join('\n');

void describe('listIndicators', () => {
  void it('merges occurrences by refanged, canonical value, most frequent first', async () => {
    const { items, total, truncated } = await listIndicators(REPORT, { mode: 'text' });
    assert.equal(truncated, false);
    assert.equal(total, detect(REPORT, { mode: 'text' }).length);
    const byValue = new Map(items.map((i) => [i.value, i]));
    const tor = byValue.get('185.220.101.34');
    assert.ok(tor);
    assert.equal(tor.count, 3);
    assert.equal(tor.defanged, true);
    assert.equal(REPORT.slice(tor.first, tor.first + tor.firstLength), '185.220.101[.]34');
    assert.equal(byValue.get('secure-login-paypa1.com')?.count, 2);
    assert.equal(byValue.get('2001:db8::1')?.count, 2);
    assert.equal(byValue.get('203.0.113.0/24')?.kind, 'cidr');
    assert.equal(byValue.get('10.0.0.5')?.defanged, false);
    // Most frequent first; ties in order of first occurrence.
    assert.equal(items[0].value, '185.220.101.34');
    for (let k = 1; k < items.length; k++) {
      const [p, q] = [items[k - 1], items[k]];
      assert.ok(p.count > q.count || (p.count === q.count && p.first < q.first));
    }
    assert.equal(
      items.reduce((n, i) => n + i.count, 0),
      total,
    );
  });

  void it('gives the same answer in small chunks as in one (cut at line ends)', async () => {
    const big = Array.from({ length: 300 }, (_, k) => `${REPORT} ${k % 7}.1.2.${k % 5}`).join('\n');
    const whole = await listIndicators(big, { mode: 'text', chunkChars: big.length });
    let progress = 0;
    const chunked = await listIndicators(big, {
      mode: 'text',
      chunkChars: 700,
      onProgress: (done) => (progress = done),
    });
    assert.deepEqual(chunked, whole);
    assert.equal(progress, big.length);
  });

  void it('agrees with the detections grouped by value on a generated log (addresses by number)', async () => {
    // Thousands of distinct addresses (the number table grows), across the whole uint32 range,
    // written plain, defanged, with ports and as blocks, beside names: every hit counted once.
    let seed = 7;
    const next = (m: number): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % m;
    const quad = (): string =>
      next(9) === 0
        ? ['0.0.0.0', '255.255.255.255', '128.0.0.1'][next(3)]
        : `${next(256)}.${next(256)}.${next(256)}.${next(256)}`;
    const lines: string[] = [];
    for (let k = 0; k < 6000; k++) {
      const ip = quad();
      const forms = [
        `conn from ${ip} ok`,
        `seen ${ip.replace(/\./g, '[.]')} again`,
        `url hxxp://${ip}/x`,
        `to ${ip}:8443 and ${ip}/24`,
        `host=cdn${next(50)}.example-shop.com via ${ip}`,
        // Latin-1 beyond ASCII, and (in some chunks only) letters past it: the scan reads a
        // copy of a Latin-1 chunk and the text itself otherwise, with the same answer.
        `café ${ip} déjà vu`,
        next(40) === 0 ? `bücher-login.de → ${ip} 😀` : `to ${ip}`,
      ];
      lines.push(forms[next(forms.length)]);
    }
    const log = lines.join('\n');
    const detections = detect(log, { mode: 'text' });
    for (const maxUnique of [100_000, 500]) {
      const want = new Map<string, IndicatorSummary>();
      for (const d of detections) {
        const known = want.get(d.value);
        if (known) {
          known.count++;
          known.defanged ||= d.defanged;
        } else if (want.size < maxUnique) {
          want.set(d.value, {
            value: d.value,
            kind: d.kind,
            count: 1,
            first: d.start,
            firstLength: d.end - d.start,
            defanged: d.defanged,
          });
        }
      }
      const items = [...want.values()].sort((x, y) => y.count - x.count || x.first - y.first);
      const got = await listIndicators(log, { mode: 'text', chunkChars: 4096, maxUnique });
      assert.deepEqual(got, {
        items,
        total: detections.length,
        truncated: want.size < new Set(detections.map((d) => d.value)).size,
      });
    }
  });

  void it('stops when cancelled, and caps the number of unique values', async () => {
    const big = Array.from({ length: 5000 }, (_, k) => `from 45.${k >> 8}.${k & 255}.7`).join('\n');
    const controller = new AbortController();
    const pending = listIndicators(big, {
      chunkChars: 1000,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await assert.rejects(pending, { name: 'AbortError' });
    const capped = await listIndicators(big, { maxUnique: 100 });
    assert.equal(capped.items.length, 100);
    assert.equal(capped.truncated, true);
    assert.equal(capped.total, 5000);
  });
});
