// Pictures of many pages (src/pdf/raster.ts): PNG pages go to the rasteriser's thread in batches, JPEG and
// WebP one at a time; either way every page comes back once, in order, named for its page. A 24-page PDF
// (docs/examples/statement.pdf, 8 pages, three times over: qpdf) at a low dpi; pages are told apart by
// their pixels (page 9 is page 1 again, page 2 is not).
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { createLogger } from "../../src/lib/logger";
import { pngThumbnail, type RasterTools, rasterise, THUMBNAIL } from "../../src/pdf/raster";
import { Rasteriser } from "../../src/pdf/raster-thread";
import { meanAbsDiff, pngPixels } from "../helpers/png-pixels";

const work = mkdtempSync(join(tmpdir(), "rg-raster-pages-"));
const rasteriser = new Rasteriser({ timeoutMs: 60_000, nice: 0, logger: createLogger("error") });
afterAll(async () => {
  await rasteriser.stop();
  rmSync(work, { recursive: true, force: true });
});
const tools: RasterTools = {
  run: async (cmd) => {
    const p = Bun.spawnSync(cmd);
    if (p.exitCode !== 0) throw new Error(`${cmd[0]} failed: ${p.stderr}`);
  },
  draw: (t) => rasteriser.draw(t),
};

const statement = join(import.meta.dir, "../../docs/examples/statement.pdf");
const pdf = join(work, "24.pdf");
expect(Bun.spawnSync(["qpdf", "--empty", "--pages", statement, statement, statement, "--", pdf]).exitCode).toBe(0);
const pdfBytes = readFileSync(pdf);

test("PNG: 24 pages in batches, each once and in order; a range past the end stops at the last page", async () => {
  const { files, thumbnail } = await rasterise(tools, pdfBytes, mkdtempSync(join(work, "png-")), {
    format: "png",
    first: 1,
    last: 30,
    dpi: 24,
  });
  expect(thumbnail).toBeUndefined();
  expect(files.map((f) => basename(f))).toEqual(Array.from({ length: 24 }, (_, i) => `p-${i + 1}.png`));
  const px = files.map((f) => pngPixels(readFileSync(f)).data);
  expect(px[8]).toEqual(px[0]!);
  expect(px[17]).toEqual(px[1]!);
  expect(px[1]).not.toEqual(px[0]!);
  const { files: middle } = await rasterise(tools, pdfBytes, mkdtempSync(join(work, "png-")), {
    format: "png",
    first: 17,
    last: 19,
    dpi: 24,
  });
  expect(middle.map((f) => pngPixels(readFileSync(f)).data)).toEqual([px[16]!, px[17]!, px[18]!]);
});

test("JPEG: page by page, decoded by djpeg at the page's size", async () => {
  const { files } = await rasterise(tools, pdfBytes, mkdtempSync(join(work, "jpeg-")), {
    format: "jpeg",
    first: 7,
    last: 10,
    dpi: 24,
    quality: 70,
  });
  expect(files.map((f) => basename(f))).toEqual(["p-7.jpg", "p-8.jpg", "p-9.jpg", "p-10.jpg"]);
  for (const f of files) {
    const d = Bun.spawnSync(["djpeg", "-pnm", f]);
    expect(d.exitCode).toBe(0);
    // A4 at 24 dpi, the paper's own size: 595.28 x 841.89 pt.
    expect(d.stdout.subarray(0, 16).toString()).toMatch(/^P6\s+198\s+281\s/);
  }
});

test("a page whose PNG is over maxBytes comes in grey, each pixel the luma of the colour one's", async () => {
  const task = { first: 1, last: 1, size: { width: 120 }, encode: "png" as const };
  const colour = pngPixels((await rasteriser.draw({ ...task, pdf: new Uint8Array(pdfBytes) })).pages[0]!.bytes);
  const grey = pngPixels((await rasteriser.draw({ ...task, pdf: new Uint8Array(pdfBytes), maxBytes: 100 })).pages[0]!.bytes);
  expect([grey.width, grey.height, grey.channels]).toEqual([colour.width, colour.height, 1]);
  const c = colour.data;
  const luma = Uint8Array.from({ length: grey.data.length }, (_, i) =>
    Math.round(0.3 * c[i * 3]! + 0.59 * c[i * 3 + 1]! + 0.11 * c[i * 3 + 2]!),
  );
  expect(grey.data).toEqual(luma);
});

test("a thumbnail of the first page drawn, at print time, looks like the one made later from its PNG", async () => {
  // pngThumbnail (the thumbnail made on request from an image report's PNG) takes every sample of each
  // block; the print-time one (shrinkFrame) two on its diagonal: a level apart at most (measured 0.65/255).
  const png = await rasterise(tools, pdfBytes, mkdtempSync(join(work, "thumb-png-")), {
    format: "png",
    first: 2,
    last: 3,
    dpi: 150,
    thumbnail: true,
  });
  const jpeg = await rasterise(tools, pdfBytes, mkdtempSync(join(work, "thumb-jpeg-")), {
    format: "jpeg",
    first: 2,
    last: 2,
    dpi: 150,
    thumbnail: true,
  });
  const later = pngPixels((await pngThumbnail(readFileSync(png.files[0]!)))!);
  for (const made of [png.thumbnail, jpeg.thumbnail]) {
    const now = pngPixels(made!);
    expect([now.width, now.height]).toEqual([310, 438]);
    expect([later.width, later.height]).toEqual([310, 438]);
    expect(made!.length).toBeLessThanOrEqual(THUMBNAIL.maxBytes);
    expect(meanAbsDiff(now, later)).toBeLessThan(1.5 / 255);
  }
  // Page 2 (the first drawn), not page 1 or 3 of the document.
  const page1 = pngPixels(
    (await pngThumbnail(
      readFileSync(
        (
          await rasterise(tools, pdfBytes, mkdtempSync(join(work, "p1-")), { format: "png", first: 1, last: 1, dpi: 150 })
        ).files[0]!,
      ),
    ))!,
  );
  expect(meanAbsDiff(pngPixels(png.thumbnail!), page1)).toBeGreaterThan(meanAbsDiff(pngPixels(png.thumbnail!), later) + 1 / 255);
});
