// The pixel comparison of golden samples and `reportgen diff` (src/pdf/compare.ts) on made-up frames:
// the tolerance's edge, pages of different sizes, pages added and removed, and the diff picture's colours.
import { expect, test } from "bun:test";
import { compareFrames, diffFrames } from "../../src/pdf/compare";
import type { Frame } from "../../src/pdf/raster";

const frame = (width: number, height: number, rgb = 255): Frame => ({ width, height, rgb: new Uint8Array(width * height * 3).fill(rgb) });

test("identical pages: ratio 0 and no picture", () => {
  expect(diffFrames(frame(4, 4, 200), frame(4, 4, 200), 0.1)).toEqual({ changedRatio: 0 });
});

test("a pixel counts only when a channel differs by more than tolerance x 255", () => {
  const a = frame(4, 4);
  const within = frame(4, 4);
  within.rgb[1] = 255 - 25; // 25 <= floor(0.1 * 255)
  expect(diffFrames(a, within, 0.1).changedRatio).toBe(0);
  const beyond = frame(4, 4);
  beyond.rgb[5 * 3 + 2] = 255 - 26;
  const d = diffFrames(a, beyond, 0.1);
  expect(d.changedRatio).toBe(1 / 16);
  // The changed pixel is red; the others are the page faded (white stays white).
  expect([...d.diff!.rgb.subarray(15, 18)]).toEqual([
    255,
    (((255 * 77 + 255 * 150 + 229 * 29) >> 8) * 90) >> 8,
    (((255 * 77 + 255 * 150 + 229 * 29) >> 8) * 90) >> 8,
  ]);
  expect([...d.diff!.rgb.subarray(0, 3)]).toEqual([255, 255, 255]);
});

test("pages of different sizes: the pixels only one of them has are changed", () => {
  const d = diffFrames(frame(4, 4), frame(4, 5), 0.1);
  expect(d.changedRatio).toBe(4 / 20);
  expect([d.diff!.width, d.diff!.height]).toEqual([4, 5]);
});

test("a page added or removed is wholly changed, and the page counts differ", () => {
  const c = compareFrames([frame(2, 2)], [frame(2, 2), frame(2, 2, 0)], 0.1);
  expect(c).toMatchObject({ pagesBefore: 1, pagesAfter: 2, same: false });
  expect(c.pages.map((p) => [p.page, p.changedRatio, !!p.diff, !!p.before, !!p.after])).toEqual([
    [1, 0, false, false, false],
    [2, 1, true, false, true],
  ]);
  expect(compareFrames([frame(2, 2), frame(2, 2)], [frame(2, 2)], 0.1).pages[1]).toMatchObject({ changedRatio: 1, after: undefined });
  expect(compareFrames([frame(2, 2)], [frame(2, 2)], 0.1).same).toBe(true);
});
