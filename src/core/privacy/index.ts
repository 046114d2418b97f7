// Privacy classifier and policy: which detected values may leave the machine. Pure TypeScript.
export { classifyBlock, classifyCidr, classifyIp, parseAddress, parseBlock, parseCidr } from './ip';
export type { Block, Classification } from './ip';
export { classifyDomain, normalizeName, specialDomain } from './domain';
export { PrivacyPolicy } from './policy';
export type { DecisionSource, PolicyDecision, PolicyError, PolicyInput } from './policy';
export { IANA_REGISTRY_SNAPSHOT, IPV4_ROWS, IPV6_ROWS, SPECIAL_DOMAINS } from './registry';
export type { RegistryName, RegistryRow, SpecialDomain } from './registry';
