// The shared corpus: the extension's diagnostics (built on the `lucene` package) and the
// emulator's own parser accept and reject the same queries, at the same position.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { parseLucene } from '../../../src/core/hunts';
import { parseQuery } from '../../../src/emulator/query';

interface Corpus {
  accepted: string[];
  rejected: Array<{ query: string; at: number }>;
}
export const CORPUS_PATH = path.resolve(__dirname, '../../../../test/fixtures/hunts/query-corpus.json');
const corpus = JSON.parse(fs.readFileSync(CORPUS_PATH, 'utf8')) as Corpus;

function emulatorPosition(query: string): number | 'ok' {
  try {
    parseQuery(query);
    return 'ok';
  } catch (err) {
    const m = /at position (\d+)/.exec((err as Error).message);
    assert.ok(m, `emulator error without a position: ${(err as Error).message}`);
    return Number(m[1]);
  }
}

test('corpus: both sides accept every accepted query', () => {
  assert.ok(corpus.accepted.length >= 20);
  for (const q of corpus.accepted) {
    assert.equal(
      parseLucene(q).error,
      undefined,
      `extension rejects ${JSON.stringify(q)}: ${parseLucene(q).error?.message}`,
    );
    assert.equal(emulatorPosition(q), 'ok', `emulator rejects ${JSON.stringify(q)}`);
  }
});

test('corpus: both sides reject every rejected query at the recorded position', () => {
  assert.ok(corpus.rejected.length >= 12);
  for (const { query, at } of corpus.rejected) {
    const ext = parseLucene(query).error;
    assert.ok(ext, `extension accepts ${JSON.stringify(query)}`);
    assert.equal(ext.start, at, `extension position for ${JSON.stringify(query)} (${ext.message})`);
    assert.equal(emulatorPosition(query), at, `emulator position for ${JSON.stringify(query)}`);
  }
});
