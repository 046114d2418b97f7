/**
 * What a service says, in one line of plain text, for hovers, tree nodes and exports (no
 * `vscode`; callers escape for their medium): an HTTP service by its status, title and
 * server (the live service records no HTTP banner), another protocol by the first line of
 * its banner, a TLS certificate by its subject, issuer, expiry and whether it signed
 * itself. Nothing is said that the data does not say.
 */
import type { Service, TlsCertificate } from '../../api/types';
import { l10n } from '../text/l10n';

/** `200 "Welcome" (nginx/1.24.0)`, or undefined when the HTTP module says nothing. */
export function httpSummary(s: Service): string | undefined {
  const h = s.http;
  if (!h) return undefined;
  const parts = [
    h.status !== undefined ? String(h.status) : '',
    h.title ? `"${h.title}"` : '',
    h.server ? `(${h.server})` : '',
  ].filter((p) => p !== '');
  return parts.length ? parts.join(' ') : undefined;
}

/** The first non-empty line of the banner (trimmed), or undefined. */
export function bannerLine(banner: string | undefined, max = 200): string | undefined {
  if (!banner) return undefined;
  for (const line of banner.split(/\r?\n/, 20)) {
    const t = line.trim();
    if (t) return t.length > max ? `${t.slice(0, max)}…` : t;
  }
  return undefined;
}

/** HTTP summary for HTTP services, else the banner's first line. */
export function serviceSummary(s: Service): string | undefined {
  return httpSummary(s) ?? bannerLine(s.banner);
}

/** `www.example.com (issuer R11, Let's Encrypt; until 2026-02-01; self-signed)`. */
export function certSummary(c: TlsCertificate | undefined): string | undefined {
  if (!c) return undefined;
  const subject = c.subject.commonName ?? c.names[0] ?? c.subject.organization;
  const issuer = [c.issuer.commonName, c.issuer.organization].filter((x) => x).join(', ');
  const notes = [
    issuer && !c.selfSigned ? l10n.t('issuer {0}', issuer) : '',
    c.notAfter ? l10n.t('until {0}', c.notAfter.slice(0, 10)) : '',
    c.selfSigned ? l10n.t('self-signed') : '',
  ].filter((x) => x !== '');
  if (!subject && !notes.length) return undefined;
  return `${subject ?? l10n.t('certificate')}${notes.length ? ` (${notes.join('; ')})` : ''}`;
}

/** True when CVE records carry details (score, summary): only then can exploits be counted. */
export function cvesHaveDetails(services: readonly Service[]): boolean {
  return services.some((s) => s.cve.some((c) => c.score !== undefined || c.summary !== undefined));
}
