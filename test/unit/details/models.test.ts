import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Host } from '../../../src/api/types';
import { BANNER_PREVIEW } from '../../../src/common/protocol';
import {
  bannerText,
  cpeText,
  hostCves,
  hostView,
  linkTarget,
  mergeCves,
  safeExternalUrl,
} from '../../../src/extension/details/hostModel';
import { parseDomain, parseIp } from '../../../src/extension/details/targets';
import { normalizeHost } from '../../../src/api/normalize';
import { keyName, softwareName } from '../../../src/core/hosts/names';
import { whoisView } from '../../../src/extension/details/whoisModel';

const host: Host = {
  ip: '45.33.32.156',
  banner: ['http', 'ssh'],
  domains: [],
  hostnames: [{ name: 'scanme.example' }],
  tags: [{ name: 'web' }],
  last_updated_at: '0001-01-01T00:00:00Z',
  asn: { number: 'AS63949', organization: 'Linode' },
  services: [
    {
      port: 80,
      url: 'http://45.33.32.156/',
      cve: [{ id: 'CVE-2021-1', severity: 'HIGH', references: [], services: [], exploit: [] }],
      softwares: [{ vendor: 'nginx', product: 'nginx', version: '1\\.18\\.0' }],
      modules: {
        http: { title: 'Welcome', status_code: 200, banner: 'HTTP/1.1 200 OK\r\n' + 'x'.repeat(10_000) },
      },
    },
    {
      port: 22,
      cve: [{ id: 'cve-2021-1', severity: 'HIGH', references: [], services: [], exploit: [] }],
      softwares: [],
      modules: {},
      banner: 'SSH-2.0-OpenSSH_8.2p1',
    },
  ],
};

void test('host view carries no banner text, only lengths', () => {
  const v = hostView(host);
  assert.equal(v.services[0].bannerLength, 'HTTP/1.1 200 OK\r\n'.length + 10_000);
  assert.equal(v.services[0].title, 'Welcome');
  assert.equal(v.services[0].statusCode, 200);
  assert.deepEqual(v.services[0].software, ['nginx 1.18.0']);
  assert.ok(!JSON.stringify(v).includes('xxxxxxxxxx'));
  // The unset timestamp of the live service is not a date.
  assert.deepEqual(v.dates, []);
  assert.equal(v.asn, 'AS63949');
});

void test('CPE names read as people write them: vendor, product, version', () => {
  assert.equal(cpeText('cpe:2.3:a:openbsd:openssh:8.2p1:*:*:*:*:*:*:*'), 'OpenSSH 8.2p1');
  assert.equal(cpeText('cpe:2.3:a:apache:http_server:2.4.49:*:*:*:*:*:*:*'), 'Apache httpd 2.4.49');
  assert.equal(cpeText('nginx'), 'nginx');
  // CPE 2.2, as the live service sends it; unknown parts never read as a version.
  assert.equal(cpeText('cpe:/a:openbsd:openssh:9.6p1'), 'OpenSSH 9.6p1');
  assert.equal(cpeText('cpe:/a:igor_sysoev:nginx'), 'nginx');
  assert.equal(cpeText('cpe:/o:linux:linux_kernel:ANY'), 'Linux kernel');
  assert.equal(cpeText('cpe:/a:acme_corp:widget_server:2.1'), 'acme corp widget server 2.1');
});

void test('real names: software vendors and key algorithms as a security engineer writes them', () => {
  // The capture's vendors and products (../shared/real/hosts-search.capture.json).
  assert.equal(softwareName('igor_sysoev', 'nginx'), 'nginx');
  assert.equal(softwareName('openbsd', 'openssh'), 'OpenSSH');
  assert.equal(softwareName('postfix', 'postfix'), 'Postfix');
  assert.equal(softwareName('pureftpd', 'pure-ftpd'), 'Pure-FTPd');
  assert.equal(softwareName('zimbra', 'zimbra_collaboration_suite'), 'Zimbra Collaboration Suite');
  assert.equal(softwareName('apple', 'cups'), 'CUPS');
  // The general rule: underscores are spaces; the vendor is left out when the product says it.
  assert.equal(softwareName('samba_team', 'samba_team_server'), 'samba team server');
  assert.equal(softwareName('acme_corp', 'widget'), 'acme corp widget');
  assert.equal(softwareName(undefined, 'widget_db'), 'widget db');
  assert.equal(keyName('Elliptic_curve_cryptography', 256, 'p256'), 'EC P-256');
  assert.equal(keyName('Elliptic_curve_cryptography', 256), 'EC 256 bits');
  assert.equal(keyName('RSA', 2048), 'RSA 2048 bits');
  assert.equal(keyName('ECDSA', 384, 'secp384r1'), 'EC P-384');
  assert.equal(keyName('Post_quantum_thing', 1024), 'Post quantum thing 1024 bits');
  const v = hostView(
    normalizeHost({
      ip: '194.113.73.26',
      services: [
        {
          port: 443,
          softwares: [
            {
              vendor: 'igor_sysoev',
              product: 'nginx',
              version: '1\\.18\\.0',
              uri: 'cpe:/a:igor_sysoev:nginx:1.18.0',
            },
          ],
          modules: {
            tls: {
              certificate: {
                subject_alt_name: {
                  dns_names: [
                    '194.113.73.26',
                    'WWW.Example.com.',
                    'www.example.com',
                    'bad name',
                    '-x-.example',
                  ],
                },
                extensions: {
                  subject_alt_name: {
                    ip_address: ['194.113.73.26', '2605', '194.113.73.26', '2605:6400::1'],
                  },
                },
                subject_key_info: {
                  key_algorithm: 'Elliptic_curve_cryptography',
                  ecdsa: { curve: 'p256', length: 256 },
                },
              },
            },
          },
        },
      ],
    })!,
  );
  assert.deepEqual(v.services[0]!.software, ['nginx 1.18.0']);
  const cert = v.services[0]!.certificate!;
  // A real certificate's IP list: the address twice and a cut-off IPv6 fragment ("2605").
  assert.deepEqual(cert.names, ['www.example.com', '194.113.73.26', '2605:6400::1']);
  assert.equal(cert.key, 'EC P-256');
});

void test('banners: preview, then all', () => {
  const preview = bannerText(host, 0, false, BANNER_PREVIEW);
  assert.equal(preview.text.length, BANNER_PREVIEW);
  assert.equal(bannerText(host, 0, true, BANNER_PREVIEW).text.length, preview.length);
  assert.equal(bannerText(host, 1, false, BANNER_PREVIEW).text, 'SSH-2.0-OpenSSH_8.2p1');
  assert.throws(() => bannerText(host, 5, false, BANNER_PREVIEW));
});

void test('CVEs merge across services and with endpoint records', () => {
  const merged = hostCves(host);
  assert.equal(merged.length, 1);
  assert.deepEqual(merged[0].services.sort(), ['22', '80']);
  const full = mergeCves(merged, [
    {
      id: 'CVE-2021-1',
      severity: 'HIGH',
      score: 8.1,
      summary: 's',
      references: ['https://nvd.example/1'],
      services: [],
      exploit: [],
    },
    { id: 'CVE-2022-2', severity: 'LOW', references: [], services: [], exploit: [] },
  ]);
  assert.equal(full.length, 2);
  assert.equal(full[0].score, 8.1);
  assert.deepEqual(full[0].services.sort(), ['22', '80']);
});

void test('links are looked up by id from our own data', () => {
  const cves = mergeCves(hostCves(host), [
    { id: 'CVE-2021-1', severity: 'HIGH', references: ['https://nvd.example/1'], services: [], exploit: [] },
  ]);
  const exploits = [{ id: 'EDB-1', url: 'https://www.exploit-db.com/exploits/1' }];
  assert.equal(
    linkTarget(host, cves, exploits, { kind: 'service', serviceIndex: 0 }),
    'http://45.33.32.156/',
  );
  assert.equal(
    linkTarget(host, cves, exploits, { kind: 'reference', cveId: 'cve-2021-1', refIndex: 0 }),
    'https://nvd.example/1',
  );
  assert.equal(
    linkTarget(host, cves, exploits, { kind: 'reference', cveId: 'CVE-2021-1', refIndex: 9 }),
    undefined,
  );
  assert.equal(linkTarget(host, cves, exploits, { kind: 'exploit', exploitId: 'EDB-1' }), exploits[0].url);
  assert.equal(linkTarget(host, cves, exploits, { kind: 'service', serviceIndex: 99 }), undefined);
});

void test('only plain http(s) URLs may be opened', () => {
  assert.ok(safeExternalUrl('https://nvd.nist.gov/vuln/detail/CVE-2021-1'));
  assert.ok(safeExternalUrl(' http://1.2.3.4:8080/x '));
  for (const bad of [
    'javascript:alert(1)',
    'command:workbench.action.terminal.new',
    'vscode://file/etc/passwd',
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
    'https://user:pass@evil.example/',
    'not a url',
    undefined,
  ]) {
    assert.equal(safeExternalUrl(bad), undefined, String(bad));
  }
});

void test('command arguments are parsed strictly', () => {
  assert.equal(parseIp('8.8.8.8'), '8.8.8.8');
  assert.equal(parseIp(' 1.2.3[.]4 '), '1.2.3.4');
  assert.equal(parseIp({ ip: '2606:4700:4700::1111' }), '2606:4700:4700::1111');
  assert.equal(parseIp('[2606:4700:4700::1111]'), '2606:4700:4700::1111');
  // The zone id is dropped (the gate then refuses the link-local address): its text is never sent.
  assert.equal(parseIp('fe80::1%secret-vpn'), 'fe80::1');
  for (const bad of ['127.1', '0x7f.0.0.1', '012.0.0.1', '017700000001', '1.2.3.4/24', '', 42, null]) {
    assert.equal(parseIp(bad), undefined, String(bad));
  }
  assert.equal(parseDomain('Example.COM.'), 'example.com');
  assert.equal(parseDomain('evil(.)com'), 'evil.com');
  assert.equal(parseDomain({ domain: 'xn--bcher-kva.example' }), 'xn--bcher-kva.example');
  for (const bad of [
    'localhost',
    'a..com',
    '-a.com',
    'a.com/x',
    'a.com?x',
    'exa mple.com',
    'a.123',
    'x'.repeat(300),
  ]) {
    assert.equal(parseDomain(bad), undefined, bad);
  }
});

void test('whois view: expiry, contacts, newest-first history with snapshot ids', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  const record = {
    domain_name: 'northwind-traders.net',
    expires_date: '2025-01-11T00:00:00Z',
    domain_status: [],
    name_servers: ['ns1.example.net'],
    registrant_contact: { name: 'N', email: 'n@example.net' },
  };
  const older = { ...record, updated_date: '2020-01-01T00:00:00Z', registrar: { name: 'A' } };
  const newer = { ...record, updated_date: '2024-01-01T00:00:00Z', registrar: { name: 'B' } };
  const v = whoisView({ record, snapshots: [older, newer] }, 30, now);
  assert.equal(v.daysToExpiry, 10);
  assert.equal(v.expiryWarningDays, 30);
  assert.deepEqual(
    v.contacts.map((c) => [c.role, c.fields.length]),
    [
      ['registrant', 2],
      ['administrative', 0],
      ['technical', 0],
      ['billing', 0],
    ],
  );
  assert.deepEqual(
    v.history.map((s) => s.index),
    [1, 0],
  );
  assert.ok(v.history[0].changes.some((c) => c.field === 'Registrar' && c.after === 'B'));
});
