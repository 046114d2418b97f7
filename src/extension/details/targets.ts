import { parseTarget } from '../../core/gate';

/**
 * What the details commands accept (pure, no `vscode`): the gate's one strict parser
 * (src/core/gate), so a command argument, a restored page and a hover all name a value in
 * the same canonical form. Defanged forms (`1.2.3[.]4`, `evil(.)com`) are refanged; lenient
 * IPv4 forms (`127.1`, `0x7f.1`, `012.0.0.1`) are refused; an IPv6 zone id is dropped.
 */
export function parseIp(input: unknown): string | undefined {
  const raw = argText(input, 'ip', 100);
  if (raw === undefined) return undefined;
  const t = parseTarget(raw);
  return t?.kind === 'ip' ? t.value : undefined;
}

export function parseDomain(input: unknown): string | undefined {
  const raw = argText(input, 'domain', 300);
  if (raw === undefined) return undefined;
  const t = parseTarget(raw);
  if (t?.kind !== 'domain' || !t.value.includes('.')) return undefined;
  const tld = t.value.slice(t.value.lastIndexOf('.') + 1);
  return /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld) ? t.value : undefined;
}

/** The text an argument names (itself, or its `key` property); undefined when longer than `max`. */
function argText(input: unknown, key: string, max: number): string | undefined {
  const raw = typeof input === 'string' ? input : isRecord(input) ? input[key] : undefined;
  return typeof raw === 'string' && raw.length <= max ? raw : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
