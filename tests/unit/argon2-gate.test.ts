// Argon2Gate: checked verifications run at once on a few slots; unchecked ones (keys older than check
// values) are paced and refused beyond a short queue, so a flood of them has a fixed CPU ceiling.
import { expect, test } from "bun:test";
import { Argon2Gate } from "../../src/modules/keys/argon2-gate";

test("run: at most `concurrency` at once, the rest wait their turn", async () => {
  const gate = new Argon2Gate({ concurrency: 2, pacedPerSecond: 100, pacedQueueMax: 10 });
  let running = 0;
  let peak = 0;
  const job = () =>
    gate.run(async () => {
      peak = Math.max(peak, ++running);
      await Bun.sleep(20);
      running--;
      return true;
    });
  expect(await Promise.all(Array.from({ length: 7 }, job))).toEqual(Array(7).fill(true));
  expect(peak).toBe(2);
});

test("paced: no more than pacedPerSecond start per second, and beyond the queue the attempt is refused", async () => {
  const gate = new Argon2Gate({ concurrency: 4, pacedPerSecond: 10, pacedQueueMax: 15 });
  const started: number[] = [];
  const t0 = performance.now();
  const results = await Promise.all(Array.from({ length: 30 }, () => gate.paced(async () => (started.push(performance.now() - t0), true))));
  // A burst of 10 starts at once, 15 wait, the last 5 are refused.
  expect(results.filter((r) => r === undefined).length).toBe(5);
  expect(started.length).toBe(25);
  // Then 10 per second: the 25th starts about 1.5 s in.
  expect(Math.max(...started)).toBeGreaterThan(1200);
});

test("checked verifications are not held up by paced ones", async () => {
  // Counted, not timed: behind the paced queue (1 a second), the checked one would start after ~30 of
  // them; it starts while at most the first few have (one token at once, then one a second).
  const gate = new Argon2Gate({ concurrency: 2, pacedPerSecond: 1, pacedQueueMax: 50 });
  let pacedStarted = 0;
  void Promise.all(Array.from({ length: 30 }, () => gate.paced(async () => void pacedStarted++)));
  const before = await gate.run(async () => pacedStarted);
  expect(before).toBeLessThanOrEqual(3);
});
