/**
 * "Save as PNG" of the chart and map pages: the page draws its own standalone SVG (the text
 * "Save as SVG" sends) through an `<img>` of a blob URL onto a canvas and sends the PNG as a
 * data URL. The page's CSP allows `img-src blob:` for this and nothing remote; the extension
 * checks the bytes before it writes them (core/charts/pngExport.ts).
 */

/** The PNG of `svgText` (an `<svg>` with width and height) at `scale` times its size. */
export async function pngDataUrl(svgText: string, width: number, height: number, scale = 2): Promise<string> {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const g = canvas.getContext('2d');
    if (!g) throw new Error('no 2D canvas');
    g.drawImage(img, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL('image/png');
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Width and height of an `<svg>` from its attributes (what the standalone copy carries). */
export function svgSize(svg: SVGSVGElement): { width: number; height: number } {
  return {
    width: Number(svg.getAttribute('width')) || svg.clientWidth || 800,
    height: Number(svg.getAttribute('height')) || svg.clientHeight || 600,
  };
}
