// options.image: the report is pictures of its printed pages (PNG, JPEG or WebP) instead of the PDF.
// The last step: it reads the PDF as every other step left it (watermark, stamp, page numbers, a
// table of contents), so the picture is the printed page. One page is the report's file itself;
// several are a ZIP of page-001.png, ... in page order. It returns the change in the page count, so
// that the report's page_count is the number of pictures its file holds.
import { readFile, writeFile } from "node:fs/promises";
import { REPORT_FAILURES } from "../../lib/error-codes";
import { RenderError } from "../../lib/errors";
import { storedZip } from "../../lib/zip";
import { countPdfPages } from "../../render/pdf-page-count";
import { IMAGE_DEFAULTS, type ImageRequest } from "../options";
import { type ImageFormat, rasterise } from "../raster";
import type { FileStep } from "../step";

export interface ImageParams {
  format: ImageFormat;
  dpi: number;
  pages: string;
  quality: number;
}

/** Pages `spec` names in a document of `total` pages, clipped to it; undefined when it names none. */
export function imagePages(spec: string, total: number): { first: number; last: number } | undefined {
  if (spec === "all") return total ? { first: 1, last: total } : undefined;
  const [first, last = first] = spec.split("-").map(Number) as [number, number?];
  return first >= 1 && first <= total ? { first, last: Math.min(last, total) } : undefined;
}

/** The extension of a picture's file in a ZIP. */
const EXT: Record<ImageFormat, string> = { png: "png", jpeg: "jpg", webp: "webp" };

export const image: FileStep<ImageParams> = {
  name: "image",
  tool: "file",
  plan: ({ options: { image: i } }) =>
    i
      ? {
          format: i.format,
          dpi: i.dpi ?? IMAGE_DEFAULTS.dpi,
          pages: i.pages ?? IMAGE_DEFAULTS.pages,
          quality: (i as ImageRequest).quality ?? IMAGE_DEFAULTS.quality,
        }
      : undefined,
  run: async (p, ctx, input, output) => {
    const pdf = await readFile(input);
    const total = countPdfPages(pdf);
    const range = imagePages(p.pages, total);
    if (!range)
      throw new RenderError(
        "image_pages_missing",
        `options.image.pages is "${p.pages}", but the document has ${total} page${total === 1 ? "" : "s"}. ${REPORT_FAILURES.image_pages_missing}`,
      );
    // The thumbnail is made now from the first picture's samples (~3-4 ms with its PNG), not later from its file
    // (inflating a PNG page ~20 ms; a JPEG or WebP page through cwebp and dwebp ~270 ms).
    const { files, thumbnail } = await rasterise(ctx.raster, pdf, ctx.dir(), {
      ...p,
      ...range,
      thumbnail: ctx.keepThumbnail !== undefined,
    });
    if (thumbnail) await ctx.keepThumbnail?.(thumbnail);
    if (files.length === 1) await writeFile(output, await readFile(files[0]!));
    else {
      const entries = await Promise.all(
        files.map(async (f, i) => ({ name: `page-${String(i + 1).padStart(3, "0")}.${EXT[p.format]}`, data: await readFile(f) })),
      );
      await writeFile(output, storedZip(entries));
    }
    return files.length - total;
  },
};
