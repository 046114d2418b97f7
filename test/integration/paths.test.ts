/**
 * A security finding: the export and import commands take a `path` argument (a keybinding, a
 * task or launch input, another extension). A path outside the folders of a trusted
 * workspace is read or written only after a modal that names the file; declined, nothing
 * is read or written. (The modal's answer is given through the TestApi, which records what
 * the modal was asked to show: the extension host cannot click a modal.)
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { RunSummary } from '../../src/extension/testApi';
import { getTestApi, testEnv } from './index';

const tmpFile = (name: string): string =>
  path.join(os.tmpdir(), `odin-paths-${process.pid}-${Date.now()}-${name}`);

describe('paths from command arguments', function () {
  this.timeout(60_000);
  let answers: (string | undefined)[] = [];
  let harnessAnswer: ((message: string, detail: string) => string | undefined) | undefined;

  beforeEach(async () => {
    const api = await getTestApi();
    api.ui.pathPrompts.shown.length = 0;
    answers = [];
    harnessAnswer = api.ui.pathPrompts.answer;
    api.ui.pathPrompts.answer = () => answers.shift();
  });
  afterEach(async () => {
    (await getTestApi()).ui.pathPrompts.answer = harnessAnswer;
  });

  it('Export Saved Searches to a file outside the workspace: asks, naming the file; "no" writes nothing', async () => {
    const api = await getTestApi();
    const file = tmpFile('declined.json');
    answers = [undefined];
    const r = await vscode.commands.executeCommand('odin.exportSavedSearches', { path: file });
    assert.strictEqual(r, undefined);
    assert.strictEqual(api.ui.pathPrompts.shown.length, 1, 'one modal');
    assert.match(api.ui.pathPrompts.shown[0].message, /write .*declined\.json\?/);
    assert.ok(api.ui.pathPrompts.shown[0].detail.includes(file), api.ui.pathPrompts.shown[0].detail);
    assert.ok(!fs.existsSync(file), 'nothing written');
  });

  it('… and "Write File" writes it', async () => {
    const file = tmpFile('accepted.json');
    answers = ['Write File'];
    try {
      const r = await vscode.commands.executeCommand<{ path: string }>('odin.exportSavedSearches', {
        path: file,
      });
      assert.strictEqual(r?.path, file);
      assert.ok(fs.existsSync(file));
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('Import Saved Searches from a file outside the workspace: asks; "no" reads nothing', async () => {
    const api = await getTestApi();
    const file = tmpFile('import.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ version: 1, searches: [{ name: 'x', spec: { kind: 'hosts', query: '*' } }] }),
    );
    try {
      answers = [undefined];
      const r = await vscode.commands.executeCommand('odin.importSavedSearches', { path: file, quiet: true });
      assert.strictEqual(r, undefined, 'nothing imported');
      assert.strictEqual(api.ui.pathPrompts.shown.length, 1);
      assert.match(api.ui.pathPrompts.shown[0].message, /read .*import\.json\?/);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('a path inside a folder of a trusted workspace is used as given; a ".." out of it is asked about', async function () {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!vscode.workspace.isTrusted || folder?.scheme !== 'file') this.skip();
    const api = await getTestApi();
    const inside = path.join(folder.fsPath, `odin-paths-${process.pid}.json`);
    try {
      const r = await vscode.commands.executeCommand<{ path: string }>('odin.exportSavedSearches', {
        path: inside,
      });
      assert.strictEqual(r?.path, inside);
      assert.strictEqual(api.ui.pathPrompts.shown.length, 0, 'no modal inside the workspace');
    } finally {
      fs.rmSync(inside, { force: true });
    }
    const escaping = path.join(folder.fsPath, '..', `odin-paths-${process.pid}-escape.json`);
    answers = [undefined];
    await vscode.commands.executeCommand('odin.exportSavedSearches', { path: escaping });
    assert.strictEqual(api.ui.pathPrompts.shown.length, 1, 'a modal for the path out of the folder');
    assert.ok(!fs.existsSync(path.resolve(escaping)));
  });

  it('in Restricted Mode even a path inside the workspace is asked about', async function () {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (vscode.workspace.isTrusted || folder?.scheme !== 'file') this.skip();
    const api = await getTestApi();
    const inside = path.join(folder.fsPath, `odin-paths-${process.pid}.json`);
    answers = [undefined];
    await vscode.commands.executeCommand('odin.exportSavedSearches', { path: inside });
    assert.strictEqual(api.ui.pathPrompts.shown.length, 1);
    assert.ok(!fs.existsSync(inside));
  });

  it('Export Results to a file outside the workspace: asks; "no" writes nothing', async function () {
    if (!testEnv.emulatorUrl || testEnv.run === 'restricted') this.skip();
    const api = await getTestApi();
    const s = (await vscode.commands.executeCommand('odin.searchHosts', {
      query: '*',
      pageSize: 5,
    })) as RunSummary;
    assert.strictEqual(s.status, 'ready', s.error);
    const file = tmpFile('results.csv');
    answers = [undefined];
    const r = await vscode.commands.executeCommand('odin.exportResults', {
      setId: s.setId,
      format: 'csv',
      scope: 'loaded',
      target: 'file',
      path: file,
    });
    assert.strictEqual(r, undefined);
    assert.strictEqual(api.ui.pathPrompts.shown.length, 1);
    assert.ok(api.ui.pathPrompts.shown[0].detail.includes(file));
    assert.ok(!fs.existsSync(file), 'nothing written');
  });
});
