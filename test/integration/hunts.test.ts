/**
 * Hunts as code inside the real VS Code host: a `.odinq` file and a Markdown ```odinq fence
 * get diagnostics (with quick fixes), completion, hover and CodeLens through VS Code's own
 * provider commands; a query runs from the file into the Results view; an API rejection
 * (400) becomes a diagnostic on the query; a second run after a seeded data change says
 * what is new. In Restricted Mode the file is checked but never run, and nothing is sent.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { HuntRunSummary } from '../../src/extension/testApi';
import { clearEmulatorLog, emulatorAdmin, emulatorLog, getTestApi, testEnv, waitFor } from './index';
import { feature } from './results';
import { setUser } from './support';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/hunts');

function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return folder.uri.fsPath;
}

/** Writes `text` into the workspace as `name` and opens it in an editor. */
async function openFile(name: string, text: string): Promise<vscode.TextDocument> {
  const file = path.join(workspaceDir(), 'hunts-it', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  const doc = await vscode.workspace.openTextDocument(file);
  await vscode.window.showTextDocument(doc);
  return doc;
}

const diagnosticsOf = (doc: vscode.TextDocument) => vscode.languages.getDiagnostics(doc.uri);

async function lenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
  return (
    (await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      doc.uri,
      100,
    )) ?? []
  );
}

const titles = (ls: vscode.CodeLens[]): string[] => ls.map((l) => l.command?.title ?? '');

function offsetOf(doc: vscode.TextDocument, needle: string, plus = 0): vscode.Position {
  const i = doc.getText().indexOf(needle);
  assert.ok(i >= 0, `${needle} is in the document`);
  return doc.positionAt(i + plus);
}

describe('hunts: .odinq files and ```odinq fences', function () {
  this.timeout(120_000);
  const restricted = testEnv.run === 'restricted';

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(path.join(workspaceDir(), 'hunts-it'), { recursive: true, force: true });
  });

  it('a .odinq file is the odinq language and gets diagnostics with quick fixes', async () => {
    const doc = await openFile('broken.odinq', fs.readFileSync(path.join(FIXTURES, 'broken.odinq'), 'utf8'));
    assert.strictEqual(doc.languageId, 'odinq');
    const diags = (await waitFor(
      (): vscode.Diagnostic[] | undefined => {
        const d = diagnosticsOf(doc);
        const ready =
          d.some((x) => x.code === 'unclosedQuote') &&
          (restricted || d.some((x) => x.code === 'unknownField'));
        return ready ? d : undefined;
      },
      15_000,
      'diagnostics on broken.odinq',
    )) as vscode.Diagnostic[];
    const codes = new Set(diags.map((d) => String(d.code)));
    for (const c of [
      'unknownKind',
      'noName',
      'badOption',
      'noHeader',
      'unclosedQuote',
      'danglingOperator',
      'emptyQuery',
    ])
      assert.ok(codes.has(c), `diagnostic ${c} in ${[...codes].join(', ')}`);
    assert.ok(diags.every((d) => d.source === 'ODIN'));

    const quote = diags.find((d) => d.code === 'unclosedQuote')!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      quote.range,
    );
    const close = actions.find((a) => a.title === 'Close the quote');
    assert.ok(close?.edit, `quick fixes: ${actions.map((a) => a.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(close.edit));
    assert.match(doc.getText(), /services\.modules\.http\.title:"Index of \/"/);
    if (!restricted) {
      // The live catalogue arrived: the misspelt field is flagged with the nearest name as fix.
      const unknown = diags.find((d) => d.code === 'unknownField')!;
      assert.match(unknown.message, /Did you mean "services\.port"/);
    }
    await waitFor(() => !diagnosticsOf(doc).some((d) => d.code === 'unclosedQuote'), 5000, 'the fixed quote');
  });

  it('completes kinds, field names and values, and explains fields on hover', async () => {
    const doc = await openFile('complete.odinq', '@hosts Edit me\nservices.p\n@buckets B\nprovider: a\n');
    const fields = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      offsetOf(doc, 'services.p', 'services.p'.length),
    );
    const labels = fields.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes('services.port:'), labels.slice(0, 20).join(', '));
    const values = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      offsetOf(doc, 'provider: a', 'provider: a'.length),
    );
    assert.ok(values.items.some((i) => i.label === 'aws'));
    const kinds = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      new vscode.Position(0, 1),
    );
    assert.ok(kinds.items.some((i) => i.label === 'domains'));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      offsetOf(doc, 'provider', 2),
    );
    const text = hovers
      .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)))
      .join('\n');
    assert.match(text, /Cloud provider/);
  });

  it('CodeLens above each query: Run · Summarize by… · Save (hosts), Count (files); in Restricted Mode only a notice', async () => {
    const doc = await openFile('team.odinq', fs.readFileSync(path.join(FIXTURES, 'team.odinq'), 'utf8'));
    const ls = (await waitFor(
      async () => {
        const l = await lenses(doc);
        return l.length > 0 && l;
      },
      10_000,
      'CodeLens',
    )) as vscode.CodeLens[];
    if (restricted) {
      assert.ok(
        titles(ls).every((t) => /Restricted Mode/.test(t)),
        titles(ls).join(' | '),
      );
      assert.strictEqual(ls.length, 7, 'one notice per query');
      return;
    }
    const first = ls.filter((l) => l.range.start.line === 1);
    assert.deepStrictEqual(titles(first), ['$(play) Run', '$(graph) Summarize by\u2026', '$(save) Save']);
    const files = ls.filter((l) => l.range.start.line === offsetOf(doc, '@files').line);
    assert.deepStrictEqual(titles(files), [
      '$(symbol-number) Count',
      '$(graph) Summarize by\u2026',
      '$(save) Save',
    ]);
    assert.deepStrictEqual(first[0].command?.arguments, [doc.uri.toString(), 0]);
  });

  it('the same CodeLens and diagnostics on ```odinq fences in Markdown', async () => {
    const md = [
      '# Incident 42',
      '',
      'Hosts that exposed RDP:',
      '',
      '```odinq',
      'services.port:3389 AND location.country_code:NL',
      '```',
      '',
      '```odinq',
      '@buckets Leaks  sort=files',
      'provider: aws AND',
      '```',
      '',
    ].join('\n');
    const doc = await openFile('incident.md', md);
    assert.strictEqual(doc.languageId, 'markdown');
    const ls = (await waitFor(
      async () => {
        const l = await lenses(doc);
        return l.length >= 2 && l;
      },
      10_000,
      'CodeLens in Markdown',
    )) as vscode.CodeLens[];
    assert.ok(
      ls.some((l) => l.range.start.line === 4),
      'a lens on the first fence',
    );
    assert.ok(
      ls.some((l) => l.range.start.line === 9),
      'a lens on the header inside the second fence',
    );
    const dangling = await waitFor(
      () => diagnosticsOf(doc).find((d) => d.code === 'danglingOperator'),
      10_000,
      'a diagnostic in the fence',
    );
    assert.strictEqual(dangling!.range.start.line, 10);
    if (restricted) return;
    const r = (await vscode.commands.executeCommand('odin.runHunt', doc.uri.toString(), 0)) as HuntRunSummary;
    assert.strictEqual(r.status, 'ready', r.error);
    assert.ok((r.count ?? 0) > 0);
  });

  it('in Restricted Mode a query is never run', async function () {
    if (!restricted) this.skip();
    const doc = await openFile('run.odinq', '@hosts X\nservices.port:22\n');
    const r = (await vscode.commands.executeCommand('odin.runHunt', doc.uri.toString(), 0)) as HuntRunSummary;
    assert.strictEqual(r.status, 'blocked');
  });

  describe('running (trusted)', () => {
    before(function () {
      if (restricted || !testEnv.emulatorUrl) this.skip();
    });
    afterEach(() => emulatorAdmin('DELETE', 'change'));

    it('Run from a file fills the Results view; Count and Summarize too; a 400 becomes a diagnostic', async () => {
      const doc = await openFile('team.odinq', fs.readFileSync(path.join(FIXTURES, 'team.odinq'), 'utf8'));
      const run = (await vscode.commands.executeCommand(
        'odin.runHunt',
        doc.uri.toString(),
        4,
      )) as HuntRunSummary;
      assert.strictEqual(run.status, 'ready', run.error);
      const count = (await vscode.commands.executeCommand(
        'odin.countHunt',
        doc.uri.toString(),
        5,
      )) as HuntRunSummary;
      assert.strictEqual(count.status, 'ready', count.error);
      assert.strictEqual(count.count, 1, 'one count node');
      const sum = (await vscode.commands.executeCommand(
        'odin.summarizeHunt',
        doc.uri.toString(),
        0,
        'asn.number',
      )) as HuntRunSummary;
      assert.strictEqual(sum.status, 'ready', sum.error);

      // Lucene accepts 520 clauses; the service refuses more than 512, with a position.
      const many = Array.from({ length: 520 }, (_, i) => `ip:${i + 1}`).join(' OR\n  ');
      const big = await openFile('big.odinq', `@hosts Too many ports\n${many}\n`);
      const rejected = (await vscode.commands.executeCommand(
        'odin.runHunt',
        big.uri.toString(),
        0,
      )) as HuntRunSummary;
      assert.strictEqual(rejected.status, 'error');
      assert.strictEqual(rejected.errorKind, 'badRequest');
      const d = await waitFor(
        () => diagnosticsOf(big).find((x) => x.code === 'apiRejected'),
        5000,
        'the API rejection as a diagnostic',
      );
      assert.match(d!.message, /ODIN rejected the query/);
      assert.ok(d!.range.start.line > 500, `placed at the reported position (line ${d!.range.start.line})`);
    });

    it("a query's size= may lower the page size, never raise it over odin.search.pageSize", async () => {
      await setUser('search.pageSize', 10);
      try {
        const doc = await openFile('size.odinq', '@hosts Big  size=100\n*\n\n@hosts Small  size=5\n*\n');
        const pageSize = async (index: number): Promise<number | undefined> => {
          const r = (await vscode.commands.executeCommand(
            'odin.runHunt',
            doc.uri.toString(),
            index,
          )) as HuntRunSummary;
          assert.strictEqual(r.status, 'ready', r.error);
          return (await feature()).results.get(r.setId!)?.pageSize;
        };
        assert.strictEqual(await pageSize(0), 10, "size=100 does not raise the user's 10");
        assert.strictEqual(await pageSize(1), 5, 'size=5 lowers it');
      } finally {
        await setUser('search.pageSize', undefined);
      }
    });

    it('in onCommand mode, opening a hunt file fetches no field catalogue: nothing uses the key without an act of the user', async () => {
      const requests = (await getTestApi()).lookups();
      // A catalogue asked for is a catalogue fetched (none is cached): the emulator sees it.
      const catalogues = async (): Promise<unknown[]> =>
        (await emulatorLog()).filter((e) => String((e as { path?: unknown }).path).includes('/fields/'));
      await setUser('lookups.mode', 'onCommand');
      try {
        // Nothing cached: a catalogue fetch, if any, would start while the file is checked.
        for (const kind of ['hosts', 'buckets', 'files']) requests.forget('fields', kind);
        // A connection change drops the catalogues already loaded and checks open files again.
        await setUser('requestTimeoutSeconds', 31);
        await clearEmulatorLog();
        const doc = await openFile(
          'oncommand.odinq',
          '@hosts A\nservices.port:"443\n\n@buckets B\nprovider:aws\n\n@files C\next:"sql\n',
        );
        // The checks ran (their diagnostics are there): a fetch would have been asked for by now.
        await waitFor(
          () => diagnosticsOf(doc).filter((d) => d.code === 'unclosedQuote').length === 2,
          15_000,
          'the file checked',
        );
        assert.deepStrictEqual(await catalogues(), [], 'no field catalogue asked for');
        // With hovers on, the same check fetches them (the test would see a fetch).
        await setUser('lookups.mode', undefined);
        const edit = new vscode.WorkspaceEdit();
        edit.insert(doc.uri, new vscode.Position(0, 0), '# again\n');
        await vscode.workspace.applyEdit(edit);
        await waitFor(
          async () => (await catalogues()).length > 0,
          15_000,
          'a catalogue fetch in onHover mode',
        );
      } finally {
        await setUser('lookups.mode', undefined);
        await setUser('requestTimeoutSeconds', undefined);
      }
    });

    it('a second run after a seeded data change says what is new and what is gone', async () => {
      const doc = await openFile('whatsnew.odinq', '@hosts Everything, newest first  size=100\n*\n');
      const first = (await vscode.commands.executeCommand(
        'odin.runHunt',
        doc.uri.toString(),
        0,
      )) as HuntRunSummary;
      assert.strictEqual(first.status, 'ready', first.error);
      const same = (await vscode.commands.executeCommand(
        'odin.runHunt',
        doc.uri.toString(),
        0,
      )) as HuntRunSummary;
      assert.match(same.change ?? '', /^no change since /);
      await emulatorAdmin('POST', 'change', { seed: 3 });
      const second = (await vscode.commands.executeCommand(
        'odin.runHunt',
        doc.uri.toString(),
        0,
      )) as HuntRunSummary;
      assert.strictEqual(second.status, 'ready', second.error);
      assert.ok((second.added ?? 0) > 0, `added ${second.added}`);
      assert.match(second.change ?? '', /^\+\d+ new(, \u2212\d+ gone)? since \d+ \w{3}/);
    });
  });
});
