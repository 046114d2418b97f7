// The IANA special-purpose address registries as data, so that the privacy filter is a
// longest-prefix match over a table a reviewer can diff against the published CSVs, not a
// hand-written list of `startsWith('10.')` checks.
//
//   https://www.iana.org/assignments/iana-ipv4-special-registry/
//   https://www.iana.org/assignments/iana-ipv6-special-registry/
//   https://www.iana.org/assignments/multicast-addresses/      (224.0.0.0/4)
//   https://www.iana.org/assignments/ipv6-address-space/       (what lies outside 2000::/3)
//   https://www.iana.org/assignments/ipv6-multicast-addresses/ (ff00::/8)
//
// When updating: fetch the registries' CSVs, compare row by row (block, name, RFC, the
// "Globally Reachable" column), bump the snapshot date, and extend the boundary tests.

/**
 * Date of the registry contents below. The table includes the 2024-2025 additions
 * (3fff::/20 RFC 9637, 5f00::/16 RFC 9602, 2001:1::3/128 RFC 9665, 100:0:0:1::/64 RFC 9780).
 */
export const IANA_REGISTRY_SNAPSHOT = '2025-05-01';

export type RegistryName =
  | 'iana-ipv4-special'
  | 'iana-ipv4-multicast'
  | 'iana-ipv6-special'
  | 'iana-ipv6-address-space'
  | 'iana-ipv6-multicast';

export interface RegistryRow {
  block: string;
  name: string;
  rfc: string;
  /** The registry's "Globally Reachable" column; null where it says N/A. */
  globallyReachable: boolean | null;
  registry: RegistryName;
  /** Classified by the IPv4 address embedded in it rather than by the row itself. */
  embedded?: 'ipv4-mapped' | 'nat64' | '6to4';
  /** Termination date, for rows the registry lists as deprecated. */
  terminated?: string;
}

const v4 = (
  block: string,
  name: string,
  rfc: string,
  globallyReachable: boolean | null,
  extra: Partial<RegistryRow> = {},
): RegistryRow => ({
  block,
  name,
  rfc,
  globallyReachable,
  registry: 'iana-ipv4-special',
  ...extra,
});

const v6 = (
  block: string,
  name: string,
  rfc: string,
  globallyReachable: boolean | null,
  extra: Partial<RegistryRow> = {},
): RegistryRow => ({
  block,
  name,
  rfc,
  globallyReachable,
  registry: 'iana-ipv6-special',
  ...extra,
});

export const IPV4_ROWS: readonly RegistryRow[] = [
  v4('0.0.0.0/8', '"This network"', 'RFC 791, Section 3.2', false),
  v4('0.0.0.0/32', '"This host on this network"', 'RFC 1122, Section 3.2.1.3', false),
  v4('10.0.0.0/8', 'Private-Use', 'RFC 1918', false),
  v4('100.64.0.0/10', 'Shared Address Space', 'RFC 6598', false),
  v4('127.0.0.0/8', 'Loopback', 'RFC 1122, Section 3.2.1.3', false),
  v4('169.254.0.0/16', 'Link Local', 'RFC 3927', false),
  v4('172.16.0.0/12', 'Private-Use', 'RFC 1918', false),
  v4('192.0.0.0/24', 'IETF Protocol Assignments', 'RFC 6890, Section 2.1', false),
  v4('192.0.0.0/29', 'IPv4 Service Continuity Prefix', 'RFC 7335', false),
  v4('192.0.0.8/32', 'IPv4 dummy address', 'RFC 7600', false),
  v4('192.0.0.9/32', 'Port Control Protocol Anycast', 'RFC 7723', true),
  v4('192.0.0.10/32', 'Traversal Using Relays around NAT Anycast', 'RFC 8155', true),
  v4('192.0.0.170/32', 'NAT64/DNS64 Discovery', 'RFC 8880, RFC 7050 Section 2.2', false),
  v4('192.0.0.171/32', 'NAT64/DNS64 Discovery', 'RFC 8880, RFC 7050 Section 2.2', false),
  v4('192.0.2.0/24', 'Documentation (TEST-NET-1)', 'RFC 5737', false),
  v4('192.31.196.0/24', 'AS112-v4', 'RFC 7535', true),
  v4('192.52.193.0/24', 'AMT', 'RFC 7450', true),
  v4('192.88.99.0/24', 'Deprecated (6to4 Relay Anycast)', 'RFC 7526', null, { terminated: '2015-03' }),
  v4('192.88.99.2/32', '6a44-relay anycast address', 'RFC 6751', false),
  v4('192.168.0.0/16', 'Private-Use', 'RFC 1918', false),
  v4('192.175.48.0/24', 'Direct Delegation AS112 Service', 'RFC 7534', true),
  v4('198.18.0.0/15', 'Benchmarking', 'RFC 2544', false),
  v4('198.51.100.0/24', 'Documentation (TEST-NET-2)', 'RFC 5737', false),
  v4('203.0.113.0/24', 'Documentation (TEST-NET-3)', 'RFC 5737', false),
  v4('240.0.0.0/4', 'Reserved', 'RFC 1112, Section 4', false),
  v4('255.255.255.255/32', 'Limited Broadcast', 'RFC 8190, RFC 919 Section 7', false),
  // Not in the special-purpose registry: the multicast registry. Never a host to look up.
  v4('224.0.0.0/4', 'Multicast', 'RFC 5771', false, { registry: 'iana-ipv4-multicast' }),
];

export const IPV6_ROWS: readonly RegistryRow[] = [
  v6('::1/128', 'Loopback Address', 'RFC 4291', false),
  v6('::/128', 'Unspecified Address', 'RFC 4291', false),
  v6('::ffff:0:0/96', 'IPv4-mapped Address', 'RFC 4291', false, { embedded: 'ipv4-mapped' }),
  v6('64:ff9b::/96', 'IPv4-IPv6 Translat.', 'RFC 6052', true, { embedded: 'nat64' }),
  v6('64:ff9b:1::/48', 'IPv4-IPv6 Translat.', 'RFC 8215', false),
  v6('100::/64', 'Discard-Only Address Block', 'RFC 6666', false),
  v6('100:0:0:1::/64', 'Dummy IPv6 Prefix', 'RFC 9780', false),
  v6('2001::/23', 'IETF Protocol Assignments', 'RFC 2928', false),
  v6('2001::/32', 'TEREDO', 'RFC 4380, RFC 8190', null),
  v6('2001:1::1/128', 'Port Control Protocol Anycast', 'RFC 7723', true),
  v6('2001:1::2/128', 'Traversal Using Relays around NAT Anycast', 'RFC 8155', true),
  v6('2001:1::3/128', 'DNS-SD Service Registration Protocol Anycast', 'RFC 9665', true),
  v6('2001:2::/48', 'Benchmarking', 'RFC 5180, RFC Errata 1752', false),
  v6('2001:3::/32', 'AMT', 'RFC 7450', true),
  v6('2001:4:112::/48', 'AS112-v6', 'RFC 7535', true),
  v6('2001:10::/28', 'Deprecated (previously ORCHID)', 'RFC 4843', null, { terminated: '2014-03' }),
  v6('2001:20::/28', 'ORCHIDv2', 'RFC 7343', true),
  v6('2001:30::/28', 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', 'RFC 9374', true),
  v6('2001:db8::/32', 'Documentation', 'RFC 3849', false),
  v6('2002::/16', '6to4', 'RFC 3056', null, { embedded: '6to4' }),
  v6('2620:4f:8000::/48', 'Direct Delegation AS112 Service', 'RFC 7534', true),
  v6('3fff::/20', 'Documentation', 'RFC 9637', false),
  v6('5f00::/16', 'Segment Routing (SRv6) SIDs', 'RFC 9602', false),
  v6('fc00::/7', 'Unique-Local', 'RFC 4193, RFC 8190', false),
  v6('fe80::/10', 'Link-Local Unicast', 'RFC 4291', false),
  // Outside the special-purpose registry. Only 2000::/3 is allocated as Global Unicast
  // (IPv6 Address Space registry); the rest is reserved by the IETF or has a special use.
  v6('ff00::/8', 'Multicast', 'RFC 4291', false, { registry: 'iana-ipv6-multicast' }),
  v6('fec0::/10', 'Site-Local (deprecated)', 'RFC 3879', false, { registry: 'iana-ipv6-address-space' }),
  v6('::/3', 'Reserved by IETF (outside Global Unicast 2000::/3)', 'RFC 4291', false, {
    registry: 'iana-ipv6-address-space',
  }),
  v6('4000::/2', 'Reserved by IETF (outside Global Unicast 2000::/3)', 'RFC 4291', false, {
    registry: 'iana-ipv6-address-space',
  }),
  v6('8000::/1', 'Reserved by IETF (outside Global Unicast 2000::/3)', 'RFC 4291', false, {
    registry: 'iana-ipv6-address-space',
  }),
];

/** Special-use and internal domain suffixes never sent by default, most specific first. */
export interface SpecialDomain {
  suffix: string;
  reason: string;
}

export const SPECIAL_DOMAINS: readonly SpecialDomain[] = [
  { suffix: 'example.com', reason: 'Documentation domain (RFC 2606, RFC 6761)' },
  { suffix: 'example.net', reason: 'Documentation domain (RFC 2606, RFC 6761)' },
  { suffix: 'example.org', reason: 'Documentation domain (RFC 2606, RFC 6761)' },
  { suffix: 'home.arpa', reason: 'Residential home network (RFC 8375)' },
  { suffix: 'in-addr.arpa', reason: 'IPv4 reverse DNS zone (RFC 1035)' },
  { suffix: 'ip6.arpa', reason: 'IPv6 reverse DNS zone (RFC 3596)' },
  { suffix: 'ipv4only.arpa', reason: 'NAT64 prefix discovery (RFC 8880)' },
  { suffix: 'resolver.arpa', reason: 'Resolver discovery (RFC 9462)' },
  { suffix: 'service.arpa', reason: 'DNS-SD service registration (RFC 9665)' },
  { suffix: 'arpa', reason: 'Infrastructure zone .arpa (RFC 3172)' },
  { suffix: 'local', reason: 'Multicast DNS name (RFC 6762)' },
  { suffix: 'localhost', reason: 'Loopback name (RFC 6761)' },
  { suffix: 'test', reason: 'Testing name (RFC 6761)' },
  { suffix: 'example', reason: 'Documentation name (RFC 6761)' },
  { suffix: 'invalid', reason: 'Invalid name (RFC 6761)' },
  { suffix: 'onion', reason: 'Tor onion service (RFC 7686)' },
  { suffix: 'alt', reason: 'Non-DNS namespace (RFC 9476)' },
  { suffix: 'internal', reason: 'Private-use TLD .internal (ICANN, 2024)' },
  { suffix: 'lan', reason: 'Internal name (.lan is not a delegated TLD)' },
  { suffix: 'corp', reason: 'Internal name (.corp is not a delegated TLD)' },
  { suffix: 'home', reason: 'Internal name (.home is not a delegated TLD)' },
  { suffix: 'intranet', reason: 'Internal name (.intranet is not a delegated TLD)' },
  { suffix: 'private', reason: 'Internal name (.private is not a delegated TLD)' },
  { suffix: 'localdomain', reason: 'Internal name (.localdomain is not a delegated TLD)' },
];
