import { describe, expect, test } from "bun:test";
import { ByteBudget } from "../../src/lib/byte-budget";

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("ByteBudget", () => {
  test("tasks that fit together run together; one that does not waits for a release", async () => {
    const budget = new ByteBudget(100);
    const a = await budget.take(40);
    const b = await budget.take(60);
    let started = false;
    const c = budget.take(10).then((release) => {
      started = true;
      return release;
    });
    await tick();
    expect(started).toBe(false);
    a();
    await tick();
    expect(started).toBe(true);
    b();
    (await c)();
  });

  test("a task larger than the budget runs alone rather than never", async () => {
    const budget = new ByteBudget(100);
    const big = await budget.take(500);
    let small = false;
    const next = budget.take(1).then((r) => {
      small = true;
      return r;
    });
    await tick();
    expect(small).toBe(false);
    big();
    (await next)();
    expect(small).toBe(true);
  });

  test("waiters go first in, first out, and each is counted before the next is measured", async () => {
    const budget = new ByteBudget(100);
    const first = await budget.take(100);
    const order: string[] = [];
    const big = budget.take(80).then((r) => (order.push("big"), r));
    const small = budget.take(30).then((r) => (order.push("small"), r));
    await tick();
    first();
    const releaseBig = await big;
    await tick();
    // 80 + 30 > 100: the small one waits although it came second and would fit alone.
    expect(order).toEqual(["big"]);
    releaseBig();
    (await small)();
    expect(order).toEqual(["big", "small"]);
  });

  test("a release given twice counts once", async () => {
    const budget = new ByteBudget(100);
    const a = await budget.take(100);
    a();
    a();
    const b = await budget.take(100);
    let c = false;
    budget.take(1).then(() => (c = true));
    await tick();
    expect(c).toBe(false);
    b();
    await tick();
    expect(c).toBe(true);
  });
});
