// Vulnerable hosts named in infrastructure files (Terraform, Kubernetes and Compose YAML,
// nginx configuration, Ansible inventories and playbooks), from what the cache knows: the
// Problems-panel entries of the triage. Pure: no `vscode` import.
import { detectInRange } from '../detect';
import type { HostVerdict } from './model';
import type { Answer } from './triage';
import { l10n } from '../text/l10n';

/** Is this file one whose hosts the Problems entries look at? By path (and language id when known). */
export function isInfraFile(path: string, languageId?: string): boolean {
  const p = path.replace(/\\/g, '/').toLowerCase();
  const name = p.slice(p.lastIndexOf('/') + 1);
  if (
    languageId === 'terraform' ||
    languageId === 'hcl' ||
    languageId === 'nginx' ||
    languageId === 'ansible' ||
    languageId === 'dockercompose'
  )
    return true;
  if (/\.(tf|tfvars|hcl)$/.test(name)) return true;
  if (
    name === 'nginx.conf' ||
    (/\.conf$/.test(name) && /(^|\/)(nginx|sites-(available|enabled)|conf\.d)\//.test(p))
  )
    return true;
  if (/^(docker-)?compose(\.[\w-]+)?\.ya?ml$/.test(name)) return true;
  if (/\.ya?ml$/.test(name)) {
    // Kubernetes manifests, Helm charts, Ansible playbooks and roles, by their usual places.
    return (
      /(^|\/)(k8s|kubernetes|manifests|charts|helm|deploy|deployments|ansible|playbooks|roles|group_vars|host_vars|inventory|inventories)\//.test(
        p,
      ) || /^(playbook|site|inventory|hosts)\.ya?ml$/.test(name)
    );
  }
  if (/^(hosts|inventory)(\.ini)?$/.test(name) && /(^|\/)(ansible|inventory|inventories)\//.test(p))
    return true;
  return false;
}

export interface InfraFinding {
  start: number;
  end: number;
  value: string;
  verdict: HostVerdict;
}

/** The one-line problem text of a vulnerable host. */
export function findingMessage(f: InfraFinding): string {
  const v = f.verdict;
  let cves = l10n.t('marked vulnerable');
  if (v.cves > 0) {
    cves = v.cves === 1 ? l10n.t('1 CVE') : l10n.t('{0} CVEs', v.cves);
    if (v.maxScore !== undefined) cves = l10n.t('{0}, max CVSS {1}', cves, v.maxScore.toFixed(1));
    if (v.maxSeverity) cves = `${cves} (${v.maxSeverity})`;
  }
  const exploits =
    v.exploits > 0
      ? `, ${v.exploits === 1 ? l10n.t('1 known exploit') : l10n.t('{0} known exploits', v.exploits)}`
      : '';
  const worst = v.cveIds.length ? `; ${l10n.t('worst {0}', v.cveIds.slice(0, 3).join(', '))}` : '';
  // The worst exploitation signal (KEV, else EPSS) leads, then the CVSS: exploited first.
  const lead = v.exploited ? `${v.exploited}; ` : '';
  return l10n.t(
    '{0} is a vulnerable host according to ODIN: {1}.',
    f.value,
    `${lead}${cves}${exploits}${worst}`,
  );
}

/**
 * The vulnerable hosts a text names, from `known` only (the cache: never a request). IPs that
 * the privacy check refuses are skipped (they were never looked up). At most `max` findings.
 */
export function infraFindings(
  text: string,
  allowed: (value: string) => boolean,
  known: (ip: string) => Answer | undefined,
  max = 500,
): InfraFinding[] {
  const out: InfraFinding[] = [];
  for (const d of detectInRange(text, 0, text.length, { mode: 'code' })) {
    if (d.kind !== 'ipv4' && d.kind !== 'ipv6') continue;
    if (!allowed(d.value)) continue;
    const a = known(d.value);
    if (!a?.found || a.verdict.kind !== 'host' || !a.verdict.vulnerable) continue;
    out.push({ start: d.start, end: d.end, value: d.value, verdict: a.verdict });
    if (out.length >= max) break;
  }
  return out;
}
