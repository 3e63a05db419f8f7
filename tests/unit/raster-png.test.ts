// The rasteriser's own PNG writing (src/pdf/raster.ts) on made-up pages: a grey PNG, and an image report's page shrunk to its thumbnail without a
// process. Every PNG passes Debian's pngcheck and is decoded by the tests' own decoder (tests/helpers).
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { rgbPng } from "../../src/lib/png";
import { framePng, greyPng, pngThumbnail, THUMBNAIL } from "../../src/pdf/raster";
import { pngPixels } from "../helpers/png-pixels";

const dir = mkdtempSync(join(tmpdir(), "rg-raster-png-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Passes pngcheck (the PNG's structure, CRCs and zlib stream, checked by an independent tool). */
function pngchecked(png: Uint8Array): Uint8Array {
  const file = join(dir, `${Bun.hash(png).toString(16)}.png`);
  writeFileSync(file, png);
  const r = Bun.spawnSync(["pngcheck", file]);
  expect(r.exitCode, r.stdout.toString()).toBe(0);
  return png;
}

/** A page of `width` x `height` whose every sample depends on its place; `busy` false: bands that compress well. */
function page(width: number, height: number, busy = true): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      if (busy) rgb.set([(x * 7 + y) & 255, (y * 3) & 255, (x ^ y) & 255], i);
      else rgb.set([((x >> 5) * 9 + (x & 3)) & 255, ((y >> 6) * 13 + (y & 3)) & 255, 240 + (x & 3) + (y & 3)], i);
    }
  return rgb;
}

test("a grey PNG holds each pixel's luma with poppler's weights", async () => {
  const rgb = Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 200, 200, 200]);
  const png = pngchecked(await greyPng({ width: 2, height: 2, rgb }));
  const p = pngPixels(png);
  expect([p.width, p.height, p.channels]).toEqual([2, 2, 1]);
  expect([...p.data]).toEqual([77, 150, 28, 200]);
});

test("an image report's page (an A4 PNG at 150 dpi) becomes a thumbnail at most THUMBNAIL.width wide: each pixel a 4 x 4 block's mean", async () => {
  const [width, height] = [1240, 1754];
  const rgb = page(width, height, false);
  const thumb = pngchecked((await pngThumbnail(await framePng({ width, height, rgb })))!);
  const p = pngPixels(thumb);
  expect([p.width, p.height, p.channels]).toEqual([310, 438, 3]);
  expect(p.width).toBeLessThanOrEqual(THUMBNAIL.width);
  for (const [x, y] of [
    [0, 0],
    [101, 57],
    [309, 437],
  ] as const)
    for (let c = 0; c < 3; c++) {
      let sum = 0;
      for (let dy = 0; dy < 4; dy++) for (let dx = 0; dx < 4; dx++) sum += rgb[((y * 4 + dy) * width + x * 4 + dx) * 3 + c]!;
      expect(p.data[(y * p.width + x) * 3 + c]).toBe(Math.round(sum / 16));
    }
});

test("a page whose thumbnail does not fit in THUMBNAIL.maxBytes in colour gets it in grey", async () => {
  const thumb = pngchecked((await pngThumbnail(await framePng({ width: 1240, height: 1754, rgb: page(1240, 1754) })))!);
  expect(pngPixels(thumb).channels).toBe(1);
  expect(thumb.length).toBeLessThanOrEqual(THUMBNAIL.maxBytes);
});

test("a PNG that is not reportgen's own page (filtered rows, grey, or not a PNG) is left to cwebp", async () => {
  const filtered = new Uint8Array([1, 10, 20, 30, 5, 5, 5]); // one row of 2 pixels, filter 1 (Sub)
  expect(await pngThumbnail(rgbPng(2, 1, deflateSync(filtered)))).toBeUndefined();
  expect(await pngThumbnail(await greyPng({ width: 1, height: 1, rgb: Uint8Array.from([1, 2, 3]) }))).toBeUndefined();
  expect(await pngThumbnail(new TextEncoder().encode("GIF89a, not a PNG at all, long enough"))).toBeUndefined();
});
