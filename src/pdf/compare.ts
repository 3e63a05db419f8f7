// Two PDFs compared page by page as pictures: the golden samples of stored templates (a version against
// the one it replaces) and `reportgen diff A.pdf B.pdf`. Both PDFs go through the rasteriser of image
// reports (raster.ts), so a page compares as it prints; the pixels are compared here, in one
// pass over the two pages' RGB samples, and the changed ones painted over the new page as the diff picture.
import { type Frame, type RasterTools, rasteriseFrames } from "./raster";

/**
 * Pages are compared at 96 dpi: a moved line or a recoloured word covers hundreds of pixels there, and
 * drawing a page costs a third of 150 dpi's (a 3-page compare within its 500 ms budget, docs/images.md).
 */
export const COMPARE_DPI = 96;

/** One page's comparison: `diff` is the picture of a changed page (none for an unchanged one). */
export interface PageDiff {
  /** From 1. */
  page: number;
  /** The share of the page's pixels that differ beyond the tolerance (0 to 1); 1 for a page added or removed. */
  changedRatio: number;
  diff?: Frame;
  /** The page before and after (absent where the page was added, or removed), kept with a changed page's diff. */
  before?: Frame;
  after?: Frame;
}

export interface PdfComparison {
  pagesBefore: number;
  pagesAfter: number;
  pages: PageDiff[];
  /** True when no page changed (and the page counts agree). */
  same: boolean;
}

/**
 * The share of pixels of `before` and `after` whose largest channel difference is above `tolerance`
 * (0 to 1, of 255), and the diff picture: `after` faded to a light grey, its changed pixels in red. A
 * pixel that only one page has (pages of different sizes) is changed. A missing page (added or
 * removed) is wholly changed, drawn from the page that exists.
 */
export function diffFrames(before: Frame | undefined, after: Frame | undefined, tolerance: number): { changedRatio: number; diff?: Frame } {
  const base = after ?? before;
  if (!base) return { changedRatio: 0 };
  if (before && after && before.width === after.width && before.height === after.height) return diffSameSize(before, after, tolerance);
  // Pages of different sizes, or one missing: every pixel that only one of them has is changed.
  const width = Math.max(before?.width ?? 0, after?.width ?? 0);
  const height = Math.max(before?.height ?? 0, after?.height ?? 0);
  const limit = Math.floor(tolerance * 255);
  const out = new Uint8Array(width * height * 3).fill(255);
  let changed = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const a = before && x < before.width && y < before.height ? (y * before.width + x) * 3 : -1;
      const b = after && x < after.width && y < after.height ? (y * after.width + x) * 3 : -1;
      let differs = a < 0 || b < 0;
      if (!differs) {
        const ba = before!.rgb;
        const aa = after!.rgb;
        differs =
          Math.abs(ba[a]! - aa[b]!) > limit || Math.abs(ba[a + 1]! - aa[b + 1]!) > limit || Math.abs(ba[a + 2]! - aa[b + 2]!) > limit;
      }
      const src = b >= 0 ? after!.rgb : a >= 0 ? before!.rgb : undefined;
      if (differs) changed++;
      paint(out, (y * width + x) * 3, src ? luma(src, b >= 0 ? b : a) : 255, differs);
    }
  }
  const changedRatio = width * height ? changed / (width * height) : 0;
  return changed ? { changedRatio, diff: { width, height, rgb: out } } : { changedRatio };
}

/** The common case, pages of one size: one pass over the samples, the picture painted only once a pixel differs. */
function diffSameSize(before: Frame, after: Frame, tolerance: number): { changedRatio: number; diff?: Frame } {
  const a = before.rgb;
  const b = after.rgb;
  const limit = Math.floor(tolerance * 255);
  const n = a.length;
  let first = -1;
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d > limit || d < -limit) {
      first = i - (i % 3);
      break;
    }
  }
  if (first < 0) return { changedRatio: 0 };
  const out = new Uint8Array(n);
  let changed = 0;
  for (let i = 0; i < n; i += 3) {
    let differs = false;
    if (i >= first) {
      const d0 = a[i]! - b[i]!;
      const d1 = a[i + 1]! - b[i + 1]!;
      const d2 = a[i + 2]! - b[i + 2]!;
      differs = d0 > limit || d0 < -limit || d1 > limit || d1 < -limit || d2 > limit || d2 < -limit;
    }
    if (differs) changed++;
    paint(out, i, luma(b, i), differs);
  }
  return { changedRatio: changed / (n / 3), diff: { width: after.width, height: after.height, rgb: out } };
}

const luma = (rgb: Uint8Array, i: number) => (rgb[i]! * 77 + rgb[i + 1]! * 150 + rgb[i + 2]! * 29) >> 8;

/** A changed pixel in red, darker where the page is dark (the changed text stays legible); an unchanged one faded to 30 %. */
function paint(out: Uint8Array, o: number, l: number, changed: boolean): void {
  if (changed) {
    out[o] = 255;
    out[o + 1] = out[o + 2] = (l * 90) >> 8;
  } else out[o] = out[o + 1] = out[o + 2] = 255 - (((255 - l) * 80) >> 8);
}

/** Compares the pages of two sets of page pictures (pages added or removed at the end are changes). */
export function compareFrames(before: Frame[], after: Frame[], tolerance: number): PdfComparison {
  const pages: PageDiff[] = [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const d = diffFrames(before[i], after[i], tolerance);
    pages.push({ page: i + 1, changedRatio: d.changedRatio, ...(d.diff && { diff: d.diff, before: before[i], after: after[i] }) });
  }
  return { pagesBefore: before.length, pagesAfter: after.length, pages, same: pages.every((p) => !p.diff) };
}

/** Rasterises two PDFs at COMPARE_DPI and compares them. */
export async function comparePdfs(draw: RasterTools["draw"], a: Uint8Array, b: Uint8Array, tolerance: number): Promise<PdfComparison> {
  const [before, after] = await Promise.all([rasteriseFrames(draw, a, COMPARE_DPI), rasteriseFrames(draw, b, COMPARE_DPI)]);
  return compareFrames(before, after, tolerance);
}
