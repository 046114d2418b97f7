// Shared by the details-page UI tests.
import { frameWhere } from './helpers.mjs';

/**
 * The frame that holds a details page: VS Code puts each webview in an iframe that hosts
 * another iframe with the content. Found by what the page itself says (body[data-page] +
 * heading). Generous default: the workbench sometimes takes ~30 s to load a webview.
 * @param {import('./helpers.mjs').Ui} ui
 * @param {'host' | 'whois'} kind
 * @param {string} id
 */
export function detailsFrame(ui, kind, id, { timeout = 90_000 } = {}) {
  return frameWhere(
    ui.page,
    ([k, want]) =>
      document.body?.dataset.page === k && (document.querySelector('h1')?.textContent ?? '').includes(want),
    [kind, id],
    { timeout, what: `the ${kind} details frame for ${id}` },
  );
}

/**
 * Opens a host page (Look Up Host by IP…) or a whois page (Show Whois of a Domain…) from the
 * command palette, as a person does, and returns its frame.
 * @param {import('./helpers.mjs').Ui} ui
 * @param {'host' | 'whois'} kind
 * @param {string} id
 */
export async function openDetails(ui, kind, id) {
  await ui.runCommand(
    kind === 'host' ? 'ODIN: Look Up Host by IP\u2026' : 'ODIN: Show Whois of a Domain\u2026',
  );
  await ui.answerInput(id);
  return detailsFrame(ui, kind, id);
}
