/** Banner text on the host page, fetched on demand. */
import { BANNER_PREVIEW } from '../common/protocol';
import { button, clear, formatBytes, h, text } from './dom';
import { l10n } from '../core/text/l10n';

/**
 * A banner fetched on demand: the first BANNER_PREVIEW characters, then all of it when
 * asked ("Show all"). The text goes in with textContent (invisible characters marked).
 */
export function bannerBox(
  label: string,
  length: number,
  fetch: (full: boolean) => Promise<{ text: string; length: number }>,
): HTMLElement {
  const box = h('div', { class: 'banner-box' });
  const pre = h('pre', { class: 'banner', tabIndex: 0, attrs: { 'aria-label': label } });
  const note = h('div', { class: 'banner-note' });
  box.appendChild(h('h3', null, l10n.t('Banner ({0})', formatBytes(length))));
  box.appendChild(pre);
  box.appendChild(note);
  pre.appendChild(h('span', { class: 'muted' }, l10n.t('Loading banner…')));
  const load = (full: boolean): void => {
    fetch(full).then(
      ({ text: body, length: total }) => {
        pre.replaceChildren(text(body));
        clear(note);
        if (body.length < total) {
          note.appendChild(
            h(
              'span',
              { class: 'muted' },
              l10n.t('Showing {0} of {1}. ', formatBytes(body.length), formatBytes(total)),
            ),
          );
          if (!full) note.appendChild(button(l10n.t('Show all'), 'unfold', () => load(true)));
        }
      },
      (err: unknown) => {
        pre.replaceChildren(h('span', { class: 'error' }, err instanceof Error ? err.message : String(err)));
      },
    );
  };
  load(length <= BANNER_PREVIEW);
  return box;
}
