// The rasteriser: pages of a PDF as pictures, through poppler's pdftoppm (and Debian's cwebp for WebP).
// One module for every picture reportgen makes: a report's image output (steps/image.ts) and its
// thumbnail. The picture is the printed page: pdftoppm reads the same PDF a client would download,
// so an image report and `pdftoppm` on its PDF agree pixel for pixel. Measured alternatives (Chromium
// screenshots) cost a second layout and drift from the PDF: docs/images.md has the figures.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { deflate } from "node:zlib";
import { rgbPng } from "../lib/png";

/** zlib in libuv's thread pool: a page's encoding does not hold the event loop. */
const deflateAsync = promisify(deflate);

export const imageFormats = ["png", "jpeg", "webp"] as const;
export type ImageFormat = (typeof imageFormats)[number];

/** The programs the rasteriser runs: poppler-utils and webp, from Debian (scripts/setup, `reportgen doctor`). */
export const RASTER_TOOLS = { pdftoppm: "pdftoppm", cwebp: "cwebp", dwebp: "dwebp" } as const;

/** The rasteriser's programs that are not on the PATH (the start's warning and `reportgen doctor` name them). */
export function missingRasterTools(): string[] {
  return Object.values(RASTER_TOOLS).filter((t) => !Bun.which(t));
}

/** A thumbnail's bounds: the dashboard's lists show it; GET /reports/{id}/thumbnail serves it. */
export const THUMBNAIL = { width: 320, maxBytes: 40 * 1024 } as const;

/**
 * Page 1 of `pdf` as a PNG THUMBNAIL.width px wide (less for a page narrower than that at 72 dpi), in
 * `dir`. `password` opens an encrypted PDF (its owner password). A colour page that does not fit in
 * THUMBNAIL.maxBytes is made again in grey, which always does at this size.
 */
export async function pdfThumbnail(run: ToolRunner, pdf: string, dir: string, password?: string): Promise<Uint8Array> {
  const out = join(dir, "thumbnail");
  const base = [RASTER_TOOLS.pdftoppm, ...(password ? ["-opw", password] : []), "-scale-to-x", String(THUMBNAIL.width)];
  const args = ["-scale-to-y", "-1", "-png", "-f", "1", "-l", "1", "-singlefile", pdf, out];
  await run([...base, ...args]);
  let png = new Uint8Array(await Bun.file(`${out}.png`).arrayBuffer());
  if (png.length > THUMBNAIL.maxBytes) {
    await run([...base, "-gray", ...args]);
    png = new Uint8Array(await Bun.file(`${out}.png`).arrayBuffer());
  }
  return png;
}

/**
 * A picture (PNG, JPEG or WebP: an image report's page 1) as a PNG thumbnail: cwebp scales it (it
 * reads all three) without loss, dwebp writes the PNG. A dense page whose picture does not fit in
 * THUMBNAIL.maxBytes is made narrower until it does (the picture has no PDF to draw in grey from).
 */
export async function pictureThumbnail(run: ToolRunner, picture: string, dir: string): Promise<Uint8Array> {
  const webp = join(dir, "thumbnail.webp");
  const png = join(dir, "thumbnail.png");
  let bytes = new Uint8Array(0);
  for (const width of [THUMBNAIL.width, (THUMBNAIL.width * 3) / 4, THUMBNAIL.width / 2]) {
    await run([RASTER_TOOLS.cwebp, "-quiet", "-lossless", "-resize", String(width), "0", picture, "-o", webp]);
    await run([RASTER_TOOLS.dwebp, "-quiet", webp, "-o", png]);
    bytes = new Uint8Array(await Bun.file(png).arrayBuffer());
    if (bytes.length <= THUMBNAIL.maxBytes) break;
  }
  return bytes;
}

export const CONTENT_TYPES: Record<ImageFormat | "zip", string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  zip: "application/zip",
};

/** Runs a tool to completion; rejects when it fails (the caller decides whose fault that is). */
export type ToolRunner = (cmd: string[]) => Promise<void>;

export interface RasterRequest {
  format: ImageFormat;
  /** Pages, from 1, both included. */
  first: number;
  last: number;
  /** Dots per inch of a page of `page` points; or `width` in pixels (the height follows the page's proportions). */
  dpi?: number;
  page?: { width: number; height: number };
  width?: number;
  /** JPEG and WebP quality, 1-100. */
  quality?: number;
}

/**
 * Rasterises pages `first`..`last` of `pdf` into `dir` (an empty folder of the caller's); resolves
 * with the files, in page order.
 */
export async function rasterise(run: ToolRunner, pdf: string, dir: string, r: RasterRequest): Promise<string[]> {
  const px = r.page && r.dpi ? pixelSize(r.page, r.dpi) : undefined;
  const size = r.width
    ? ["-scale-to-x", String(r.width), "-scale-to-y", "-1"]
    : px
      ? ["-scale-to-x", String(px.width), "-scale-to-y", String(px.height)]
      : ["-r", String(r.dpi ?? 150)];
  // PNG and WebP: pdftoppm writes PPM, encoded here (ppmToPng) or by cwebp. libpng's encoding in
  // pdftoppm costs twice its drawing of an invoice page; zlib here a fifth of it, for a smaller file.
  const encode = r.format === "jpeg" ? ["-jpeg", ...(r.quality ? ["-jpegopt", `quality=${r.quality}`] : [])] : [];
  await run([RASTER_TOOLS.pdftoppm, ...size, ...encode, "-f", String(r.first), "-l", String(r.last), pdf, join(dir, "p")]);
  // pdftoppm names its files p-1.png or p-01.png (as many digits as the last page has): sorted by number.
  const pages = readdirSync(dir)
    .filter((f) => /^p-\d+\.(ppm|jpg)$/.test(f))
    .sort((a, b) => pageOf(a) - pageOf(b))
    .map((f) => join(dir, f));
  if (r.format === "jpeg") return pages;
  const out: string[] = [];
  for (const ppm of pages) {
    const file = ppm.replace(/\.ppm$/, `.${r.format}`);
    if (r.format === "webp") await run([RASTER_TOOLS.cwebp, "-quiet", "-q", String(r.quality ?? 80), ppm, "-o", file]);
    else writeFileSync(file, await ppmToPng(readFileSync(ppm)));
    out.push(file);
  }
  return out;
}

/** A binary PPM (P6, 8 bits: what pdftoppm writes) as an 8-bit RGB PNG: rows unfiltered, zlib's default level. */
export async function ppmToPng(ppm: Uint8Array): Promise<Uint8Array> {
  const head = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(Buffer.from(ppm.subarray(0, 64)).toString("latin1"));
  if (!head) throw new Error("not an 8-bit binary PPM");
  const [width, height, start] = [Number(head[1]), Number(head[2]), head[0].length];
  const stride = width * 3;
  // Each row is preceded by its filter type, 0 (none).
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(ppm.subarray(start + y * stride, start + (y + 1) * stride), y * (stride + 1) + 1);
  return rgbPng(width, height, await deflateAsync(raw));
}

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

const pageOf = (file: string) => Number(/-(\d+)\./.exec(file)![1]);
