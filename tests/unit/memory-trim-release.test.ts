// What only a quiet period may give back (SQLite's page cache, app.ts) is released by the quiet trim,
// never by a collection during work, when the cache holds the rows in use.
import { expect, test } from "bun:test";
import { createLogger } from "../../src/lib/logger";
import { BURST_GROWTH_BYTES, MemoryTrim } from "../../src/lib/memory-trim";

test("the quiet trim releases the quiet-only memory; a collection during a burst does not", async () => {
  let released = 0;
  let collectedOthers = 0;
  let rss = 100 * 1024 * 1024;
  const trim = new MemoryTrim({
    quietMs: 600_000,
    logger: createLogger("error"),
    collectOthers: () => collectedOthers++,
    releaseWhenQuiet: () => released++,
    rss: () => rss,
  });
  trim.trim();
  expect([released, collectedOthers]).toEqual([1, 1]);

  trim.start();
  try {
    rss += 2 * BURST_GROWTH_BYTES; // a burst: growth past the threshold, seen within a second or two
    for (let waited = 0; trim.burstCollections === 0 && waited < 20_000; waited += 100) await Bun.sleep(100);
    expect(trim.burstCollections).toBeGreaterThan(0);
    expect(collectedOthers).toBeGreaterThan(1);
    expect(released).toBe(1);
  } finally {
    trim.stop();
  }
});
