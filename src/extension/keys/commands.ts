import * as vscode from 'vscode';
import type { CommandsOf } from '../commands';
import { toAbortSignal } from '../shared/abort';
import type { Ctx, DemoServer } from '../ctx';
import { KeyringUnavailableError } from '../shared/secrets';
import { runCommand } from '../shared/runCommand';

/** The button, read at call time (the same words offered and compared). */
const useForSession = (): string => vscode.l10n.t('Use for This Session Only');

/** Commands that manage the API key and the embedded demo emulator. */
/** Set API Key: into the keyring, or for this session only when there is no keyring (after a yes). */
async function setApiKey(ctx: Ctx): Promise<void> {
  const key = await vscode.window.showInputBox({
    title: vscode.l10n.t('ODIN: Set API Key'),
    prompt: vscode.l10n.t(
      'Paste your ODIN API key. It is kept in the system keyring (VS Code SecretStorage), never in settings.',
    ),
    password: true,
    ignoreFocusOut: true,
    placeHolder: vscode.l10n.t('API key'),
    validateInput: (value) => {
      const v = value.trim();
      if (!v) return vscode.l10n.t('Enter a key, or press Escape to cancel.');
      if (/\s/.test(v)) return vscode.l10n.t('An API key contains no spaces.');
      if (v.length > 512) return vscode.l10n.t('That is too long to be an API key.');
      return undefined;
    },
  });
  if (key === undefined) return;
  try {
    await ctx.keys.store(key);
  } catch (err) {
    if (!(err instanceof KeyringUnavailableError)) throw err;
    ctx.log.warn(err.message);
    const session = useForSession();
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t(
        'ODIN: {0} The key cannot be stored. You can use it for this session only; it will be kept in memory until this window closes.',
        err.message,
      ),
      { modal: true },
      session,
    );
    if (choice !== session) return;
    ctx.keys.useForSession(key);
  }
  if (ctx.isDemo()) await ctx.setDemo(undefined);
  void vscode.window.showInformationMessage(vscode.l10n.t('ODIN: API key saved.'));
}

/** Test API Key: reads the credits (free) and says what the key has left. */
async function testApiKey(ctx: Ctx): Promise<void> {
  // "off" means nothing is sent, a key test included.
  // Testing the key is the user's act on the key itself: Restricted Mode does not ask.
  const run = ctx.gate.mayRun({ trigger: 'explicit', consent: 'given' });
  if ('refusal' in run) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('ODIN: {0} The key was not tested.', run.refusal.reason),
    );
    return;
  }
  if (!ctx.keys.get()) {
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('ODIN: No API key is set.'),
      vscode.l10n.t('Set API Key'),
    );
    if (choice) await runCommand('odin.setApiKey');
    return;
  }
  const usage = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('ODIN: Testing the API key…'),
      cancellable: true,
    },
    (_progress, token) => toAbortSignal(token, (signal) => ctx.readCredits({ signal })),
  );
  const parts: string[] = [];
  if (usage.hostCert?.left !== undefined)
    parts.push(vscode.l10n.t('{0} host credits left', usage.hostCert.left));
  if (usage.bucketFile?.left !== undefined)
    parts.push(vscode.l10n.t('{0} bucket/file credits left', usage.bucketFile.left));
  if (usage.expiresOn) parts.push(vscode.l10n.t('plan expires {0}', usage.expiresOn.slice(0, 10)));
  void vscode.window.showInformationMessage(
    parts.length
      ? vscode.l10n.t('ODIN: The API key works ({0}): {1}.', new URL(ctx.baseUrl()).host, parts.join(', '))
      : vscode.l10n.t('ODIN: The API key works ({0}).', new URL(ctx.baseUrl()).host),
  );
}

export function keyCommands(ctx: Ctx): CommandsOf<'keys'> {
  return {
    'odin.setApiKey': () => setApiKey(ctx),

    'odin.clearApiKey': async () => {
      await ctx.keys.clear();
      void vscode.window.showInformationMessage(
        ctx.keys.source() === 'env'
          ? vscode.l10n.t(
              'ODIN: Stored API key cleared. A key from the ODIN_API_KEY environment variable is still in use.',
            )
          : vscode.l10n.t('ODIN: API key cleared.'),
      );
    },

    'odin.testApiKey': () => testApiKey(ctx),

    'odin.useDemoData': async () => {
      if (ctx.isDemo()) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('ODIN: Already using demo data from {0}.', ctx.baseUrl()),
        );
        return;
      }
      const server = await startEmbeddedEmulator(ctx);
      await ctx.setDemo(server);
      // l10n: English, for the log
      ctx.log.info(`Demo mode: using the embedded emulator at ${server.url}`);
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'ODIN: Using demo data from the built-in emulator on this machine. Nothing leaves your machine. Run "ODIN: Stop Demo Data" to return to the real service.',
        ),
      );
    },

    'odin.stopDemoData': async () => {
      await ctx.setDemo(undefined);
    },

    'odin.showLog': () => ctx.log.show(),
  };
}

/** Loads the emulator bundle only when asked for: it is not part of what loads at activation. */
async function startEmbeddedEmulator(ctx: Ctx): Promise<DemoServer> {
  const bundle = ctx.extension.asAbsolutePath('dist/emulator.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const emulator = require(bundle) as typeof import('../../emulator/demo');
  const running = await emulator.startEmulator({ port: 0 });
  return { url: running.url, apiKey: running.apiKey, close: () => running.close() };
}
