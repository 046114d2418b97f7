/**
 * What a person sees of the real service's data (test/fixtures/real-shape, in the structure
 * of the captured answer): hover cards, the host page's view model and page messages, and
 * exports say what the data says and nothing it does not: no tag whose value is false,
 * HTTP by status, title and server, other protocols by their banner, the certificate's
 * facts, never `ANY` as a version, no exploit count where the CVE records carry none.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFromWebview } from '../../../src/common/protocol';
import { toCsv, toTable } from '../../../src/core/results/export';
import { hostCard } from '../../../src/core/cards/hoverCard';
import { certSummary, serviceSummary } from '../../../src/core/hosts/serviceText';
import { certificateQuery, hostView } from '../../../src/extension/details/hostModel';
import { realShapeHosts } from '../../support/realShape';

const { hosts, byIp } = realShapeHosts();
const NOW = Date.parse('2026-11-23T12:00:00Z');
/** A card's text as a person reads it (Markdown escapes removed). */
const plain = (card: string): string => card.replace(/\\(.)/g, '$1');

void describe('hover cards over real-shaped hosts', () => {
  const web = plain(hostCard('93.184.215.14', byIp('93.184.215.14'), { now: NOW }));
  const mixed = plain(hostCard('192.0.43.10', byIp('192.0.43.10'), { now: NOW }));
  const bare = plain(hostCard('199.7.83.42', byIp('199.7.83.42'), { now: NOW }));

  void it('shows a tag only when its value is true', () => {
    for (const card of [web, bare]) assert.doesNotMatch(card, /Anonymous Proxy|Satellite Provider|\*\*Tags/);
    assert.ok(mixed.includes('**Tags:** **Anonymous Proxy**'));
    assert.doesNotMatch(mixed, /Satellite/);
  });

  void it('HTTP by status, title and server; other protocols by their banner', () => {
    assert.ok(web.includes('80/tcp http nginx — 200 "Shapes Test Portal" (nginx)'), web);
    assert.ok(web.includes('443/tcp http nginx 1.24.0 — 403 "403 Forbidden" (nginx/1.24.0, cloud-edge)'));
    assert.ok(
      mixed.includes(
        '22/tcp ssh OpenSSH 9.6p1 Ubuntu 3ubuntu13.5 — SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5',
      ),
    );
    assert.match(mixed, /21\/tcp ftp Pure-FTPd — 220-+ Shapes FTP service -+/);
    assert.ok(mixed.includes('25/tcp smtp Postfix smtpd — 220 mail.example-shapes.test ESMTP Postfix'));
    assert.ok(mixed.includes('11211/tcp unknown  \n'), 'a service that says nothing gets no text');
  });

  void it("the certificate's subject, issuer, expiry; self-signed said so", () => {
    assert.ok(
      web.includes(
        '**Certificate:** www.example-shapes.test (issuer Example Issuing CA 7, Example Trust Services B.V.; until 2027-09-01)',
      ),
    );
    assert.ok(mixed.includes('**Certificate:** ftp.example-shapes.test (until 2035-06-14; self-signed)'));
  });

  void it('never ANY; CVE counts without an exploit claim the records cannot back', () => {
    for (const card of [web, mixed, bare]) assert.doesNotMatch(card, /\bANY\b/);
    assert.ok(mixed.includes('**Vulnerable:** yes · 3 CVEs  \n'));
    assert.doesNotMatch(mixed, /known exploit/);
    assert.match(bare, /\*\*Vulnerable:\*\* no known CVEs/);
  });
});

void describe('the host page over real-shaped hosts', () => {
  void it('services carry HTTP status, title, server and the certificate facts', () => {
    const v = hostView(byIp('93.184.215.14'));
    assert.deepEqual(v.tags, []);
    const [http, https] = v.services;
    assert.equal(http.statusCode, 200);
    assert.equal(http.title, 'Shapes Test Portal');
    assert.equal(http.server, 'nginx');
    assert.equal(http.bannerLength, 0);
    assert.equal(http.certificate, undefined);
    // `igor_sysoev nginx` on the wire (CPE vendor), as people write it.
    assert.deepEqual(http.software, ['nginx']);
    assert.deepEqual(https.certificate, {
      subject: 'www.example-shapes.test, Example Shapes B.V., NL',
      issuer: 'Example Issuing CA 7, Example Trust Services B.V., NL',
      names: ['www.example-shapes.test', 'example-shapes.test', '93.184.215.14'],
      notBefore: '2026-09-01T09:02:11Z',
      notAfter: '2027-09-01T09:02:10Z',
      fingerprint: byIp('93.184.215.14').services[1].tls?.fingerprintSha256,
      selfSigned: false,
      validation: 'OV',
      key: 'EC P-256',
    });
    const ftp = hostView(byIp('192.0.43.10')).services.find((s) => s.port === 21)!;
    assert.equal(ftp.certificate?.selfSigned, true);
    assert.ok(ftp.bannerLength > 0);
    assert.deepEqual(hostView(byIp('192.0.43.10')).tags, ['Anonymous Proxy']);
  });

  void it('"search hosts with this certificate": a fingerprint query, from the record only', () => {
    const s = byIp('93.184.215.14').services[1];
    assert.equal(
      certificateQuery(s),
      `services.modules.tls.certificate.fingerprint_sha256:"${s.tls!.fingerprintSha256}"`,
    );
    assert.equal(certificateQuery(byIp('93.184.215.14').services[0]), undefined);
    const forged = { ...s, tls: { ...s.tls!, fingerprintSha256: 'AB" OR *:*' } };
    assert.equal(certificateQuery(forged), undefined, 'nothing but hex goes into the query');
    assert.deepEqual(parseFromWebview({ type: 'searchCertificate', serviceIndex: 1 }, 'host'), {
      type: 'searchCertificate',
      serviceIndex: 1,
    });
    assert.equal(parseFromWebview({ type: 'searchCertificate', serviceIndex: 1 }, 'whois'), undefined);
    assert.equal(parseFromWebview({ type: 'searchCertificate', serviceIndex: 'x' }, 'host'), undefined);
    assert.equal(
      parseFromWebview({ type: 'searchCertificate', serviceIndex: 1, query: '*' }, 'host'),
      undefined,
      'the page cannot send a query',
    );
  });
});

void describe('exports of real-shaped hosts', () => {
  const table = toTable(hosts.map((v) => ({ t: 'host' as const, v })));
  const col = (name: string): unknown[] => table.rows.map((r) => r[table.columns.indexOf(name)]);

  void it('tags that hold, what each service says, the certificates', () => {
    assert.deepEqual(col('tags'), ['', 'is_anonymous_proxy', '']);
    const services = col('services') as string[];
    assert.equal(
      services[0],
      '80 200 "Shapes Test Portal" (nginx); 443 403 "403 Forbidden" (nginx/1.24.0, cloud-edge)',
    );
    assert.match(
      services[1],
      /^21 220-+ Shapes FTP service -+; 22 SSH-2\.0-OpenSSH_9\.6p1 Ubuntu-3ubuntu13\.5; 25 220 mail/,
    );
    assert.match(services[1], /; 11211$/);
    const certs = col('certificates') as string[];
    assert.match(
      certs[0],
      /^www\.example-shapes\.test \(issuer Example Issuing CA 7.*\) sha256 [0-9A-F]{64}$/,
    );
    assert.match(certs[2], /^localhost \(until 2114-01-01; self-signed\) sha256 [0-9A-F]{64}$/);
    const csv = toCsv(table);
    assert.doesNotMatch(csv, /\bANY\b|Satellite|is_satellite_provider/);
  });

  void it('one-line summaries say nothing the data does not', () => {
    const unknown = byIp('192.0.43.10').services.find((s) => s.port === 11211)!;
    assert.equal(serviceSummary(unknown), undefined);
    assert.equal(certSummary(undefined), undefined);
  });
});
