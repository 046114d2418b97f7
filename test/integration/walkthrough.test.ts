/**
 * The "Get Started with ODIN" walkthrough (package.json `contributes.walkthroughs`) in the real
 * workbench: it opens, and each step's command link runs as a person would click it (with
 * no argument), on the sample workspace's auth.log with the cursor on a public IP. A command
 * that asks something (the key's input box, the indicator list, the saved searches) is
 * answered with Escape, as a person would; each command must end without an error.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { getTestApi, waitFor, within } from './index';
import { promptMark, promptSince } from './prompts';

interface Step {
  id: string;
  description: string;
  media: { svg?: string };
}

function walkthrough(): { id: string; title: string; steps: Step[]; extensionId: string } {
  const ext = vscode.extensions.all.find((e) => e.packageJSON?.contributes?.walkthroughs);
  assert.ok(ext, 'an extension contributes the walkthrough');
  return { ...ext.packageJSON.contributes.walkthroughs[0], extensionId: ext.id };
}

/** The commands a step's description links to, in order. */
function stepCommands(step: Step): string[] {
  return [...step.description.matchAll(/\]\(command:([\w.]+)\)/g)].map((m) => m[1]);
}

/** Runs the command; closes each prompt it opens (Escape) until it ends; returns its error, if any. */
async function runAsClicked(command: string): Promise<unknown> {
  let ended = false;
  let error: unknown;
  let mark = promptMark(); // before the command: it may prompt before executeCommand returns
  const done = Promise.resolve(vscode.commands.executeCommand(command)).then(
    () => (ended = true),
    (e: unknown) => ((error = e), (ended = true)),
  );
  for (let round = 0; round < 5 && !ended; round++) {
    const prompt = await within(promptSince(mark, done), 30_000, `${command}: a prompt or its end`);
    if (!prompt) break;
    mark = promptMark();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
  }
  await within(done, 30_000, `${command} to end`);
  return error;
}

describe('walkthrough', function () {
  this.timeout(180_000);

  it('declares five steps, each with a command link and a themed SVG', () => {
    const w = walkthrough();
    assert.deepStrictEqual(
      w.steps.map((s) => s.id),
      ['key', 'hover', 'indicators', 'triage', 'hunt'],
    );
    for (const s of w.steps) {
      assert.ok(stepCommands(s).length > 0, `${s.id}: a command link`);
      assert.match(s.media.svg ?? '', /^media\/walkthrough\/\w+\.svg$/, s.id);
    }
  });

  it('opens in the workbench', async () => {
    const w = walkthrough();
    const id = `${w.extensionId}#${w.id}`;
    const before = new Set(vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label));
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', id, false);
    await waitFor(
      () => {
        const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
        return tab !== undefined && !(tab.input instanceof vscode.TabInputText) && !before.has(tab.label);
      },
      15_000,
      'the walkthrough editor as the active tab',
    );
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it("runs each step's command as a click would, on a log with the cursor on a public IP", async function () {
    // The sample workspace's logs (the Restricted Mode run opens the hostile workspace).
    if (!vscode.workspace.isTrusted) this.skip();
    const api = await getTestApi();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the sample workspace');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'logs', 'auth.log'));
    const editor = await vscode.window.showTextDocument(doc);
    const at = doc.getText().search(/\b(?:159\.89|45\.33|185\.220)\.\d+\.\d+\b/);
    assert.ok(at >= 0, 'a public IP in auth.log');
    editor.selection = new vscode.Selection(doc.positionAt(at + 1), doc.positionAt(at + 1));
    const registered = new Set(await vscode.commands.getCommands(true));
    const ran: string[] = [];
    try {
      for (const step of walkthrough().steps) {
        for (const command of stepCommands(step)) {
          assert.ok(registered.has(command), `${step.id}: ${command} is registered`);
          await vscode.window.showTextDocument(doc);
          const error = await runAsClicked(command);
          assert.strictEqual(error, undefined, `${step.id}: ${command} failed: ${String(error)}`);
          ran.push(command);
        }
      }
    } finally {
      if (api.ui.contextValue('odin.demoMode') === true)
        await vscode.commands.executeCommand('odin.stopDemoData');
    }
    assert.deepStrictEqual(ran, [
      'odin.setApiKey',
      'odin.useDemoData',
      'odin.lookup',
      'odin.listIndicators',
      'odin.triageFile',
      'odin.runSavedSearch',
    ]);
  });
});
