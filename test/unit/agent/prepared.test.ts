/**
 * What a tool shows in chat before it runs (src/extension/agent/prepared.ts), in a German
 * VS Code: the progress line and the confirmation name the tool by its German display name
 * (package.nls.de.json, as VS Code localizes the manifest), never src/agent's English title.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AGENT_TOOLS, ConfirmedCalls } from '../../../src/agent';
import { english, useTranslator } from '../../../src/core/text/l10n';
import { preparedText, toolDisplayNames } from '../../../src/extension/agent/prepared';
import { resolveNls } from '../../support/manifest';
import { SAMPLE_CALLS, toolContext } from './support';

const ROOT = join(__dirname, '..', '..', '..', '..');
const json = (file: string): Record<string, string> =>
  JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, string>;
/** The manifest as VS Code hands it to the extension in a German display language. */
const GERMAN_MANIFEST = resolveNls(json('package.json'), json('package.nls.de.json'));
const ENGLISH_MANIFEST = resolveNls(json('package.json'), json('package.nls.json'));
const GERMAN_WORDS = json('l10n/bundle.l10n.de.json');
/** vscode.l10n.t with the German bundle. */
const german = (m: string, ...a: Array<string | number | boolean>): string =>
  english(GERMAN_WORDS[m] ?? m, ...a);

/** A context that sends nothing (preparing never does; the triage only scans its text). */
const tools = toolContext('http://127.0.0.1:9', 'key');

async function prepared(manifest: unknown, name: string, input: unknown) {
  const tool = AGENT_TOOLS.find((t) => t.name === name)!;
  const shown = toolDisplayNames(manifest).get(name);
  assert.ok(shown, `${name}: no display name in the manifest`);
  return preparedText(tool, shown, input, tools, new ConfirmedCalls());
}

void describe('agent tools in chat: the words before a call', () => {
  after(() => useTranslator(english));

  void it('name every tool by its German display name in a German VS Code, never the English title', async () => {
    useTranslator(german);
    const de = json('package.nls.de.json');
    for (const t of AGENT_TOOLS) {
      const name = de[`tool.${t.name}.displayName`];
      assert.ok(name && name !== t.title, `${t.name}: package.nls.de.json has no German name`);
      const p = await prepared(GERMAN_MANIFEST, t.name, SAMPLE_CALLS[t.name]);
      assert.ok(p.invocation.startsWith(name), `${t.name}: ${p.invocation}`);
      assert.ok(!p.invocation.includes(t.title), `${t.name}: English title in ${p.invocation}`);
      // The feeds tool says its download (the public feeds), never "nothing is sent".
      if (t.local)
        assert.equal(
          p.invocation,
          t.annotations.openWorldHint
            ? `${name} (keine ODIN-Anfrage; die öffentlichen KEV- und EPSS-Feeds werden vielleicht zuerst heruntergeladen)`
            : `${name} (lokal, es wird nichts gesendet)`,
        );
      else assert.equal(p.confirm?.title, name, t.name);
    }
    const refused = await prepared(GERMAN_MANIFEST, 'odin_lookup_host', { ip: '10.0.0.1' });
    assert.deepEqual(refused, { invocation: 'ODIN: Host nachschlagen: abgelehnt, es wird nichts gesendet' });
    const nothing = await prepared(GERMAN_MANIFEST, 'odin_triage', { text: 'only 10.0.0.7 here' });
    assert.equal(nothing.confirm, undefined);
    assert.ok(nothing.invocation.startsWith('ODIN: Triage einer Datei: '), nothing.invocation);
  });

  void it('name them by the English display name, the same as the shared title, in English', async () => {
    useTranslator(english);
    for (const t of AGENT_TOOLS) {
      const p = await prepared(ENGLISH_MANIFEST, t.name, SAMPLE_CALLS[t.name]);
      const local = t.annotations.openWorldHint
        ? `${t.title} (no ODIN request; the public KEV and EPSS feeds may be downloaded first)`
        : `${t.title} (local, nothing is sent)`;
      assert.equal(p.invocation, t.local ? local : t.title, t.name);
    }
  });

  void it('read only resolved display names from the manifest', () => {
    const names = toolDisplayNames({
      contributes: {
        languageModelTools: [
          { name: 'a', displayName: 'Shown' },
          { name: 'b', displayName: '%tool.b.displayName%' },
          { name: 'c' },
          { displayName: 'No name' },
        ],
      },
    });
    assert.deepEqual([...names], [['a', 'Shown']]);
    assert.equal(toolDisplayNames(undefined).size, 0);
    assert.equal(toolDisplayNames({ contributes: { languageModelTools: 'x' } }).size, 0);
  });
});
