/**
 * Names as people write them. Scan data names software by its CPE parts (`igor_sysoev`,
 * `nginx`) and keys by zcrypto's words (`Elliptic_curve_cryptography`, `p256`); a security
 * engineer reads "nginx 1.18.0", "OpenSSH 8.2p1" and "EC P-256". A small table for the names
 * that are written otherwise, and one rule for the rest: underscores are spaces, and the
 * vendor is left out where the product already says it (`postfix postfix` is "postfix").
 *
 * Pure: no `vscode` import.
 */

/** `vendor:product` (CPE parts, lower case) → the name people write. */
const SOFTWARE_NAMES: Record<string, string> = {
  'igor_sysoev:nginx': 'nginx',
  'f5:nginx': 'nginx',
  'nginx:nginx': 'nginx',
  'openbsd:openssh': 'OpenSSH',
  'apache:http_server': 'Apache httpd',
  'apache:tomcat': 'Apache Tomcat',
  'microsoft:internet_information_services': 'Microsoft IIS',
  'microsoft:iis': 'Microsoft IIS',
  'pureftpd:pure-ftpd': 'Pure-FTPd',
  'proftpd:proftpd': 'ProFTPD',
  'beasts:vsftpd': 'vsftpd',
  'exim:exim': 'Exim',
  'postfix:postfix': 'Postfix',
  'samba:samba': 'Samba',
  'apple:cups': 'CUPS',
  'linux:linux_kernel': 'Linux kernel',
  'oracle:mysql': 'MySQL',
  'mysql:mysql': 'MySQL',
  'mariadb:mariadb': 'MariaDB',
  'postgresql:postgresql': 'PostgreSQL',
  'redis:redis': 'Redis',
  'php:php': 'PHP',
  'lighttpd:lighttpd': 'lighttpd',
  'zimbra:zimbra_collaboration_suite': 'Zimbra Collaboration Suite',
  'synology:diskstation_manager': 'Synology DSM',
  'dropbear_ssh_project:dropbear_ssh': 'Dropbear SSH',
  'isc:bind': 'BIND',
  'openssl:openssl': 'OpenSSL',
};

const words = (s: string): string => s.replace(/_+/g, ' ').trim();

/** `igor_sysoev` + `nginx` → `nginx`; `acme_corp` + `widget_server` → `acme corp widget server`. */
export function softwareName(vendor: string | undefined, product: string | undefined): string {
  const v = (vendor ?? '').trim();
  const p = (product ?? '').trim();
  const known = SOFTWARE_NAMES[`${v}:${p}`.toLowerCase()];
  if (known) return known;
  if (!p) return words(v);
  if (!v || p.toLowerCase().startsWith(v.toLowerCase())) return words(p);
  return `${words(v)} ${words(p)}`;
}

/** zcrypto's key algorithm names → what people write. */
const KEY_ALGORITHMS: Record<string, string> = {
  elliptic_curve_cryptography: 'EC',
  ecdsa: 'EC',
  ec: 'EC',
  rsa: 'RSA',
  dsa: 'DSA',
  ed25519: 'Ed25519',
  ed448: 'Ed448',
};

/** Curve names (zcrypto, OpenSSL, SEC 2) → the NIST names people write. */
const CURVES: Record<string, string> = {
  p256: 'P-256',
  'p-256': 'P-256',
  prime256v1: 'P-256',
  secp256r1: 'P-256',
  p384: 'P-384',
  'p-384': 'P-384',
  secp384r1: 'P-384',
  p521: 'P-521',
  'p-521': 'P-521',
  secp521r1: 'P-521',
};

/** `Elliptic_curve_cryptography`, 256, `p256` → `EC P-256`; `RSA`, 2048 → `RSA 2048 bits`. */
export function keyName(algorithm: string | undefined, bits?: number, curve?: string): string {
  const alg = algorithm ? (KEY_ALGORITHMS[algorithm.toLowerCase()] ?? words(algorithm)) : '';
  const named = curve ? (CURVES[curve.toLowerCase()] ?? words(curve)) : undefined;
  if (named) return [alg || 'EC', named].join(' ');
  return [alg, bits ? `${bits} bits` : ''].filter((x) => x).join(' ');
}
