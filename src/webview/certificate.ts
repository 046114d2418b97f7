/**
 * The TLS certificate a service presented: subject, issuer, names, validity, fingerprint
 * and whether it signed itself, with a pivot to every host presenting the same certificate.
 * The pivot names the service by index; the extension takes the fingerprint from its own
 * copy of the host record.
 */
import type { CertificateView } from '../common/protocol';
import type { PageContext } from './context';
import { button, dl, h } from './dom';

export function certificateBox(ctx: PageContext, cert: CertificateView, serviceIndex: number): HTMLElement {
  const box = h('div', { class: 'certificate' });
  box.appendChild(h('h3', null, 'TLS certificate'));
  box.appendChild(
    dl([
      ['Subject', cert.subject],
      ['Issuer', cert.selfSigned ? `${cert.issuer ?? ''} (self-signed)`.trim() : cert.issuer],
      ['Names', cert.names.length ? cert.names.join(', ') : undefined],
      ['Valid from', cert.notBefore],
      ['Valid until', cert.notAfter],
      ['Self-signed', cert.selfSigned === undefined ? undefined : cert.selfSigned ? 'yes' : 'no'],
      ['Validation', cert.validation],
      ['Key', cert.key],
      ['SHA-256', cert.fingerprint ? h('span', { class: 'mono wrap' }, cert.fingerprint) : undefined],
    ]),
  );
  if (cert.fingerprint) {
    box.appendChild(
      button('Search hosts with this certificate', 'search', () =>
        ctx.post({ type: 'searchCertificate', serviceIndex }),
      ),
    );
  }
  return box;
}
