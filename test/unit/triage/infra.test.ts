// Problems entries for infrastructure files: which files, which hosts (vulnerable ones the
// cache knows, never a private one), and the message.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  findingMessage,
  infraFindings,
  isInfraFile,
  type Answer,
  type HostVerdict,
} from '../../../src/core/triage';

const vuln: HostVerdict = {
  kind: 'host',
  vulnerable: true,
  cves: 3,
  maxScore: 9.8,
  maxSeverity: 'critical',
  exploits: 1,
  tags: [],
  ports: [22],
  cveIds: ['CVE-2024-6387', 'CVE-2023-1'],
  asn: 'AS63949',
};
const clean: HostVerdict = {
  ...vuln,
  vulnerable: false,
  cves: 0,
  exploits: 0,
  cveIds: [],
  maxScore: undefined,
  maxSeverity: undefined,
};

void describe('infrastructure problems', () => {
  void it('knows Terraform, Kubernetes, Compose, nginx and Ansible files by path', () => {
    for (const p of [
      '/w/infra/main.tf',
      '/w/x.tfvars',
      '/w/k8s/deployment.yaml',
      '/w/charts/app/values.yaml',
      '/w/docker-compose.yml',
      '/w/compose.prod.yaml',
      '/w/nginx/nginx.conf',
      '/etc/nginx/conf.d/site.conf',
      '/w/ansible/playbooks/site.yml',
      '/w/ansible/inventory/hosts',
      '/w/playbook.yml',
    ]) {
      assert.ok(isInfraFile(p), p);
    }
    for (const p of [
      '/w/logs/auth.log',
      '/w/README.md',
      '/w/.github/workflows/ci.yml',
      '/w/src/config.ts',
      '/w/app.conf',
      '/w/package.json',
    ]) {
      assert.ok(!isInfraFile(p), p);
    }
    assert.ok(isInfraFile('/w/anything.txt', 'terraform'));
  });

  void it('reports vulnerable hosts the cache knows, never private or unknown ones', () => {
    const text =
      'records = ["45.33.32.156"]\nallow 10.0.0.5;\nresolver 8.8.8.8;\nupstream 203.0.113.50;\n# 45.33.32.156 again\n';
    const known = new Map<string, Answer>([
      ['45.33.32.156', { found: true, verdict: vuln }],
      ['8.8.8.8', { found: true, verdict: clean }],
      ['10.0.0.5', { found: true, verdict: vuln }],
    ]);
    const asked: string[] = [];
    const f = infraFindings(
      text,
      (v) => !v.startsWith('10.'),
      (ip) => (asked.push(ip), known.get(ip)),
    );
    assert.deepEqual(
      f.map((x) => [x.value, text.slice(x.start, x.end)]),
      [
        ['45.33.32.156', '45.33.32.156'],
        ['45.33.32.156', '45.33.32.156'],
      ],
    );
    assert.ok(!asked.includes('10.0.0.5'), 'a private value is not even looked up in the cache');
    assert.equal(
      findingMessage(f[0]!),
      '45.33.32.156 is a vulnerable host according to ODIN: 3 CVEs, max CVSS 9.8 (critical), 1 known exploit; worst CVE-2024-6387, CVE-2023-1.',
    );
  });
});
