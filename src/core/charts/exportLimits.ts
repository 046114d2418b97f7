/** Largest SVG a chart or map page may send (characters); apart from svgExport.ts so the pages' schema does not bundle its parser. */
export const MAX_SVG_CHARS = 2_000_000;
