// What the rasteriser's pictures cost (issue 44: a PNG invoice <= 1.2x the PDF's CPU, a thumbnail <= 5 %),
// on a real invoice printed by reportgen (docs/examples/invoice-de.pdf, A4) with the real pdftoppm, zlib
// and pngcheck. Each cost is CPU, the tools' (their rusage) and this process's (all its threads: zlib
// runs in the thread pool), held against a baseline measured in the same test, so that a busy machine
// moves both: poppler's own PNG encoding of the same picture (pdftoppm -png), pdftoppm's drawing alone
// for a PDF's thumbnail, and for an image report's thumbnail what it used to be (cwebp and dwebp). Best
// of seven runs each: other load only adds.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ImageFormat, pdfThumbnail, pictureThumbnail, RASTER_TOOLS, rasterise, type ToolRunner } from "../../src/pdf/raster";
import { pngPixels } from "../helpers/png-pixels";

setDefaultTimeout(120_000);

const PDF = join(import.meta.dir, "../../docs/examples/invoice-de.pdf");
const A4 = { width: 595.92, height: 842.88 };
const root = mkdtempSync(join(tmpdir(), "rg-raster-cost-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let tools = 0;
/** Runs the tools as the service does (its environment over this one's) and adds up their CPU (µs). */
const run: ToolRunner = async (cmd, env) => {
  const p = Bun.spawn({ cmd, env: env ? { ...process.env, ...env } : undefined, stdout: "ignore", stderr: "pipe" });
  if ((await p.exited) !== 0) throw new Error(`${cmd[0]} failed: ${await new Response(p.stderr).text()}`);
  tools += Number(p.resourceUsage()!.cpuTime.total);
};

/** The least CPU (ms) of seven runs of `work`, each in a fresh folder: tools and this process together. */
async function cpuMs(work: (dir: string) => Promise<unknown>): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 7; i++) {
    const dir = mkdtempSync(join(root, "run-"));
    const [t0, own0] = [tools, process.cpuUsage()];
    await work(dir);
    const own = process.cpuUsage(own0);
    best = Math.min(best, (tools - t0 + own.user + own.system) / 1000);
  }
  return best;
}

/** Passes pngcheck; resolves with its size in pixels. */
function checked(png: Uint8Array): { width: number; height: number } {
  const file = join(root, "checked.png");
  writeFileSync(file, png);
  expect(Bun.spawnSync(["pngcheck", file]).exitCode).toBe(0);
  return pngPixels(png);
}

test("a page as a PNG at 150 dpi costs under half of poppler's own PNG of it", async () => {
  const request = { format: "png" as ImageFormat, first: 1, last: 1, dpi: 150, page: A4 };
  const ours = await cpuMs((dir) => rasterise(run, PDF, dir, request));
  const poppler = await cpuMs((dir) =>
    run([RASTER_TOOLS.pdftoppm, "-scale-to-x", "1240", "-scale-to-y", "1754", "-png", PDF, join(dir, "p")]),
  );
  const made = checked(readFileSync((await rasterise(run, PDF, mkdtempSync(join(root, "size-")), request))[0]!));
  expect(made).toMatchObject({ width: 1240, height: 1754 });
  console.log(`PNG page: ${ours.toFixed(1)} ms of CPU, pdftoppm -png ${poppler.toFixed(1)} ms (ratio ${(ours / poppler).toFixed(2)})`);
  expect(ours / poppler).toBeLessThan(0.45);
});

test("a PDF's thumbnail costs little more than pdftoppm's drawing of it: no PNG encoding by poppler, no second run", async () => {
  const size = checked(await pdfThumbnail(run, PDF, mkdtempSync(join(root, "size-"))));
  expect(size.width).toBe(320);
  const ours = await cpuMs((dir) => pdfThumbnail(run, PDF, dir));
  const drawing = await cpuMs((dir) =>
    run([RASTER_TOOLS.pdftoppm, "-scale-to-x", "320", "-scale-to-y", "-1", "-singlefile", PDF, join(dir, "t")]),
  );
  console.log(
    `PDF thumbnail: ${ours.toFixed(1)} ms of CPU, pdftoppm's PPM ${drawing.toFixed(1)} ms (ratio ${(ours / drawing).toFixed(2)})`,
  );
  // pdftoppm's own PNG encoding (what the thumbnail was) nearly doubled it.
  expect(ours / drawing).toBeLessThan(1.4);
});

test("an image report's thumbnail is made from its PNG without a process, for a fraction of cwebp's", async () => {
  const page = (await rasterise(run, PDF, mkdtempSync(join(root, "page-")), { format: "png", first: 1, last: 1, dpi: 150, page: A4 }))[0]!;
  const before = tools;
  const thumb = await pictureThumbnail(run, page, mkdtempSync(join(root, "thumb-")));
  expect(tools).toBe(before);
  const size = checked(thumb);
  expect(size.width).toBeLessThanOrEqual(320);
  expect(thumb.length).toBeLessThanOrEqual(40 * 1024);
  const ours = await cpuMs((dir) => pictureThumbnail(run, page, dir));
  const cwebp = await cpuMs(async (dir) => {
    await run([RASTER_TOOLS.cwebp, "-quiet", "-lossless", "-resize", "320", "0", page, "-o", join(dir, "t.webp")]);
    await run([RASTER_TOOLS.dwebp, "-quiet", join(dir, "t.webp"), "-o", join(dir, "t.png")]);
  });
  console.log(
    `image report thumbnail: ${ours.toFixed(1)} ms of CPU, cwebp + dwebp ${cwebp.toFixed(1)} ms (ratio ${(ours / cwebp).toFixed(2)})`,
  );
  expect(ours / cwebp).toBeLessThan(0.3);
});
