/**
 * Named records the emulator always serves, whatever the seed. The sample workspace, the
 * integration tests and the demo refer to these, so they are fixed here once.
 * All addresses are globally routable (never a special-purpose range): the privacy filter
 * would (rightly) refuse to look the others up.
 */
export const FIXTURE_HOSTS = {
  /** A busy web server: nginx + OpenSSH + MySQL, several high-score CVEs with exploits. */
  webServer: '45.33.32.156',
  /** A public DNS resolver with few services and no CVEs. */
  resolver: '8.8.8.8',
  /** A Cloudflare-fronted host. */
  cdn: '104.16.132.229',
  /** A scanner / Tor exit seen in the sample auth logs. */
  scanner: '185.220.101.34',
  /** Mail server: postfix + dovecot. */
  mail: '91.198.174.192',
  /** RDP exposed to the internet, critical CVE. */
  rdp: '52.14.88.213',
  /** An IPv6 host. */
  ipv6: '2606:4700:4700::1111',
  /** Every attacker-controlled string carries script/markup/bidi payloads (webview/hover safety tests). */
  hostile: '193.42.33.7',
  /** 1,000 services and ~5 MB of banners (rendering stress tests). */
  huge: '159.89.214.31',
  /** The exploited-first pair: ONE CVE at CVSS 7.5 that CISA KEV lists (CVE-2021-41773)... */
  kevOne: '135.181.47.102',
  /** ...and TEN CVEs at CVSS 9.8 that KEV does not list: the KEV host sorts first. */
  tenCritical: '51.75.144.23',
} as const;

/** A public IP the emulator does not know: lookups answer "not found". */
export const FIXTURE_UNKNOWN_IP = '151.101.1.69';

export const FIXTURE_DOMAINS = {
  /** Many subdomains, whois with all four contact blocks, a history with changes. */
  corp: 'acme-logistics.com',
  /** Expires within 30 days (expiry warning). */
  expiring: 'northwind-traders.net',
  /** Whois fields carry hostile payloads. */
  hostile: 'evil-payload.xyz',
  /** A phishing-style domain referenced (defanged) in the sample threat report. */
  phishing: 'secure-login-paypa1.com',
} as const;

/** A domain the emulator does not know: whois answers "not found". */
export const FIXTURE_UNKNOWN_DOMAIN = 'no-such-domain-odin.org';

/** The API key the emulator accepts by default (printed at start-up; not a secret). */
export const DEMO_API_KEY = 'odin-demo-0000-0000-0000-000000000000';

/** Exposed buckets the emulator always serves (files join them by name). */
export const FIXTURE_BUCKETS = {
  /** An AWS bucket of the corp fixture. */
  corp: 'acme-logistics-backups',
  /** A bucket whose first file name carries the hostile payloads. */
  hostile: 'evil-payload-uploads',
} as const;
