// Domain classification: special-use and internal names are never sent; neither is any name
// whose suffix is not an ICANN public suffix.
import { isHostnameSyntax, isIcannTld, lookupName } from '../detect/domain';
import { canonicalIp } from '../detect/ip';
import { refang } from '../detect/refang';
import { l10n } from '../text/l10n';
import { classifyIp, type Classification } from './ip';
import { SPECIAL_DOMAINS } from './registry';

/** Lower case, refanged, without a trailing dot. */
export function normalizeName(name: string): string {
  return refang(name.trim()).toLowerCase().replace(/\.$/, '');
}

export function specialDomain(name: string): { suffix: string; reason: string } | undefined {
  for (const d of SPECIAL_DOMAINS) {
    if (name === d.suffix || name.endsWith(`.${d.suffix}`)) return d;
  }
  return undefined;
}

/**
 * Classifies a host name. IP literals are classified as addresses. A name is global only if it
 * is syntactically a host name, not special-use or internal, and under an ICANN public suffix
 * with a registrable label (`co.uk` alone is not a host).
 */
export function classifyDomain(input: string): Classification {
  const name = normalizeName(input);
  if (canonicalIp(name) !== undefined) return classifyIp(name);
  const special = specialDomain(name);
  if (special) return { global: false, reason: special.reason };
  if (!isHostnameSyntax(name)) return { global: false, reason: l10n.t('not a valid host name') };
  if (!lookupName(name)) {
    const tld = name.slice(name.lastIndexOf('.') + 1);
    return isIcannTld(tld)
      ? { global: false, reason: l10n.t('a public suffix, not a registrable name') }
      : { global: false, reason: l10n.t('"{0}" is not an ICANN public suffix', `.${tld}`) };
  }
  return { global: true };
}
