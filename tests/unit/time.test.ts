// parseDuration / parseSize: the human units settings are written in.
import { describe, expect, test } from "bun:test";
import { iso, parseDuration, parseSize, RFC3339_DATE_TIME } from "../../src/lib/time";

describe("parseDuration", () => {
  const good: [string, number][] = [
    ["0", 0],
    ["100", 100],
    ["500ms", 500],
    ["1s", 1_000],
    ["30s", 30_000],
    ["5m", 300_000],
    ["1h", 3_600_000],
    ["7d", 604_800_000],
    ["1h30m", 5_400_000],
    ["1d2h3m4s5ms", 86_400_000 + 7_200_000 + 180_000 + 4_000 + 5],
    ["1m1ms", 60_001],
    ["1.5s", 1_500],
    ["0.5m", 30_000],
    ["2.5ms", 3],
    ["  10s  ", 10_000],
    ["10m10m", 1_200_000],
  ];
  for (const [text, ms] of good) {
    test(`${JSON.stringify(text)} → ${ms} ms`, () => expect(parseDuration(text)).toBe(ms));
  }

  const bad = [
    "",
    "   ",
    "abc",
    "s",
    "ms",
    "5x",
    "5 s",
    "1h 30m",
    "-5s",
    "+5s",
    "5S",
    "5H",
    "1w",
    "1y",
    "5m10",
    "10sx",
    "1.s",
    ".5s",
    "1e3",
    "0x10",
    "Infinity",
    "NaN",
    "5min",
    "5sec",
  ];
  for (const text of bad) {
    test(`${JSON.stringify(text)} throws a readable error`, () => {
      expect(() => parseDuration(text)).toThrow(/is not a duration/);
    });
  }
});

describe("parseSize", () => {
  const good: [string, number][] = [
    ["0", 0],
    ["100", 100],
    ["10b", 10],
    ["10B", 10],
    ["1KB", 1024],
    ["512KB", 524_288],
    ["512kb", 524_288],
    ["10MB", 10 * 1024 ** 2],
    ["10 mb", 10 * 1024 ** 2],
    ["1GB", 1024 ** 3],
    ["1.5KB", 1_536],
    ["0.5MB", 524_288],
    [" 2KB ", 2_048],
  ];
  for (const [text, bytes] of good) {
    test(`${JSON.stringify(text)} → ${bytes} bytes`, () => expect(parseSize(text)).toBe(bytes));
  }

  const bad = ["", "abc", "KB", "10TB", "10 K", "10k", "-1KB", "+1KB", "1e3", "10MBs", "10 MB B", "1,5MB", "0x10", ".5MB", "Infinity"];
  for (const text of bad) {
    test(`${JSON.stringify(text)} throws a readable error`, () => {
      expect(() => parseSize(text)).toThrow(/is not a size/);
    });
  }
});

describe("iso", () => {
  test("formats epoch ms as ISO 8601 UTC; null and undefined stay null", () => {
    expect(iso(0)).toBe("1970-01-01T00:00:00.000Z");
    expect(iso(1_700_000_000_123)).toBe("2023-11-14T22:13:20.123Z");
    expect(iso(null)).toBeNull();
    expect(iso(undefined)).toBeNull();
  });

  test("the cached value is the same string for every timestamp, over more values than the cache holds", () => {
    for (let i = 0; i < 25_000; i++) {
      const ms = 1_700_000_000_000 + i * 997;
      expect(iso(ms)).toBe(new Date(ms).toISOString());
    }
    expect(iso(1_700_000_000_000)).toBe("2023-11-14T22:13:20.000Z");
  });
});

describe("RFC3339_DATE_TIME (the date-time format of response schemas)", () => {
  const good = [
    "2026-11-22T08:23:54.021Z",
    "1970-01-01T00:00:00Z",
    "2026-02-28T23:59:60.5+01:00",
    "2026-12-31t10:00:00z",
    "2026-06-30T10:00:00-05:30",
    new Date().toISOString(),
  ];
  for (const v of good) test(`accepts ${v}`, () => expect(RFC3339_DATE_TIME.test(v)).toBe(true));
  const bad = [
    "",
    "2026-11-22",
    "2026-11-22T08:23Z",
    "2026-13-01T00:00:00Z",
    "2026-00-10T00:00:00Z",
    "2026-11-32T00:00:00Z",
    "2026-11-22T24:00:00Z",
    "2026-11-22T08:60:00Z",
    "2026-11-22 08:23:54Z",
    "2026-11-22T08:23:54",
    "2026-11-22T08:23:54+0100",
    "Sun Nov 22 2026 08:23:54 GMT+0000 (UTC)",
    "x2026-11-22T08:23:54Z",
    "2026-11-22T08:23:54Zx",
  ];
  for (const v of bad) test(`refuses ${JSON.stringify(v)}`, () => expect(RFC3339_DATE_TIME.test(v)).toBe(false));
});
