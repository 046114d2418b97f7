// The triage's counts say one thing in the singular and more in the plural: the view's
// headline, the preview's parts and the STIX report's description never read
// "1 unique indicators" (each form a message of its own, so a translation can differ).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PrivacyPolicy } from '../../../src/core/privacy';
import {
  buildTriage,
  domainCount,
  fileCount,
  indicatorCount,
  occurrenceCount,
  report,
  requestCount,
  triageHeadline,
  uniqueIndicatorCount,
} from '../../../src/core/triage';

const policy = new PrivacyPolicy();

void describe('triage counts', () => {
  it('a count of 1 is singular, a count of 2 or 0 plural', () => {
    assert.equal(uniqueIndicatorCount(1), '1 unique indicator');
    assert.equal(uniqueIndicatorCount(2), '2 unique indicators');
    assert.equal(uniqueIndicatorCount(0), '0 unique indicators');
    assert.equal(indicatorCount(1), '1 indicator');
    assert.equal(indicatorCount(7), '7 indicators');
    assert.equal(occurrenceCount(1), '1 occurrence');
    assert.equal(occurrenceCount(3), '3 occurrences');
    assert.equal(domainCount(1), '1 domain');
    assert.equal(domainCount(2), '2 domains');
    assert.equal(fileCount(1), '1 file');
    assert.equal(fileCount(4), '4 files');
    assert.equal(requestCount(1), '1 request');
    assert.equal(requestCount(5), '5 requests');
  });

  it("the view's headline of one indicator seen once, and of several", () => {
    assert.equal(
      triageHeadline(1, 'app.log', 1, false, '1 of 1 enriched'),
      '1 unique indicator in app.log (1 occurrence). 1 of 1 enriched.',
    );
    assert.equal(
      triageHeadline(3, '2 files', 5, true, '3 of 3 enriched'),
      '3 unique indicators in 2 files (5 occurrences, more than listed). 3 of 3 enriched.',
    );
  });

  it("the STIX report's description of one indicator in one file, and of more in more", async () => {
    const description = async (texts: string[]): Promise<string> => {
      const t = await buildTriage(
        texts.map((text, i) => ({ uri: `file:///logs/${i}.log`, text })),
        (kind, value) => policy.check({ kind, value }),
      );
      const bundle = JSON.parse(report(t, 'stix')) as {
        objects: Array<{ type: string; description?: string }>;
      };
      return bundle.objects.find((o) => o.type === 'report')?.description ?? '';
    };
    assert.match(await description(['seen 185.220.101.34']), /^1 unique indicator in 1 file; /);
    assert.match(
      await description(['seen 185.220.101.34 and 45.33.32.156', 'seen 8.8.8.8']),
      /^3 unique indicators in 2 files; /,
    );
  });
});
