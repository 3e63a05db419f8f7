// RateLimiter: token buckets with an injected clock.
import { describe, expect, test } from "bun:test";
import { RateLimiter } from "../../src/lib/rate-limit";

const T0 = 1_700_000_000_000;

describe("RateLimiter", () => {
  test("a full bucket allows `burst` takes at once, then reports the wait in seconds", () => {
    const rl = new RateLimiter(2, 1000, 4);
    expect([0, 1, 2, 3].map(() => rl.take("k", T0))).toEqual([0, 0, 0, 0]);
    expect(rl.take("k", T0)).toBeCloseTo(0.5, 10);
    // A refused take costs nothing: the wait stays the same.
    expect(rl.take("k", T0)).toBeCloseTo(0.5, 10);
  });

  test("tokens refill at `rate` per `perMs`", () => {
    const rl = new RateLimiter(2, 1000, 4);
    for (let i = 0; i < 4; i++) rl.take("k", T0);
    expect(rl.take("k", T0 + 250)).toBeCloseTo(0.25, 10);
    expect(rl.take("k", T0 + 500)).toBe(0);
    expect(rl.take("k", T0 + 500)).toBeCloseTo(0.5, 10);
    expect(rl.take("k", T0 + 1500)).toBe(0);
    expect(rl.take("k", T0 + 1500)).toBe(0);
    expect(rl.take("k", T0 + 1500)).toBeGreaterThan(0);
  });

  test("refill is capped at `burst`", () => {
    const rl = new RateLimiter(2, 1000, 4);
    rl.take("k", T0);
    const later = T0 + 3_600_000;
    expect([0, 1, 2, 3].map(() => rl.take("k", later))).toEqual([0, 0, 0, 0]);
    expect(rl.take("k", later)).toBeGreaterThan(0);
  });

  test("keys have independent buckets", () => {
    const rl = new RateLimiter(1, 1000, 1);
    expect(rl.take("a", T0)).toBe(0);
    expect(rl.take("a", T0)).toBeGreaterThan(0);
    expect(rl.take("b", T0)).toBe(0);
    expect(rl.take("c", T0)).toBe(0);
  });

  test("wait() reports without taking", () => {
    const rl = new RateLimiter(3, 60_000, 3);
    expect(rl.wait("ip", T0)).toBe(0);
    expect(rl.wait("ip", T0)).toBe(0);
    for (let i = 0; i < 3; i++) rl.take("ip", T0);
    expect(rl.wait("ip", T0)).toBeCloseTo(20, 10); // one token per 20 s
    expect(rl.wait("ip", T0)).toBeCloseTo(20, 10);
    expect(rl.wait("ip", T0 + 10_000)).toBeCloseTo(10, 10);
    expect(rl.wait("ip", T0 + 20_000)).toBe(0);
    // wait() did not consume: the token is still there to take.
    expect(rl.take("ip", T0 + 20_000)).toBe(0);
    expect(rl.take("ip", T0 + 20_000)).toBeGreaterThan(0);
  });

  test("a per-minute budget (the failed-auth limiter's shape)", () => {
    const rl = new RateLimiter(30, 60_000, 30);
    for (let i = 0; i < 30; i++) expect(rl.take("ip", T0)).toBe(0);
    expect(rl.take("ip", T0)).toBeCloseTo(2, 10);
    expect(rl.take("ip", T0 + 2_000)).toBe(0);
  });

  test("a clock going backwards does not mint tokens", () => {
    const rl = new RateLimiter(1, 1000, 2);
    rl.take("k", T0);
    rl.take("k", T0);
    expect(rl.take("k", T0 - 10_000)).toBeGreaterThan(0);
  });

  test("past 100 000 keys, full buckets are pruned and partial ones kept", () => {
    const rl = new RateLimiter(1, 1000, 2);
    const size = () => (rl as unknown as { buckets: Map<string, unknown> }).buckets.size;
    for (let i = 0; i < 100_000; i++) rl.take(`k${i}`, T0);
    rl.take("busy", T0 + 4_500);
    rl.take("busy", T0 + 4_500);
    expect(size()).toBe(100_001);
    // At T0+5 s every k* bucket is full again; "busy" holds half a token.
    expect(rl.take("newcomer", T0 + 5_000)).toBe(0);
    expect(size()).toBe(2);
    expect(rl.take("busy", T0 + 5_000)).toBeCloseTo(0.5, 10);
  });
});
