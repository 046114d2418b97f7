/**
 * Entry of the details pages' script (bundled to dist/webview.js, loaded by nonce). It
 * says `ready`, then renders whatever the extension posts. Data never arrives any other
 * way; everything is rendered through DOM APIs (see dom.ts).
 */
import {
  isToWebview,
  RequestClient,
  type FromWebview,
  type PageKind,
  type RenderedCounts,
  type ToWebview,
} from '../common/protocol';
import type { PageContext } from './context';
import { clear, h } from './dom';
import { HostPage } from './hostPage';
import { WhoisPage } from './whoisPage';
import { vscode } from './vscodeApi';
import { useWords } from '../common/words';
import { l10n } from '../core/text/l10n';

const page: PageKind = document.body.dataset.page === 'whois' ? 'whois' : 'host';
const root = document.getElementById('root') as HTMLElement;

const ZERO: RenderedCounts = {
  services: 0,
  cves: 0,
  exploits: 0,
  hostnames: 0,
  domains: 0,
  contacts: 0,
  snapshots: 0,
  changes: 0,
};
let counts: RenderedCounts = { ...ZERO };

const post = (message: FromWebview): void => vscode.postMessage(message);
const context: PageContext = {
  post,
  requests: new RequestClient(post),
  rendered(partial, started) {
    counts = { ...counts, ...partial };
    // Force style and layout now, so the figure includes them (not only the DOM build).
    void root.offsetHeight;
    post({ type: 'rendered', page, counts: { ...counts }, ms: Math.max(0, performance.now() - started) });
  },
};

const hostPage = page === 'host' ? new HostPage(root, context) : undefined;
const whoisPage = page === 'whois' ? new WhoisPage(root, context) : undefined;

function status(textContent: string, cls = 'status'): void {
  clear(root);
  root.appendChild(h('p', { class: cls, role: cls === 'error' ? 'alert' : 'status' }, textContent));
}

/** A line above the page (replacing an earlier one), with a Load button when asked for. */
function showNotice(message: string, load: boolean): void {
  document.getElementById('odin-notice')?.remove();
  const note = h(
    'p',
    { class: 'status banner-note', role: 'status', id: 'odin-notice' },
    message,
    load
      ? h(
          'button',
          {
            onClick: () => {
              document.getElementById('odin-notice')?.remove();
              post({ type: 'action', action: 'refresh' });
            },
          },
          l10n.t('Load from ODIN'),
        )
      : undefined,
  );
  root.prepend(note);
  context.rendered({}, performance.now());
}

function onMessage(message: ToWebview): void {
  if (context.requests.handleReply(message)) return;
  switch (message.type) {
    case 'words':
      useWords(message.words);
      return;
    case 'loading':
      if (message.page !== page) return;
      // Only the IP or domain is kept for restoring after a reload: never data.
      vscode.setState({ id: message.id });
      counts = { ...ZERO };
      status(l10n.t('Loading {0}…', message.id));
      return;
    case 'error':
      status(`${message.id}: ${message.message}`, 'error');
      hostPage?.reset();
      whoisPage?.reset();
      context.rendered({}, performance.now());
      return;
    case 'host':
      hostPage?.showHost(message.host);
      return;
    case 'cves':
      hostPage?.showCves(message.cves, message.more, message.error);
      return;
    case 'exploits':
      hostPage?.showExploits(message.exploits, message.error);
      return;
    case 'whois':
      whoisPage?.show(message.whois);
      return;
    case 'notice':
      showNotice(message.message, message.load === true);
      return;
    default:
      return;
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  // Only the extension host posts to this frame; anything else is ignored.
  if (!isToWebview(event.data)) return;
  onMessage(event.data);
});

post({ type: 'ready', page });
