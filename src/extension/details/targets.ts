import { parseIPv4, parseIPv6 } from '../../core/detect/ip';
import { refang as refangText } from '../../core/detect/refang';

/**
 * Strict parsing of what the details commands accept (pure, no `vscode`), with the project's
 * one refang and one IP parser (src/core/detect). Defanged forms (`1.2.3[.]4`, `evil(.)com`)
 * are refanged first. Lenient IPv4 forms (`127.1`, `0x7f.1`, `012.0.0.1`) are refused.
 */
export function refang(text: string): string {
  return refangText(text.trim());
}

export function parseIp(input: unknown): string | undefined {
  const raw =
    typeof input === 'string'
      ? input
      : isRecord(input) && typeof input.ip === 'string'
        ? input.ip
        : undefined;
  if (raw === undefined || raw.length > 100) return undefined;
  let v = refang(raw);
  if (v.startsWith('[') && v.endsWith(']')) v = v.slice(1, -1);
  if (parseIPv4(v) >= 0) return v;
  return parseIPv6(v) ? v.toLowerCase() : undefined;
}

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

export function parseDomain(input: unknown): string | undefined {
  const raw =
    typeof input === 'string'
      ? input
      : isRecord(input) && typeof input.domain === 'string'
        ? input.domain
        : undefined;
  if (raw === undefined || raw.length > 300) return undefined;
  const v = refang(raw).toLowerCase().replace(/\.$/, '');
  if (v.length > 253 || !v.includes('.')) return undefined;
  const labels = v.split('.');
  if (!labels.every((l) => LABEL.test(l))) return undefined;
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(labels[labels.length - 1])) return undefined;
  return v;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
