// Pictures of PDF pages: a report's image output (steps/image.ts), its thumbnail and the golden samples'
// compare. The pages are drawn by the rasteriser's thread (raster-thread.ts: PDFium in WebAssembly, loaded
// once), from the same PDF a client would download, so the picture is the printed page: the mean
// difference from poppler's `pdftoppm` at the same size is ~0.4-2.3/255 per channel (docs/images.md). PNG
// is encoded in that thread; JPEG and WebP by Debian's cjpeg and cwebp from the drawn samples.
// The measured alternatives cost more: Chromium screenshots a second layout, and a pdftoppm process
// per picture ~35-60 ms of CPU before it drew anything.

import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { createInflate, deflate } from "node:zlib";
import { BufferPool } from "../lib/buffer-pool";
import { png8, rgbPngData } from "../lib/png";
import type { ToolEnv } from "../lib/run-tool";
import type { RasterPage, RasterResult, RasterTask } from "./raster-thread";

/** zlib in libuv's thread pool: a page's encoding does not hold the event loop. */
const deflateAsync = promisify(deflate);

/**
 * The rows zlib deflates, each preceded by its filter byte, are written into reused buffers: a fresh
 * page-sized one costs more CPU in page faults than zlib's encoding of it (src/lib/buffer-pool.ts).
 * Two are kept (as many pages as are encoded at once on two cores), up to an A3 page at 200 dpi.
 */
const rows = new BufferPool({ maxBytes: 32 * 1024 * 1024, keep: 2, idleMs: 30_000 });

/**
 * zlib's level for a page's PNG: an invoice page at 150 dpi deflates in ~5 ms at level 2 against ~10 ms
 * at the default 6, for a file 10 % bigger (118 KB against 107 KB).
 */
export const PAGE_PNG_LEVEL = 2;

/** PNG pages drawn in one task of the rasteriser: ~16 ms each at 150 dpi, a few MB of PNG in flight. */
const PNG_BATCH = 16;

export const imageFormats = ["png", "jpeg", "webp"] as const;
export type ImageFormat = (typeof imageFormats)[number];

/** The programs the rasteriser runs for JPEG and WebP: libjpeg-turbo-progs and webp, from Debian (scripts/setup, `reportgen doctor`). */
export const RASTER_TOOLS = { cjpeg: "cjpeg", cwebp: "cwebp", dwebp: "dwebp" } as const;

/** The rasteriser's programs that are not on the PATH (the start's warning and `reportgen doctor` name them). */
export function missingRasterTools(): string[] {
  return Object.values(RASTER_TOOLS).filter((t) => !Bun.which(t));
}

/** What a picture is made with, each failing with its caller's error (a report's service fault, a CLI's exit 2). */
export interface RasterTools {
  /** Runs cjpeg, cwebp or dwebp under the caller's deadline. */
  run: ToolRunner;
  /** Draws pages in the rasteriser's thread (Rasteriser.draw). */
  draw: (task: RasterTask) => Promise<RasterResult>;
}

/** A thumbnail's bounds: the dashboard's lists show it; GET /reports/{id}/thumbnail serves it. */
export const THUMBNAIL = { width: 320, maxBytes: 40 * 1024 } as const;

/**
 * Page 1 of `pdf` as a PNG THUMBNAIL.width px wide (less for a page narrower than that at 72 dpi).
 * `password` opens an encrypted PDF. A colour page that does not fit in THUMBNAIL.maxBytes is written
 * in grey from the same pixels, which always fits at this size.
 */
export async function pdfThumbnail(tools: RasterTools, pdf: string, password?: string): Promise<Uint8Array> {
  const { pages } = await tools.draw({
    pdf: new Uint8Array(await readFile(pdf)),
    password,
    first: 1,
    last: 1,
    size: { width: THUMBNAIL.width },
    encode: "png",
    maxBytes: THUMBNAIL.maxBytes,
  });
  if (!pages[0]) throw new Error("the PDF has no page to make a thumbnail of");
  return pages[0].bytes;
}

/**
 * A picture (PNG, JPEG or WebP: an image report's page 1) as a PNG thumbnail. A PNG of reportgen's own
 * (rows unfiltered) is shrunk here, in ~20 ms of CPU for an A4 page at 150 dpi (pngThumbnail); any other
 * picture goes through cwebp, which scales it (it reads all three) without loss, and dwebp, which writes
 * the PNG: two processes, ~270 ms for the same page. A dense page whose picture does not fit in
 * THUMBNAIL.maxBytes is made narrower until it does (the picture has no PDF to draw in grey from).
 */
export async function pictureThumbnail(run: ToolRunner, picture: string, dir: string): Promise<Uint8Array> {
  const own = await pngThumbnail(await readFile(picture));
  if (own) return own;
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

/**
 * A PNG that rgbPng wrote with every row unfiltered (an image report's page, drawn by raster-worker.ts) as a thumbnail,
 * without a process: shrunk by the whole factor that makes it at most THUMBNAIL.width wide (each pixel
 * the mean of a block of the page's, 4 x 4 at 150 dpi: 1240 px become 310), as it is inflated, row by
 * row (the whole page inflated at once is 6.5 MB of fresh memory, whose page faults cost more than the
 * rest); in grey if it does not fit in THUMBNAIL.maxBytes. Undefined for any other PNG (a filtered row
 * included: its samples are not the pixels).
 */
export async function pngThumbnail(png: Uint8Array): Promise<Uint8Array | undefined> {
  const data = rgbPngData(png);
  if (!data) return undefined;
  const { width, height } = data;
  const k = Math.ceil(width / THUMBNAIL.width);
  const [w, h] = [Math.floor(width / k), Math.floor(height / k)];
  if (!h) return undefined;
  const stride = width * 3 + 1;
  const rgb = new Uint8Array(w * h * 3);
  const sums = new Uint32Array(w * 3);
  const row = new Uint8Array(stride);
  let [y, filled] = [0, 0];
  const inflater = createInflate({ chunkSize: 256 * 1024 });
  inflater.end(data.idat);
  try {
    for await (const chunk of inflater as AsyncIterable<Uint8Array>) {
      for (let at = 0; at < chunk.length; ) {
        const n = Math.min(stride - filled, chunk.length - at);
        row.set(chunk.subarray(at, at + n), filled);
        [at, filled] = [at + n, filled + n];
        if (filled < stride) break;
        if (row[0] !== 0 || y >= height) return undefined;
        if (y < h * k) addRow(row, sums, w, k);
        if (y % k === k - 1 && y < h * k) {
          const area = k * k;
          const out = ((y + 1) / k - 1) * w * 3;
          for (let x = 0; x < w * 3; x++) rgb[out + x] = (sums[x]! + area / 2) / area;
          sums.fill(0);
        }
        [y, filled] = [y + 1, 0];
      }
    }
  } finally {
    inflater.destroy();
  }
  if (y !== height || filled) return undefined;
  return thumbnailPng({ width: w, height: h, rgb });
}

/** A thumbnail-sized Frame as its PNG: in colour, or in grey when that does not fit in THUMBNAIL.maxBytes. */
export async function thumbnailPng(frame: Frame): Promise<Uint8Array> {
  const small = await framePng(frame);
  return small.length <= THUMBNAIL.maxBytes ? small : greyPng(frame);
}

/**
 * A drawn page shrunk by the whole factor k that makes it at most `maxWidth` wide, each pixel the mean of
 * samples on its k x k block's diagonal: all k of them for a block of 1 or 2, else the two at a quarter and
 * three quarters of it. An axis-aligned line of the page (a rule, a stroke of text) thus weighs in a pixel
 * as with 2 x 2 samples of the block, for half their cost. A thumbnail of an image report's first picture,
 * made from the samples its picture was drawn from, at print time: for an A4 page at 150 dpi (1240 px,
 * k = 4) every sample of the block took ~5.4 ms, 2 x 2 of them ~2.4 ms, these two ~1.3 ms; with its PNG
 * (~1.5 ms at zlib's level 6) the thumbnail adds ~3-4 ms of CPU to an image report.
 */
export function shrinkFrame({ width, height, rgb, stride = width * 3 }: Frame, maxWidth: number): Frame {
  const k = Math.ceil(width / maxWidth);
  const [w, h] = [Math.max(1, Math.floor(width / k)), Math.max(1, Math.floor(height / k))];
  const taps = k <= 2 ? Array.from({ length: k }, (_, i) => i) : [Math.floor(k / 4), Math.floor((3 * k) / 4)];
  // Each sample's offset from its block's first byte: a pixel then sums n of them with no inner allocation.
  const offsets = Int32Array.from(taps.map((d) => d * stride + d * 3));
  const n = offsets.length;
  const out = new Uint8Array(w * h * 3);
  for (let y = 0, o = 0; y < h; y++)
    for (let x = 0, block = y * k * stride; x < w; x++, o += 3, block += k * 3) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let j = 0; j < n; j++) {
        const i = block + offsets[j]!;
        r += rgb[i]!;
        g += rgb[i + 1]!;
        b += rgb[i + 2]!;
      }
      out[o] = (r + n / 2) / n;
      out[o + 1] = (g + n / 2) / n;
      out[o + 2] = (b + n / 2) / n;
    }
  return { width: w, height: h, rgb: out };
}

/** Adds a PNG row's samples (after its filter byte) to `sums`, `k` pixels at a time, for `w` of them. */
function addRow(row: Uint8Array, sums: Uint32Array, w: number, k: number): void {
  for (let x = 0, i = 1; x < w * 3; x += 3) {
    let r = 0;
    let g = 0;
    let b = 0;
    for (const end = i + k * 3; i < end; i += 3) {
      r += row[i]!;
      g += row[i + 1]!;
      b += row[i + 2]!;
    }
    sums[x]! += r;
    sums[x + 1]! += g;
    sums[x + 2]! += b;
  }
}

export const CONTENT_TYPES: Record<ImageFormat | "zip", string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  zip: "application/zip",
};

/** Runs a tool to completion, with `env` over the service's environment; rejects when it fails (the caller decides whose fault that is). */
export type ToolRunner = (cmd: string[], env?: ToolEnv) => Promise<void>;

export interface RasterRequest {
  format: ImageFormat;
  /** Pages, from 1, both included (`last` clipped to the document). */
  first: number;
  last: number;
  /** Dots per inch: a paper size is drawn at its own pixels (A4 at 150 dpi is 1240 x 1754). */
  dpi: number;
  /** JPEG and WebP quality, 1-100. */
  quality?: number;
  /** Also a thumbnail of the first page drawn, from its samples (an image report's, kept at print time). */
  thumbnail?: boolean;
}

/** The pictures' files, in page order, and the thumbnail when one was asked for. */
export interface Rasterised {
  files: string[];
  thumbnail?: Uint8Array;
}

/**
 * Pictures of pages `first`..`last` of the PDF `bytes`, written into `dir` (an empty folder of the caller's);
 * resolves with the files, in page order. PNG pages are drawn and encoded PNG_BATCH to a task (each task
 * reads the PDF again, ~1-3 ms, and has the deadline to itself); JPEG and WebP pages one at a time
 * (their samples are 6.5 MB a page at 150 dpi), each written by cjpeg or cwebp.
 */
export async function rasterise(tools: RasterTools, bytes: Uint8Array, dir: string, r: RasterRequest): Promise<Rasterised> {
  const size = { dpi: r.dpi };
  const out: string[] = [];
  let thumbnail: Uint8Array | undefined;
  if (r.format === "png") {
    for (let n = r.first; n <= r.last; n += PNG_BATCH) {
      const last = Math.min(r.last, n + PNG_BATCH - 1);
      const drawn = await tools.draw({
        pdf: new Uint8Array(bytes),
        first: n,
        last,
        size,
        encode: "png",
        level: PAGE_PNG_LEVEL,
        thumbnail: r.thumbnail && n === r.first,
      });
      const { pageCount, pages } = drawn;
      for (const [i, p] of pages.entries()) out.push(await write(join(dir, `p-${n + i}.png`), p.bytes));
      thumbnail ??= drawn.thumbnail;
      if (last >= pageCount) break;
    }
    return { files: out, thumbnail };
  }
  for (let n = r.first; n <= r.last; n++) {
    const drawn = await tools.draw({
      pdf: new Uint8Array(bytes),
      first: n,
      last: n,
      size,
      encode: "rgb",
      thumbnail: r.thumbnail && n === r.first,
    });
    const { pageCount, pages } = drawn;
    thumbnail ??= drawn.thumbnail;
    const ppm = await write(join(dir, `p-${n}.ppm`), ppmOf(pages[0]!));
    const file = join(dir, `p-${n}.${r.format === "jpeg" ? "jpg" : "webp"}`);
    const q = String(r.quality ?? 80);
    await tools.run(
      r.format === "jpeg"
        ? [RASTER_TOOLS.cjpeg, "-quality", q, "-optimize", "-outfile", file, ppm]
        : [RASTER_TOOLS.cwebp, "-quiet", "-q", q, ppm, "-o", file],
    );
    out.push(file);
    if (n >= pageCount) break;
  }
  return { files: out, thumbnail };
}

async function write(file: string, bytes: Uint8Array): Promise<string> {
  await writeFile(file, bytes);
  return file;
}

/** A page of RGB samples as a binary PPM (P6, 8 bits): what cjpeg and cwebp read. */
const ppmOf = (p: RasterPage): Uint8Array => Buffer.concat([Buffer.from(`P6\n${p.width} ${p.height}\n255\n`), p.bytes]);

/** A page as 8-bit RGB samples, row by row: what the golden-sample compare reads. */
export interface Frame {
  width: number;
  height: number;
  rgb: Uint8Array;
  /** Bytes from one row's start to the next's (default width x 3: rows packed). */
  stride?: number;
}

/** Every page of the PDF `bytes` at `dpi` as Frames, in page order, drawn one at a time. */
export async function rasteriseFrames(draw: RasterTools["draw"], bytes: Uint8Array, dpi: number): Promise<Frame[]> {
  const frames: Frame[] = [];
  for (let n = 1, count = 1; n <= count; n++) {
    const r = await draw({ pdf: new Uint8Array(bytes), first: n, last: n, size: { dpi }, encode: "rgb" });
    count = r.pageCount;
    for (const p of r.pages) frames.push({ width: p.width, height: p.height, rgb: p.bytes });
  }
  return frames;
}

/** A Frame as an 8-bit RGB PNG, rows unfiltered; `level` is zlib's (a compare's pictures take 1: mostly white, 4x faster). */
export async function framePng({ width, height, rgb }: Frame, level?: number): Promise<Uint8Array> {
  const stride = width * 3;
  // Each row is preceded by its filter type, 0 (none).
  const raw = rows.take((stride + 1) * height);
  try {
    for (let y = 0; y < height; y++) {
      raw[y * (stride + 1)] = 0;
      raw.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
    }
    return png8(width, height, 3, await deflateAsync(raw, level === undefined ? {} : { level }));
  } finally {
    rows.release(raw);
  }
}

/**
 * A Frame as an 8-bit grey PNG, rows unfiltered: each pixel's luma with poppler's own weights (0.3, 0.59,
 * 0.11: what `pdftoppm -gray` draws), a third of the samples to compress.
 */
export async function greyPng({ width, height, rgb, stride = width * 3 }: Frame): Promise<Uint8Array<ArrayBuffer>> {
  const raw = rows.take((width + 1) * height);
  try {
    for (let y = 0; y < height; y++) {
      raw[y * (width + 1)] = 0;
      for (let x = 0, i = y * stride, o = y * (width + 1) + 1; x < width; x++, i += 3, o++)
        raw[o] = Math.round(0.3 * rgb[i]! + 0.59 * rgb[i + 1]! + 0.11 * rgb[i + 2]!);
    }
    return png8(width, height, 1, await deflateAsync(raw));
  } finally {
    rows.release(raw);
  }
}
