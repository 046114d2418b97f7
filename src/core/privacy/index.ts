// Privacy classifier and policy: which detected values may leave the machine. Pure TypeScript.
//
// - classifyIp / classifyCidr: longest-prefix match over the IANA IPv4 and IPv6 special-purpose
//   registries (plus IPv4 multicast, IPv6 multicast and what lies outside 2000::/3), snapshot
//   IANA_REGISTRY_SNAPSHOT. The "Globally Reachable" column decides, exceptions included
//   (192.0.0.9, 2001:1::1 ...); N/A counts as not global. IPv4-mapped, NAT64 (64:ff9b::/96) and
//   6to4 (2002::/16) addresses are classified by the IPv4 address they embed. A CIDR block is
//   global only if every address in it is. Parsing is strict (no octal, hex, short forms).
// - classifyDomain: special-use and internal suffixes are never sent (.local, .lan, .corp,
//   .internal, .home.arpa, .test, .example, example.com/.net/.org, .invalid, .localhost, .onion,
//   .alt, the reverse-DNS zones, all of .arpa), nor any name not under an ICANN public suffix.
// - PrivacyPolicy.check: workspace deny > user deny > user allow > classifier. A user allow may
//   allow a special-purpose address or an internal name explicitly; deny always beats allow;
//   workspace settings can only deny. It runs on the refanged, canonical `value`.
export { classifyBlock, classifyCidr, classifyIp, parseAddress, parseBlock, parseCidr } from './ip';
export type { Block, Classification } from './ip';
export { classifyDomain, normalizeName, specialDomain } from './domain';
export { PrivacyPolicy } from './policy';
export type { DecisionSource, PolicyDecision, PolicyError, PolicyInput } from './policy';
export { IANA_REGISTRY_SNAPSHOT, IPV4_ROWS, IPV6_ROWS, SPECIAL_DOMAINS } from './registry';
export type { RegistryName, RegistryRow, SpecialDomain } from './registry';
