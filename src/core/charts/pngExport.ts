/**
 * What a chart or map page sends to be saved as PNG is checked before it is written: a
 * `data:image/png;base64,` URL (what the page's canvas gives) whose bytes start with the
 * PNG signature and an IHDR chunk of a sane size, within a byte bound. Pure: no VS Code.
 */

/** Largest PNG a page may send (bytes); the data URL is capped at its base64 length. */
export const MAX_PNG_BYTES = 8 * 1024 * 1024;
export const MAX_PNG_URL_CHARS = 'data:image/png;base64,'.length + Math.ceil(MAX_PNG_BYTES / 3) * 4;
/** Largest width or height a page draws (its canvas at twice the screen's pixels). */
export const MAX_PNG_SIDE = 16_384;

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PREFIX = 'data:image/png;base64,';

export type PngCheck =
  { ok: true; bytes: Uint8Array; width: number; height: number } | { ok: false; reason: string };

export function checkPng(dataUrl: unknown): PngCheck {
  if (typeof dataUrl !== 'string') return { ok: false, reason: 'not text' };
  if (dataUrl.length > MAX_PNG_URL_CHARS) return { ok: false, reason: 'too large' };
  if (!dataUrl.startsWith(PREFIX)) return { ok: false, reason: 'not a PNG data URL' };
  const b64 = dataUrl.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return { ok: false, reason: 'not base64' };
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  if (bytes.length > MAX_PNG_BYTES) return { ok: false, reason: 'too large' };
  if (bytes.length < 33 || SIGNATURE.some((b, i) => bytes[i] !== b))
    return { ok: false, reason: 'no PNG signature' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ihdr = String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
  if (view.getUint32(8) !== 13 || ihdr !== 'IHDR') return { ok: false, reason: 'no IHDR chunk first' };
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  if (width < 1 || height < 1 || width > MAX_PNG_SIDE || height > MAX_PNG_SIDE)
    return { ok: false, reason: `an image of ${width}×${height} pixels` };
  return { ok: true, bytes, width, height };
}
