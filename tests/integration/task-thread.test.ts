// The supervised task thread (src/lib/task-thread.ts) that the rasteriser and the data_schema validator run
// on, with a real worker thread (tests/helpers/task-thread-probe.ts): results come back; a task that spins
// past its deadline fails with the owner's error and the next task gets a new thread; a thread that ends or
// a task that throws fails that task only; an idle thread ends and the next task starts a new one; a full
// queue is refused at once.
import { afterEach, expect, test } from "bun:test";
import { createLogger } from "../../src/lib/logger";
import { ChildRegistry } from "../../src/lib/supervisor";
import { TaskThread, type TaskThreadOptions } from "../../src/lib/task-thread";
import type { ProbeTask } from "../helpers/task-thread-probe";

class Overran extends Error {}
class Busy extends Error {}
class Failed extends Error {}

const threads: TaskThread<ProbeTask, { value: number; thread: number }>[] = [];
afterEach(async () => {
  for (const t of threads.splice(0)) await t.stop();
});

function probe(o: Partial<TaskThreadOptions> = {}) {
  const t = new TaskThread<ProbeTask, { value: number; thread: number }>({
    kind: "rasteriser",
    name: "probe",
    entry: new URL("../helpers/task-thread-probe.ts", import.meta.url),
    timeoutMs: 400,
    nice: 0,
    startTimeoutMs: 10_000,
    queueMax: 4,
    logger: createLogger("error"),
    errors: {
      overran: (what, s) => new Overran(`${what} took longer than ${s} s`),
      busy: (reason) => new Busy(reason),
      failed: (message) => new Failed(message),
    },
    ...o,
  });
  threads.push(t);
  return t;
}

test("tasks run in one thread, in order, and their results come back", async () => {
  const t = probe();
  const results = await Promise.all([1, 2, 3].map((value) => t.run({ do: "echo", value }, "echo")));
  expect(results.map((r) => r.value)).toEqual([1, 2, 3]);
  expect(new Set(results.map((r) => r.thread)).size).toBe(1);
});

test("a task past its deadline fails with the owner's error; the next task gets a new thread", async () => {
  const registry = new ChildRegistry();
  const t = probe();
  t.start(registry);
  const first = await t.run({ do: "echo", value: 1 }, "echo");
  await expect(t.run({ do: "spin" }, "spinning")).rejects.toThrow(new Overran("spinning took longer than 0.4 s"));
  const next = await t.run({ do: "echo", value: 2 }, "echo");
  expect(next.value).toBe(2);
  expect(next.thread).not.toBe(first.thread);
  expect(registry.stats().rasteriser.recycles).toBe(1);
});

test("a thread that ends, or a task that throws, fails that task only", async () => {
  const t = probe();
  await expect(t.run({ do: "throw" }, "throwing")).rejects.toThrow(new Failed("the probe was told to fail"));
  await expect(t.run({ do: "exit" }, "exiting")).rejects.toBeInstanceOf(Failed);
  expect((await t.run({ do: "echo", value: 7 }, "echo")).value).toBe(7);
});

test("an idle thread ends after idleStopMs; the next task starts a new one", async () => {
  const registry = new ChildRegistry();
  const t = probe({ idleStopMs: 200 });
  t.start(registry);
  const first = await t.run({ do: "echo", value: 1 }, "echo");
  expect(registry.stats().rasteriser.children).toBe(1);
  await Bun.sleep(600);
  expect(registry.stats().rasteriser.children).toBe(0);
  const second = await t.run({ do: "echo", value: 2 }, "echo");
  expect(second.thread).not.toBe(first.thread);
  // Rest is not a failure.
  expect(registry.stats().rasteriser.restarts).toBe(0);
});

test("beyond queueMax waiting tasks, a task is refused at once; stop fails the running and waiting ones, and every later one", async () => {
  const t = probe({ timeoutMs: 2_000 });
  const spinning = t.run({ do: "spin" }, "spinning").catch((e) => e);
  await Bun.sleep(300);
  const waiting = [1, 2, 3, 4].map((value) => t.run({ do: "echo", value }, "echo").catch((e) => e));
  await expect(t.run({ do: "echo", value: 5 }, "echo")).rejects.toBeInstanceOf(Busy);
  await t.stop();
  for (const w of await Promise.all(waiting)) expect(w).toBeInstanceOf(Busy);
  expect(await spinning).toBeInstanceOf(Busy);
  await expect(t.run({ do: "echo", value: 6 }, "echo")).rejects.toBeInstanceOf(Busy);
});
