/**
 * The real service's shapes, end to end inside VS Code: a loopback upstream serves the
 * project's real-shaped fixture (test/fixtures/real-shape, written in the structure of a
 * captured answer of the real service), `odin.apiBaseUrl` points at it, and hovers, the
 * results tree and exports must show what the data says and nothing it does not: no tag
 * whose value is false, HTTP by status/title/server, banners of the other protocols, the
 * certificate's facts, never `ANY`; "hosts in this block" asks `POST /v1/hosts/count`.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { RunSummary, ResultNode as Node } from '../../src/extension/testApi';
import { type RealShapeUpstream, startRealShapeUpstream } from '../support/realShape';
import { getTestApi, testEnv, waitFor } from './index';
import { feature } from './results';

async function hoverText(uri: vscode.Uri, needle: string): Promise<string> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const at = doc.positionAt(doc.getText().indexOf(needle) + 1);
  let text = '';
  await waitFor(
    async () => {
      const hovers =
        (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, at)) ?? [];
      for (const h of hovers)
        for (const c of h.contents) {
          const v = typeof c === 'string' ? c : (c as { value?: unknown }).value;
          if (typeof v === 'string' && v.includes('**ODIN · ') && !/Loading|looking up/i.test(v)) text = v;
        }
      return text !== '';
    },
    30_000,
    `a hover card for ${needle}`,
  );
  // As a person reads it: Markdown escapes removed.
  return text.replace(/\\(.)/g, '$1');
}

describe('real shapes (a loopback upstream serving test/fixtures/real-shape)', function () {
  this.timeout(120_000);
  let upstream: RealShapeUpstream;
  let file: vscode.Uri;
  const cfg = () => vscode.workspace.getConfiguration('odin');

  before(async function () {
    if (!testEnv.emulatorUrl || testEnv.run === 'restricted') this.skip();
    const api = await getTestApi();
    await waitFor(() => api.key.has(), 10_000, 'the API key');
    upstream = await startRealShapeUpstream();
    await cfg().update('apiBaseUrl', upstream.url, vscode.ConfigurationTarget.Global);
    await waitFor(
      () => api.connection.baseUrl().startsWith(upstream.url),
      10_000,
      'the client on the upstream',
    );
    api.lookups().cache.clear();
    api.lookups().resume();
    const folder = vscode.workspace.workspaceFolders![0].uri;
    file = vscode.Uri.joinPath(folder, 'real-shape.log');
    fs.writeFileSync(
      file.fsPath,
      'edge 93.184.215.14 ok\nmail 192.0.43.10 ok\nroot 199.7.83.42 ok\nblock 93.184.215.0/24 ok\n',
    );
  });

  after(async () => {
    if (!upstream) return;
    await cfg().update('apiBaseUrl', testEnv.emulatorUrl, vscode.ConfigurationTarget.Global);
    (await getTestApi()).lookups().cache.clear();
    fs.rmSync(file.fsPath, { force: true });
    await upstream.close();
  });

  it('hovers: no false tags; HTTP status, title, server; banners; certificate facts; never ANY', async () => {
    const web = await hoverText(file, '93.184.215.14');
    assert.doesNotMatch(web, /Anonymous Proxy|Satellite Provider|\bANY\b/);
    assert.ok(web.includes('80/tcp http nginx — 200 "Shapes Test Portal" (nginx)'), web);
    assert.ok(web.includes('**Certificate:** www.example-shapes.test (issuer Example Issuing CA 7'), web);
    const mail = await hoverText(file, '192.0.43.10');
    assert.ok(mail.includes('**Tags:** **Anonymous Proxy**'), mail);
    assert.doesNotMatch(mail, /Satellite/);
    assert.ok(mail.includes('SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5'), mail);
    assert.ok(mail.includes('ESMTP Postfix'), mail);
    assert.ok(mail.includes('self-signed'), mail);
  });

  it('"hosts in this block" asks POST /v1/hosts/count', async () => {
    const card = await hoverText(file, '93.184.215.0/24');
    assert.ok(card.includes('**Known hosts in this block:** 1'), card);
    assert.ok(upstream.paths.includes('POST /v1/hosts/count'), upstream.paths.join(', '));
    assert.ok(!upstream.paths.includes('POST /v1/hosts/search'), 'no search for a count');
  });

  it('results tree: HTTP, banner and certificate nodes; tags only when true', async () => {
    const f = await feature();
    const r = (await vscode.commands.executeCommand('odin.searchHosts', { query: '*' })) as RunSummary;
    assert.strictEqual(r.status, 'ready', r.error);
    const root = f.results.getChildren().find((n) => n.type === 'set' && n.set.id === r.setId)!;
    const hostNodes = f.results.getChildren(root).filter((n) => n.type === 'item');
    assert.strictEqual(hostNodes.length, 3);
    const texts = (n: Node): string[] =>
      f.results.getChildren(n).map((c) => {
        const item = f.results.getTreeItem(c);
        return `${String(item.label)}: ${String(item.description ?? '')}`;
      });
    const [web, mail] = hostNodes;
    assert.ok(!texts(web).some((t) => t.startsWith('Tags')), texts(web).join(' | '));
    assert.ok(texts(mail).includes('Tags: Anonymous Proxy'), texts(mail).join(' | '));
    const services = (n: Node): Node[] => f.results.getChildren(n).filter((c) => c.type === 'service');
    const [http80, https] = services(web);
    assert.ok(texts(http80).includes('HTTP: 200 "Shapes Test Portal" (nginx)'), texts(http80).join(' | '));
    assert.ok(
      texts(https).some((t) =>
        t.startsWith('Certificate: www.example-shapes.test (issuer Example Issuing CA 7'),
      ),
    );
    const ssh = services(mail).find((s) => s.type === 'service' && s.service.port === 22)!;
    assert.ok(
      texts(ssh).includes('Banner: SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5'),
      texts(ssh).join(' | '),
    );
    const all = hostNodes.flatMap((h) => [...texts(h), ...services(h).flatMap(texts)]).join('\n');
    assert.doesNotMatch(all, /\bANY\b|Satellite/);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-real-export-'));
    const csvPath = path.join(dir, 'hosts.csv');
    await vscode.commands.executeCommand('odin.exportResults', {
      setId: r.setId,
      format: 'csv',
      scope: 'loaded',
      target: 'file',
      path: csvPath,
    });
    const csv = fs.readFileSync(csvPath, 'utf8');
    assert.match(csv.split('\r\n')[0], /,tags,services,certificates$/);
    assert.ok(csv.includes('is_anonymous_proxy'));
    assert.ok(csv.includes('80 200 ""Shapes Test Portal"" (nginx)'), csv);
    assert.ok(csv.includes('22 SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5'));
    assert.doesNotMatch(csv, /\bANY\b|is_satellite_provider/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
