// A printed page's size in pixels: what every picture of a page (src/pdf/raster.ts) is drawn at.

/** Paper sizes in points (ISO 216 and ANSI), as the paper is cut. */
const PAPERS = [
  [841.89, 1190.55],
  [595.28, 841.89],
  [419.53, 595.28],
  [612, 792],
  [612, 1008],
  [792, 1224],
] as const;

/**
 * A page's size in pixels at `dpi`. Chromium writes its paper sizes rounded to hundredths of an inch
 * (A4 is 595.92 x 842.88 pt, 8.28 x 11.71 in), so a page within 2 pt of a paper size is drawn at that
 * paper's size: A4 at 150 dpi is 1240 x 1754 px, as the paper is, not 1242 x 1756.
 */
export function pixelSize(page: { width: number; height: number }, dpi: number): { width: number; height: number } {
  const near = (a: number, b: number) => Math.abs(a - b) <= 2;
  let { width, height } = page;
  for (const [w, h] of PAPERS)
    if (near(width, w) && near(height, h)) [width, height] = [w, h];
    else if (near(width, h) && near(height, w)) [width, height] = [h, w];
  return { width: Math.round((width * dpi) / 72), height: Math.round((height * dpi) / 72) };
}
