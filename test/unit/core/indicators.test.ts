import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detect } from '../../../src/core/detect';
import { listIndicators } from '../../../src/core/detect/indicators';

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
