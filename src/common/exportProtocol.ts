/**
 * The two large messages a chart or map page sends, each capped by its own size: the SVG it
 * serialised for "Save as SVG" (checked again by core/charts/svgExport.ts) and the PNG data
 * URL its canvas gave for "Save as PNG" (checked again by core/charts/pngExport.ts).
 */
import { MAX_PNG_URL_CHARS } from '../core/charts/pngExport';
import { MAX_SVG_CHARS } from '../core/charts/exportLimits';
import { literal, object, type Check, type Infer } from './schema';
import { isRec } from './validate';

export const saveSvg = object({
  type: literal('saveSvg'),
  svg: (v: unknown) => (typeof v === 'string' && v.length <= MAX_SVG_CHARS ? v : undefined),
});

export const savePng = object({
  type: literal('savePng'),
  png: (v: unknown) =>
    typeof v === 'string' && v.length <= MAX_PNG_URL_CHARS && v.startsWith('data:image/png;base64,')
      ? v
      : undefined,
});

export type SaveMessage = Infer<typeof saveSvg> | Infer<typeof savePng>;

/** A page's schema: the save messages by their own caps, everything else by `small` (the kit's cap). */
export function withSaves<T>(small: Check<T>): Check<T | SaveMessage> {
  return (raw) =>
    isRec(raw) && raw.type === 'saveSvg'
      ? saveSvg(raw)
      : isRec(raw) && raw.type === 'savePng'
        ? savePng(raw)
        : small(raw);
}
