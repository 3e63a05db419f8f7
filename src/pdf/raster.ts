// The rasteriser: pages of a PDF as pictures, through poppler's pdftoppm (and Debian's cwebp for WebP).
// One module for every picture reportgen makes: a report's image output (steps/image.ts), its
// thumbnail and the golden samples' compare. The picture is the printed page: pdftoppm reads the same
// PDF a client would download, so an image report and `pdftoppm` on its PDF agree pixel for pixel.
// The measured alternative, Chromium screenshots, costs a second layout, drifts from the PDF and costs
// more CPU (docs/images.md has the figures, and where a picture's CPU goes). pdftoppm writes PPM and the
// PNG is encoded here, with zlib in the thread pool.

import { readdirSync, readFileSync } from "node:fs";
import { open, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { createInflate, deflate } from "node:zlib";
import { BufferPool } from "../lib/buffer-pool";
import { png8, rgbPngData } from "../lib/png";
import type { ToolEnv } from "../lib/run-tool";

/** zlib in libuv's thread pool: a page's encoding does not hold the event loop. */
const deflateAsync = promisify(deflate);

/**
 * What pdftoppm runs with: glibc's malloc takes transparent huge pages (madvise) and keeps blocks of up
 * to 32 MB on its heap, so a page's bitmap (6.5 MB for A4 at 150 dpi) is faulted in 2 MB at a time
 * instead of 4 KB: on the development machine (a VM, where a page fault is dear) an invoice page at
 * 150 dpi costs ~45 ms of CPU instead of ~70, for the same pixels. Without huge pages it changes nothing.
 */
export const RASTER_ENV: ToolEnv = {
  GLIBC_TUNABLES: [process.env.GLIBC_TUNABLES, "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432"].filter(Boolean).join(":"),
};

/** Runs pdftoppm with `args`, in RASTER_ENV. */
const pdftoppm = (run: ToolRunner, args: string[]) => run([RASTER_TOOLS.pdftoppm, ...args], RASTER_ENV);

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
 * `dir`. `password` opens an encrypted PDF (its owner password). One pdftoppm run, as PPM (its own PNG
 * encoding cost ~18 ms of CPU at this size, zlib here ~1 ms); a colour page that does not fit in
 * THUMBNAIL.maxBytes is written in grey from the same pixels, which always fits at this size.
 */
export async function pdfThumbnail(run: ToolRunner, pdf: string, dir: string, password?: string): Promise<Uint8Array> {
  const out = join(dir, "thumbnail");
  const size = ["-scale-to-x", String(THUMBNAIL.width), "-scale-to-y", "-1"];
  await pdftoppm(run, [...(password ? ["-opw", password] : []), ...size, "-f", "1", "-l", "1", "-singlefile", pdf, out]);
  const png = await ppmFilePng(`${out}.ppm`, 6);
  return png.length <= THUMBNAIL.maxBytes ? png : greyPng(readPpm(await readFile(`${out}.ppm`)));
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
 * A PNG that rgbPng wrote with every row unfiltered (an image report's page: ppmFilePng) as a thumbnail,
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
  const frame = { width: w, height: h, rgb };
  const small = await framePng(frame);
  return small.length <= THUMBNAIL.maxBytes ? small : greyPng(frame);
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
  // PNG and WebP: pdftoppm writes PPM, encoded here (ppmFilePng) or by cwebp. libpng's encoding in
  // pdftoppm costs twice its drawing of an invoice page; zlib here a tenth of it, for a smaller file.
  const encode = r.format === "jpeg" ? ["-jpeg", ...(r.quality ? ["-jpegopt", `quality=${r.quality}`] : [])] : [];
  await pdftoppm(run, [...size, ...encode, "-f", String(r.first), "-l", String(r.last), pdf, join(dir, "p")]);
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
    else await writeFile(file, await ppmFilePng(ppm));
    out.push(file);
  }
  return out;
}

/** A page as 8-bit RGB samples, row by row (what pdftoppm's PPM holds): what the golden-sample compare reads. */
export interface Frame {
  width: number;
  height: number;
  rgb: Uint8Array;
}

/** A binary PPM (P6, 8 bits: what pdftoppm writes) as a Frame (its samples are a view of `ppm`, not a copy). */
export function readPpm(ppm: Uint8Array): Frame {
  const { width, height, start } = ppmHead(ppm);
  return { width, height, rgb: ppm.subarray(start, start + width * height * 3) };
}

/** The head of a binary PPM (P6, 8 bits: what pdftoppm writes): its size, and where its samples start. */
function ppmHead(ppm: Uint8Array): { width: number; height: number; start: number } {
  const head = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(Buffer.from(ppm.subarray(0, 64)).toString("latin1"));
  if (!head) throw new Error("not an 8-bit binary PPM");
  return { width: Number(head[1]), height: Number(head[2]), start: head[0].length };
}

/**
 * A PPM file (a page at 150 dpi is 6.5 MB) as an 8-bit RGB PNG at zlib's `level`, rows unfiltered.
 * Its samples are read straight into the buffer zlib deflates, and each row is moved up in place to
 * make room for its filter byte: one page-sized buffer, not two (fresh memory costs its page faults).
 */
export async function ppmFilePng(file: string, level = PAGE_PNG_LEVEL): Promise<Uint8Array> {
  const f = await open(file, "r");
  try {
    const first = new Uint8Array(64);
    await f.read(first, 0, 64, 0);
    const { width, height, start } = ppmHead(first);
    const stride = width * 3;
    // The samples are read `height` bytes in, the room the filter bytes take: row y moves up from
    // height + y * stride to y * (stride + 1) + 1, never past a row not yet moved (y + 1 <= height).
    const raw = rows.take((stride + 1) * height);
    try {
      for (let at = 0; at < stride * height; ) {
        const { bytesRead } = await f.read(raw, height + at, stride * height - at, start + at);
        if (!bytesRead) throw new Error("a PPM shorter than its head says");
        at += bytesRead;
      }
      for (let y = 0; y < height; y++) {
        raw.copyWithin(y * (stride + 1) + 1, height + y * stride, height + (y + 1) * stride);
        raw[y * (stride + 1)] = 0;
      }
      return png8(width, height, 3, await deflateAsync(raw, { level }));
    } finally {
      rows.release(raw);
    }
  } finally {
    await f.close();
  }
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
export async function greyPng({ width, height, rgb }: Frame): Promise<Uint8Array> {
  const raw = rows.take((width + 1) * height);
  try {
    for (let y = 0; y < height; y++) {
      raw[y * (width + 1)] = 0;
      for (let x = 0, i = y * width * 3, o = y * (width + 1) + 1; x < width; x++, i += 3, o++)
        raw[o] = Math.round(0.3 * rgb[i]! + 0.59 * rgb[i + 1]! + 0.11 * rgb[i + 2]!);
    }
    return png8(width, height, 1, await deflateAsync(raw));
  } finally {
    rows.release(raw);
  }
}

/**
 * Every page of `pdf` at `dpi` as Frames, in page order, through pdftoppm's PPM in `dir` (an empty
 * folder of the caller's). Rejects (through `run`) when pdftoppm cannot read the file.
 */
export async function rasteriseFrames(run: ToolRunner, pdf: string, dir: string, dpi: number): Promise<Frame[]> {
  await pdftoppm(run, ["-r", String(dpi), pdf, join(dir, "p")]);
  return readdirSync(dir)
    .filter((f) => /^p-\d+\.ppm$/.test(f))
    .sort((a, b) => pageOf(a) - pageOf(b))
    .map((f) => readPpm(readFileSync(join(dir, f))));
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
