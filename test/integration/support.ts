/**
 * What several host suites share: the user-level settings they change, the ODIN hover card at
 * a position, and the set-up of suites that look up a lot against the emulator.
 */
import * as vscode from 'vscode';
import { emulatorLog, getTestApi, testEnv, waitFor } from './index';

/** Sets the user-level setting `odin.<key>` (`undefined` removes it). */
export async function setUser(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('odin').update(key, value, vscode.ConfigurationTarget.Global);
}

/** The ODIN hover card at `position`, or undefined when the hover shows none. */
export async function odinHoverOnce(uri: vscode.Uri, position: vscode.Position): Promise<string | undefined> {
  const hovers =
    (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position)) ??
    [];
  for (const h of hovers) {
    for (const c of h.contents) {
      const value = typeof c === 'string' ? c : (c as { value?: unknown }).value;
      if (typeof value === 'string' && value.includes('**ODIN · ')) return value;
    }
  }
  return undefined;
}

/**
 * As odinHoverOnce; while the card says the lookup has not answered, hovers again once the
 * emulator has answered every request it received (its log has no entry without a status), at
 * most 10 times.
 */
export async function odinHover(uri: vscode.Uri, position: vscode.Position): Promise<string | undefined> {
  for (let i = 0; ; i++) {
    const card = await odinHoverOnce(uri, position);
    if (!card || !/has not answered yet/.test(card) || i >= 10) return card;
    if (testEnv.emulatorUrl)
      await waitFor(
        async () => (await emulatorLog()).every((e) => (e as { status?: unknown }).status !== 0),
        15_000,
        'the emulator to answer the lookup',
      );
  }
}

/**
 * For a suite that looks up many values against the emulator (call inside its `describe`):
 * skips it without the emulator; before it, waits for the key, lifts the rate limit, empties
 * the lookup cache and resumes paused lookups; after it, restores the rate limit and the
 * lookups mode.
 */
export function lookUpFreely(): void {
  before(async function () {
    if (!testEnv.emulatorUrl) this.skip();
    const api = await getTestApi();
    await waitFor(() => api.key.has(), 10_000, 'the API key');
    await setUser('rateLimit.requestsPerMinute', 100_000);
    api.lookups().cache.clear();
    api.lookups().resume();
  });
  after(async () => {
    if (!testEnv.emulatorUrl) return;
    await setUser('rateLimit.requestsPerMinute', undefined);
    await setUser('lookups.mode', undefined);
  });
}
