import { isIP } from 'net';

/**
 * Strict parsing of what the details commands accept (pure, no `vscode`). Defanged forms
 * (`1.2.3[.]4`, `evil(.)com`) are refanged first. Lenient IPv4 forms (`127.1`, `0x7f.1`,
 * `012.0.0.1`) are refused: `net.isIP` accepts dotted-decimal only.
 */
export function refang(text: string): string {
  return text
    .trim()
    .replace(/\[\.\]|\(\.\)|\{\.\}|\[dot\]/gi, '.')
    .replace(/\[:\]/g, ':');
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
  if (isIP(v) === 4) return /(^|\.)0\d/.test(v) ? undefined : v;
  if (isIP(v) === 6 && !v.includes('%')) return v.toLowerCase();
  return undefined;
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
