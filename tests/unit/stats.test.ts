import { expect, test } from "bun:test";
import { median, percentile } from "../../src/lib/stats";

test("percentile interpolates between ranks; median of an even count is the mean of the middle two", () => {
  expect(median([3, 1, 2])).toBe(2);
  expect(median([4, 1, 3, 2])).toBe(2.5);
  expect(percentile([10, 20, 30, 40, 50], 0.9)).toBe(46);
  expect(percentile([7], 0.99)).toBe(7);
  expect(percentile([], 0.5)).toBeNaN();
});
