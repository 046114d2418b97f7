/**
 * The client reads the real service's shapes (test/fixtures/real-shape, written in the
 * structure of the captured answer): tags by their value, coordinates from strings, header
 * arrays, zcrypto certificates, the SSH module, `ANY` never a version, base64 whois text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeHost } from '../../../src/api/normalize';
import { realShapeHosts } from '../../support/realShape';

const { hosts, byIp } = realShapeHosts();

void describe('the real shapes, read', () => {
  void it('keeps a tag only when its value is true', () => {
    assert.deepEqual(byIp('93.184.215.14').tags, []);
    assert.deepEqual(
      byIp('192.0.43.10').tags.map((t) => [t.name, t.pretty_name, t.value]),
      [['is_anonymous_proxy', 'Anonymous Proxy', true]],
    );
    const odd = normalizeHost({ ip: '1.2.3.4', tags: [{ name: 'a', value: 'true' }, { name: 'b' }, 'c'] });
    assert.deepEqual(
      odd?.tags.map((t) => t.name),
      ['b', 'c'],
      'a non-boolean value is not true',
    );
  });

  void it('reads coordinates written as strings', () => {
    assert.deepEqual(byIp('93.184.215.14').location?.coordinates, {
      latitude: 33.9425,
      longitude: -118.4081,
    });
    assert.equal(byIp('93.184.215.14').location?.geo_point, '33.9425, -118.4081');
  });

  void it('HTTP: status, title, server joined from arrays, headers, redirects; no banner', () => {
    const [web, tls] = byIp('93.184.215.14').services;
    assert.equal(web.banner, undefined);
    assert.equal(web.http?.status, 200);
    assert.equal(web.http?.title, 'Shapes Test Portal');
    assert.equal(web.http?.server, 'nginx');
    assert.equal(web.http?.headers.x_frame_options, 'SAMEORIGIN, DENY');
    assert.equal(web.http?.headers.referrer_policy, 'same-origin', 'unknown headers by their key');
    assert.deepEqual(web.http?.redirects, [{ status: 301, location: 'http://93.184.215.14/portal/' }]);
    assert.equal(tls.http?.server, 'nginx/1.24.0, cloud-edge');
    assert.equal(tls.http?.status, 403);
  });

  void it('TLS: zcrypto certificate subject, issuer, names, validity, fingerprint, self-signed', () => {
    const cert = byIp('93.184.215.14').services[1].tls!;
    assert.equal(cert.subject.commonName, 'www.example-shapes.test');
    assert.equal(cert.subject.organization, 'Example Shapes B.V.');
    assert.equal(cert.issuer.commonName, 'Example Issuing CA 7');
    assert.equal(cert.issuer.organization, 'Example Trust Services B.V.');
    assert.deepEqual(cert.names, ['www.example-shapes.test', 'example-shapes.test']);
    // The wire lists the address twice and a cut-off IPv6 fragment ("2605"), as the capture does.
    assert.deepEqual(cert.ips, ['93.184.215.14']);
    assert.equal(cert.notBefore, '2026-09-01T09:02:11Z');
    assert.equal(cert.notAfter, '2027-09-01T09:02:10Z');
    assert.match(cert.fingerprintSha256 ?? '', /^[0-9A-F]{64}$/);
    assert.equal(cert.selfSigned, false);
    assert.equal(cert.validationLevel, 'OV');
    // As the capture writes them; shown as "EC P-256" (core/hosts/names.ts).
    assert.equal(cert.keyAlgorithm, 'Elliptic_curve_cryptography');
    assert.equal(cert.keyCurve, 'p256');
    assert.equal(cert.keyBits, 256);
    assert.deepEqual(cert.tags, ['ov', 'trusted']);
    const self = byIp('192.0.43.10').services.find((s) => s.port === 21)!.tls!;
    assert.equal(self.selfSigned, true);
    assert.equal(self.issuer.commonName, self.subject.commonName);
    const bare = byIp('199.7.83.42').services.find((s) => s.port === 8443)!.tls!;
    assert.deepEqual(bare.names, []);
    assert.equal(bare.keyBits, undefined);
  });

  void it('SSH, FTP, SMTP: banner text from their modules; SSH key and algorithms', () => {
    const services = byIp('192.0.43.10').services;
    const ssh = services.find((s) => s.port === 22)!;
    assert.equal(ssh.banner, 'SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5');
    assert.equal(ssh.ssh?.keyAlgorithm, 'ssh-ed25519');
    assert.match(ssh.ssh?.keyFingerprint ?? '', /^[0-9a-f]{64}$/);
    assert.ok(ssh.ssh?.kexAlgorithms.includes('curve25519-sha256'));
    assert.match(services.find((s) => s.port === 21)!.banner ?? '', /^220-+ Shapes FTP service/);
    assert.match(services.find((s) => s.port === 25)!.banner ?? '', /ESMTP Postfix/);
    assert.equal(services.find((s) => s.port === 11211)!.banner, undefined);
  });

  void it('software: ANY is no value; versions unescaped; CPE 2.2 URIs kept', () => {
    const nginx = byIp('93.184.215.14').services[0].softwares[0];
    assert.deepEqual(nginx, {
      uri: 'cpe:/a:igor_sysoev:nginx',
      vendor: 'igor_sysoev',
      product: 'nginx',
      part: 'a',
    });
    const versioned = byIp('93.184.215.14').services[1].softwares[0];
    assert.equal(versioned.version, '1.24.0');
    const all = hosts.flatMap((h) => h.services.flatMap((s) => s.softwares));
    assert.ok(all.every((w) => !Object.values(w).includes('ANY')));
  });

  void it('CVE severities read upper-case from lower-case', () => {
    assert.deepEqual(
      byIp('192.0.43.10')
        .services.find((s) => s.port === 22)!
        .cve.map((c) => c.severity),
      ['HIGH', 'MEDIUM', 'MEDIUM'],
    );
  });

  void it('whois: the BASE64 marker is not the text; base64 text is decoded', () => {
    assert.equal(byIp('93.184.215.14').whois?.raw, undefined);
    const text = 'inetnum: 93.184.208.0 - 93.184.223.255\nnetname: EDGECAST';
    const h = normalizeHost({
      ip: '93.184.215.14',
      whois: { _encoding: { raw: 'BASE64' }, raw: Buffer.from(text).toString('base64') },
    });
    assert.equal(h?.whois?.raw, text);
    const plain = normalizeHost({ ip: '1.2.3.4', whois: { _encoding: { raw: 'utf-8' }, raw: 'netname: X' } });
    assert.equal(plain?.whois?.raw, 'netname: X');
  });
});
