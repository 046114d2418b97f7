/** Links from scan data on the details pages: shown as text with copy and open buttons. */
import type { LinkRef } from '../common/protocol';
import type { PageContext } from './context';
import { button, h } from './dom';
import { l10n } from '../core/text/l10n';

/** A URL from scan data: text, plus copy and (confirmed) open actions carrying its id (never the URL). */
export function linkText(ctx: PageContext, url: string, link: LinkRef): HTMLElement {
  return h(
    'span',
    { class: 'link-text' },
    h('span', { class: 'url' }, url),
    button(l10n.t('Copy link'), 'copy', () => ctx.post({ type: 'copyLink', link }), { iconOnly: true }),
    button(
      l10n.t('Open in browser (asks first)'),
      'link-external',
      () => ctx.post({ type: 'openLink', link }),
      {
        iconOnly: true,
      },
    ),
  );
}
