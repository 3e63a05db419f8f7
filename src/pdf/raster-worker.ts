// Entry of the rasteriser's thread (raster-thread.ts): draws PDF pages with PDFium, compiled to
// WebAssembly (@embedpdf/pdfium, embedded in the executable), and encodes them. PDFium is loaded once
// per thread (~200 ms of CPU) and stays: a page then costs its drawing, where a pdftoppm process per
// picture cost ~35-60 ms before it drew anything (docs/images.md). WebAssembly keeps a malformed PDF's
// worst inside the thread's memory: a crash is a trap, an error here, never the server's process.
import { deflateSync } from "node:zlib";
import { init, type WrappedPdfiumModule } from "@embedpdf/pdfium";
import wasmPath from "@embedpdf/pdfium/pdfium.wasm" with { type: "file" };
import { png8 } from "../lib/png";
import { serveTasks } from "../lib/task-thread-worker";
import { pixelSize } from "./page-pixels";
import { greyPng, shrinkFrame, THUMBNAIL, thumbnailPng } from "./raster";
import type { RasterPage, RasterResult, RasterTask } from "./raster-thread";

let pdfium: WrappedPdfiumModule;

// PDFium's flags: annotations' appearances (a visible signature is one), drawn as for printing, and
// with red and blue swapped into the RGB order PNG and PPM want (its 24-bit bitmaps are BGR).
const FPDF_ANNOT = 0x01;
const FPDF_REVERSE_BYTE_ORDER = 0x10;
const FPDF_PRINTING = 0x800;
const FLAGS = FPDF_ANNOT | FPDF_REVERSE_BYTE_ORDER | FPDF_PRINTING;
const FPDFBitmap_BGR = 2;

/** FPDF_GetLastError's codes, as a sentence. */
const LOAD_ERRORS: Record<number, string> = {
  2: "the file could not be read",
  3: "it is not a PDF, or a damaged one",
  4: "it needs a password, or the one given is wrong",
  5: "it is encrypted with an unsupported method",
};

/** The heap, read anew after every allocation: a growing WebAssembly memory replaces its buffer. */
const heap = () => (pdfium.pdfium as unknown as { HEAPU8: Uint8Array<ArrayBuffer> }).HEAPU8;
const malloc = (n: number) => {
  const at = pdfium.pdfium.wasmExports.malloc(n);
  if (!at) throw new Error(`the rasteriser could not allocate ${n} bytes`);
  return at;
};
const free = (at: number) => pdfium.pdfium.wasmExports.free(at);

/** The pixel size of a page of `w` x `h` points, as the task asks. */
function sizeOf(t: RasterTask, w: number, h: number): { width: number; height: number } {
  if ("dpi" in t.size) return pixelSize({ width: w, height: h }, t.size.dpi);
  // At most the page's width at 72 dpi: a thumbnail never enlarges.
  const width = Math.max(1, Math.min(t.size.width, Math.round(w)));
  return { width, height: Math.max(1, Math.round((h * width) / w)) };
}

/**
 * Draws one page into a fresh bitmap of `stride`-byte rows at `at + lead` (lead: room for a PNG row's
 * filter byte before each row), white behind the page as a printed sheet.
 */
function draw(page: number, width: number, height: number, lead: number): { at: number; stride: number } {
  const stride = width * 3 + lead;
  const at = malloc(stride * height + lead);
  const bitmap = pdfium.FPDFBitmap_CreateEx(width, height, FPDFBitmap_BGR, at + lead, stride);
  if (!bitmap) {
    free(at);
    throw new Error(`the rasteriser could not make a ${width} x ${height} bitmap`);
  }
  pdfium.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
  pdfium.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, FLAGS);
  pdfium.FPDFBitmap_Destroy(bitmap);
  return { at, stride };
}

/** The bitmap at `at` (rows of `stride` bytes, each after its filter byte's room) as a PNG, rows unfiltered. */
function png(at: number, width: number, height: number, stride: number, level: number): Uint8Array<ArrayBuffer> {
  const h = heap();
  for (let y = 0; y < height; y++) h[at + y * stride] = 0;
  return png8(width, height, 3, deflateSync(h.subarray(at, at + stride * height), { level }));
}

async function rasterise(t: RasterTask): Promise<RasterResult> {
  const src = malloc(t.pdf.length);
  heap().set(t.pdf, src);
  try {
    const doc = pdfium.FPDF_LoadMemDocument(src, t.pdf.length, t.password ?? "");
    if (!doc) throw new Error(LOAD_ERRORS[pdfium.FPDF_GetLastError()] ?? "PDFium could not open it");
    try {
      const pageCount = pdfium.FPDF_GetPageCount(doc);
      const pages: RasterPage[] = [];
      let thumbnail: Uint8Array | undefined;
      for (let n = t.first; n <= Math.min(t.last, pageCount); n++) {
        const page = pdfium.FPDF_LoadPage(doc, n - 1);
        if (!page) throw new Error(`page ${n} of the PDF cannot be read`);
        try {
          const { width, height } = sizeOf(t, pdfium.FPDF_GetPageWidthF(page), pdfium.FPDF_GetPageHeightF(page));
          const lead = t.encode === "png" ? 1 : 0;
          const { at, stride } = draw(page, width, height, lead);
          try {
            // Shrunk now, into a copy: the samples go with the bitmap, freed below.
            const small =
              t.thumbnail && n === t.first
                ? shrinkFrame({ width, height, rgb: heap().subarray(at + lead), stride }, THUMBNAIL.width)
                : undefined;
            let bytes: Uint8Array<ArrayBuffer>;
            if (t.encode === "rgb") bytes = heap().slice(at, at + stride * height);
            else {
              bytes = png(at, width, height, stride, t.level ?? 6);
              // In grey from the same pixels (raster.ts's greyPng: rows after their filter byte's room).
              if (t.maxBytes !== undefined && bytes.length > t.maxBytes)
                bytes = await greyPng({ width, height, rgb: heap().subarray(at + lead), stride });
            }
            pages.push({ width, height, bytes });
            if (small) thumbnail = await thumbnailPng(small);
          } finally {
            free(at);
          }
        } finally {
          pdfium.FPDF_ClosePage(page);
        }
      }
      return { pageCount, pages, thumbnail };
    } finally {
      pdfium.FPDF_CloseDocument(doc);
    }
  } finally {
    free(src);
  }
}

void serveTasks(rasterise, {
  load: async () => {
    pdfium = await init({ wasmBinary: await Bun.file(wasmPath).arrayBuffer() });
    pdfium.PDFiumExt_Init();
  },
  transfer: (r) => [...r.pages.map((p) => p.bytes.buffer), ...(r.thumbnail ? [r.thumbnail.buffer as ArrayBuffer] : [])],
});
