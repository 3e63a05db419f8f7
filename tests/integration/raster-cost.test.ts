// What the rasteriser's pictures cost (issue 44: a PNG invoice <= 1.2x the PDF's CPU, a thumbnail <= 5 %),
// on a real invoice printed by reportgen (docs/examples/invoice-de.pdf, A4): the rasteriser's thread
// (PDFium in WebAssembly) against poppler's pdftoppm drawing the same page, in the same test, so that a
// busy machine moves both. This process's CPU counts all its threads (the rasteriser's, zlib's); a
// tool's is its rusage. The thread is warmed first (WebAssembly is compiled to its fastest tier after a
// few pages: a long-running service's case). Best of nine runs each, taken in turns: other load only adds.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../../src/lib/logger";
import { pdfThumbnail, pictureThumbnail, RASTER_TOOLS, type RasterTools, rasterise, type ToolRunner } from "../../src/pdf/raster";
import { Rasteriser } from "../../src/pdf/raster-thread";
import { pngPixels } from "../helpers/png-pixels";

setDefaultTimeout(120_000);

const PDF = join(import.meta.dir, "../../docs/examples/invoice-de.pdf");
const PDF_BYTES = readFileSync(PDF);
const root = mkdtempSync(join(tmpdir(), "rg-raster-cost-"));
const rasteriser = new Rasteriser({ timeoutMs: 60_000, nice: 0, logger: createLogger("error") });
afterAll(async () => {
  await rasteriser.stop();
  rmSync(root, { recursive: true, force: true });
});

let tools = 0;
/** Runs the tools as the service does and adds up their CPU (µs). */
const run: ToolRunner = async (cmd, env) => {
  const p = Bun.spawn({ cmd, env: env ? { ...process.env, ...env } : undefined, stdout: "ignore", stderr: "pipe" });
  if ((await p.exited) !== 0) throw new Error(`${cmd[0]} failed: ${await new Response(p.stderr).text()}`);
  tools += Number(p.resourceUsage()!.cpuTime.total);
};
const raster: RasterTools = { run, draw: (t) => rasteriser.draw(t) };
const page150 = { format: "png" as const, first: 1, last: 1, dpi: 150 };

beforeAll(async () => {
  for (let i = 0; i < 20; i++) await rasterise(raster, PDF_BYTES, mkdtempSync(join(root, "warm-")), page150);
});

/** The CPU (ms) of one run of `work` in a fresh folder: tools and this process together. */
async function cpuOnce(work: (dir: string) => Promise<unknown>): Promise<number> {
  const dir = mkdtempSync(join(root, "run-"));
  const [t0, own0] = [tools, process.cpuUsage()];
  await work(dir);
  const own = process.cpuUsage(own0);
  return (tools - t0 + own.user + own.system) / 1000;
}

/**
 * The least CPU (ms) of nine runs of each of `a` and `b`, taken in turns: a spell of load from elsewhere
 * on the machine then falls on both sides, not on whichever ran during it.
 */
async function cpuMs(a: (dir: string) => Promise<unknown>, b: (dir: string) => Promise<unknown>): Promise<[number, number]> {
  let [bestA, bestB] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (let i = 0; i < 9; i++) {
    bestA = Math.min(bestA, await cpuOnce(a));
    bestB = Math.min(bestB, await cpuOnce(b));
  }
  return [bestA, bestB];
}

/** Passes pngcheck; resolves with its size in pixels. */
function checked(png: Uint8Array): { width: number; height: number } {
  const file = join(root, "checked.png");
  writeFileSync(file, png);
  expect(Bun.spawnSync(["pngcheck", file]).exitCode).toBe(0);
  return pngPixels(png);
}

// Under 0.6 of pdftoppm's: on the development machine the ratios read 0.44-0.50 (a page) and 0.45-0.50 (a
// thumbnail) over five quiet runs each (2026-12-07), 0.51 once in CI, so a bound at half failed with no change
// of the code; 0.6 still fails a rasteriser that lost its fastest WebAssembly tier or drew pages twice.
const OF_PDFTOPPM = 0.6;

test("a page as a PNG at 150 dpi costs well under pdftoppm's drawing of it alone, and is the printed page", async () => {
  const [ours, poppler] = await cpuMs(
    (dir) => rasterise(raster, PDF_BYTES, dir, page150),
    (dir) => run(["pdftoppm", "-scale-to-x", "1240", "-scale-to-y", "1754", "-singlefile", PDF, join(dir, "p")]),
  );
  const made = checked(readFileSync((await rasterise(raster, PDF_BYTES, mkdtempSync(join(root, "size-")), page150)).files[0]!));
  expect(made).toMatchObject({ width: 1240, height: 1754 });
  console.log(`PNG page: ${ours.toFixed(1)} ms of CPU, pdftoppm's PPM ${poppler.toFixed(1)} ms (ratio ${(ours / poppler).toFixed(2)})`);
  expect(ours / poppler).toBeLessThan(OF_PDFTOPPM);
});

test("a PDF's thumbnail costs well under pdftoppm's drawing of it alone", async () => {
  const size = checked(await pdfThumbnail(raster, PDF));
  expect(size.width).toBe(320);
  const [ours, drawing] = await cpuMs(
    () => pdfThumbnail(raster, PDF),
    (dir) => run(["pdftoppm", "-scale-to-x", "320", "-scale-to-y", "-1", "-singlefile", PDF, join(dir, "t")]),
  );
  console.log(
    `PDF thumbnail: ${ours.toFixed(1)} ms of CPU, pdftoppm's PPM ${drawing.toFixed(1)} ms (ratio ${(ours / drawing).toFixed(2)})`,
  );
  expect(ours / drawing).toBeLessThan(OF_PDFTOPPM);
});

test("an image report's thumbnail is made from its PNG without a process, for a fraction of cwebp's", async () => {
  const page = (await rasterise(raster, PDF_BYTES, mkdtempSync(join(root, "page-")), page150)).files[0]!;
  const before = tools;
  const thumb = await pictureThumbnail(run, page, mkdtempSync(join(root, "thumb-")));
  expect(tools).toBe(before);
  const size = checked(thumb);
  expect(size.width).toBeLessThanOrEqual(320);
  expect(thumb.length).toBeLessThanOrEqual(40 * 1024);
  const [ours, cwebp] = await cpuMs(
    (dir) => pictureThumbnail(run, page, dir),
    async (dir) => {
      await run([RASTER_TOOLS.cwebp, "-quiet", "-lossless", "-resize", "320", "0", page, "-o", join(dir, "t.webp")]);
      await run([RASTER_TOOLS.dwebp, "-quiet", join(dir, "t.webp"), "-o", join(dir, "t.png")]);
    },
  );
  console.log(
    `image report thumbnail: ${ours.toFixed(1)} ms of CPU, cwebp + dwebp ${cwebp.toFixed(1)} ms (ratio ${(ours / cwebp).toFixed(2)})`,
  );
  expect(ours / cwebp).toBeLessThan(0.3);
});
