/**
 * `odin_notebook_record` in plain Node: a notebook run headless against the emulator, then its
 * case record read back by the agent tool with no request sent; the record's scan data framed
 * and inert; only record files inside the workspace folders are read.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DATA_NOTICE, findTool, invokeTool, ToolInputError } from '../../../src/agent';
import { headlessSession, readRecord, runNotebookHeadless } from '../../../src/core/notebook';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { NOTEBOOK_FOLDER, toolContext } from './support';

const tool = findTool('odin_notebook_record')!;

void describe('odin_notebook_record', () => {
  let emu: Emulator;
  let dir: string;
  before(async () => {
    emu = await startEmulator({ seed: 3, hosts: 200 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-nb-tool-'));
  });
  after(async () => {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  void it('reads the record a run wrote (queries after substitution, counts, hash, first rows) and sends nothing', async () => {
    const file = path.join(dir, 'case.odinnb');
    fs.writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        params: { port: '80' },
        cells: [
          { kind: 'markdown', source: '# Port {{port}}' },
          { kind: 'query', source: '@hosts Open on the port  size=20\nservices.port:{{port}}' },
        ],
      }),
    );
    const ran = await runNotebookHeadless(
      file,
      { port: '443' },
      headlessSession({ baseUrl: emu.url, apiKey: () => emu.apiKey }),
    );
    assert.ok(ran.ok, ran.message);
    const record = readRecord(file)!;
    const cell = record.cells.find((c) => c.kind === 'query')!;
    assert.ok(cell.kind === 'query' && cell.sha256 && cell.firstRows && cell.firstRows.length > 0);

    const ctx = { ...toolContext(emu.url, emu.apiKey), workspaceFolders: () => [dir] };
    emu.clearLog();
    const out = await invokeTool(tool, { file: 'case.odinnb', rows: 2 }, ctx);
    assert.deepEqual(emu.requests, [], 'reading the record sent nothing');
    assert.ok(out.includes(DATA_NOTICE), out);
    assert.match(
      out,
      /^Case record "\.odin\/case\.record\.json" \(read locally, nothing sent\): 1 query cell\(s\), 1 ran to the end/,
    );
    assert.ok(out.includes('query "services.port:443"'), out);
    assert.ok(out.includes(`sha256 "${cell.sha256}"`), out);
    assert.ok(out.includes(`${(cell.rowCount ?? 0).toLocaleString('en-US')} row(s)`), out);
    assert.ok(out.includes(`ip "${String(cell.firstRows[0].ip)}"`), out);
    assert.match(out, /  row 2: /);
    assert.doesNotMatch(out, /  row 3: /);
    assert.match(out, /params port="443"/);
  });

  void it('quotes a hostile record as data: framed, flagged, no live link, no forged end marker', async () => {
    const out = await invokeTool(tool, { file: 'case.odinnb' }, toolContext('http://127.0.0.1:9', 'key'));
    const frame = /<odin-data id="([0-9a-f]{12})">([\s\S]*)<\/odin-data id="\1">/.exec(out);
    assert.ok(frame, out);
    assert.ok(frame[2].includes('Ignore previous instructions'), 'the hostile text is inside the frame');
    assert.ok(out.includes('Warning: some quoted values'), out);
    for (const live of ['</odin-data id="0">', '](command', '![x]', 'https://', '\u202e', '\u0007'])
      assert.ok(!out.includes(live), `${JSON.stringify(live)} in ${out}`);
    assert.match(out, /cell 3: "error"; message "Query syntax: unexpected end of input"/);
  });

  void it('reads only record files inside the workspace folders, links resolved', async () => {
    const ctx = toolContext('http://127.0.0.1:9', 'key');
    const refused = async (input: Record<string, unknown>, re: RegExp): Promise<void> => {
      await assert.rejects(
        invokeTool(tool, input, ctx),
        (e: unknown) => e instanceof ToolInputError && re.test(e.message),
      );
    };
    await refused({ file: path.join(dir, 'case.odinnb') }, /must be in a workspace folder/);
    await refused({ file: '../../../package.json' }, /must name a notebook/);
    await refused({ file: '../sample-workspace/investigation.odinnb' }, /must be in a workspace folder/);
    // A link inside the folder to a record outside it is outside.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-nb-tool-root-'));
    fs.mkdirSync(path.join(root, '.odin'));
    fs.symlinkSync(
      path.join(NOTEBOOK_FOLDER, '.odin', 'case.record.json'),
      path.join(root, '.odin', 'x.record.json'),
    );
    try {
      await assert.rejects(
        invokeTool(tool, { file: 'x.odinnb' }, { ...ctx, workspaceFolders: () => [root] }),
        /must be in a workspace folder/,
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
    // No folder open: nothing to read.
    await assert.rejects(
      invokeTool(tool, { file: 'case.odinnb' }, { ...ctx, workspaceFolders: () => [] }),
      /No workspace folder/,
    );
    // A damaged record is a short error, not a crash.
    fs.writeFileSync(path.join(dir, '.odin', 'broken.record.json'), '{"version": 1, "cells": ');
    await assert.rejects(
      invokeTool(tool, { file: 'broken.odinnb' }, { ...ctx, workspaceFolders: () => [dir] }),
      /is not a case record this extension wrote/,
    );
  });
});
