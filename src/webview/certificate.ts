/**
 * The TLS certificate a service presented: subject, issuer, names, validity, fingerprint
 * and whether it signed itself, with a pivot to every host presenting the same certificate.
 * The pivot names the service by index; the extension takes the fingerprint from its own
 * copy of the host record.
 */
import type { CertificateView } from '../common/protocol';
import type { PageContext } from './context';
import { button, dl, h } from './dom';
import { l10n } from '../core/text/l10n';

export function certificateBox(ctx: PageContext, cert: CertificateView, serviceIndex: number): HTMLElement {
  const box = h('div', { class: 'certificate' });
  box.appendChild(h('h3', null, l10n.t('TLS certificate')));
  box.appendChild(
    dl([
      [l10n.t('Subject'), cert.subject],
      [
        l10n.t('Issuer'),
        cert.selfSigned ? l10n.t('{0} (self-signed)', cert.issuer ?? '').trim() : cert.issuer,
      ],
      [l10n.t('Names'), cert.names.length ? cert.names.join(', ') : undefined],
      [l10n.t('Valid from'), cert.notBefore],
      [l10n.t('Valid until'), cert.notAfter],
      [
        l10n.t('Self-signed'),
        cert.selfSigned === undefined ? undefined : cert.selfSigned ? l10n.t('yes') : l10n.t('no'),
      ],
      [l10n.t('Validation'), cert.validation],
      [l10n.t('Key'), cert.key],
      ['SHA-256', cert.fingerprint ? h('span', { class: 'mono wrap' }, cert.fingerprint) : undefined],
    ]),
  );
  if (cert.fingerprint) {
    box.appendChild(
      button(l10n.t('Search hosts with this certificate'), 'search', () =>
        ctx.post({ type: 'searchCertificate', serviceIndex }),
      ),
    );
  }
  return box;
}
