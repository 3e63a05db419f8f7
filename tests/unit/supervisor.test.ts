// The supervisor's own logic with fake children: start timeout, backoff and its reset, the health
// probe's threshold, planned replacements, restart counts, and a child dying before it is ready.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isRetryable } from "../../src/lib/error-codes";
import { RenderError } from "../../src/lib/errors";
import { createLogger, type Logger } from "../../src/lib/logger";
import { backoffDelay, type Child, type ChildFailure, ChildRegistry, Supervisor, type SupervisorOptions } from "../../src/lib/supervisor";
import { chromiumTmpDir, removeWorkerTemp } from "../../src/lib/temp";
import { classifyRenderFailure } from "../../src/render/render-failure";

interface Fake extends Child {
  n: number;
  killed: boolean;
  died: (cause: string) => void;
  becomeReady: () => void;
  failStart: (e: Error) => void;
  probeOk: boolean;
}

function recordingLogger() {
  const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
  const base = createLogger("error");
  const logger: Logger = { ...base, warn: (msg, fields) => void lines.push({ msg, fields }) };
  return { logger, lines };
}

/** A supervisor whose children start when told, or at once with `autoReady`. */
function setup(o: Partial<SupervisorOptions<Fake>> & { autoReady?: boolean } = {}) {
  const made: Fake[] = [];
  const { logger, lines } = recordingLogger();
  const registry = new ChildRegistry();
  const sup = new Supervisor<Fake>({
    kind: "sandbox",
    name: "fake",
    startTimeoutMs: 1_000,
    backoff: { initialMs: 20, maxMs: 80, resetAfterMs: 200 },
    logger,
    registry,
    create: (died) => {
      let ready!: () => void;
      let fail!: (e: Error) => void;
      const started = new Promise<void>((res, rej) => ((ready = res), (fail = rej)));
      const c: Fake = {
        n: made.length,
        killed: false,
        died,
        becomeReady: ready,
        failStart: fail,
        probeOk: true,
        start: () => started,
        kill: async () => void (c.killed = true),
        probe: async () => c.probeOk,
      };
      if (o.autoReady !== false) queueMicrotask(ready);
      made.push(c);
      return c;
    },
    ...o,
  });
  return { sup, made, lines, registry };
}

const until = async (what: string, fn: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(2);
  }
};

describe("Supervisor", () => {
  test("backoff doubles from the initial delay up to the cap", () => {
    const b = { initialMs: 250, maxMs: 30_000, resetAfterMs: 30_000 };
    expect([1, 2, 3, 4, 5, 8, 9, 50].map((n) => backoffDelay(n, b))).toEqual([250, 500, 1000, 2000, 4000, 30_000, 30_000, 30_000]);
  });

  test("a child that dies before it is ready: start() still settles, the next one is started after a delay", async () => {
    const { sup, made, lines } = setup({ autoReady: false });
    const started = sup.start();
    made[0]!.died("exited with code 1");
    await started; // did not hang (the old sandbox pool lost this resolver)
    expect(sup.ready).toBe(false);
    await until("a second child", () => made.length === 2);
    made[1]!.becomeReady();
    await sup.whenReady();
    expect(sup.healthy).toBe(true);
    expect(made[0]!.killed).toBe(true);
    expect(lines[0]).toMatchObject({
      msg: "sandbox child could not start; replacing it",
      fields: { cause: "exited with code 1", restarts: 1, restart_in_ms: 20 },
    });
    await sup.stop();
  });

  test("failed starts back off exponentially up to the cap; a start timeout counts as a failure", async () => {
    const { sup, made, lines } = setup({ autoReady: false, startTimeoutMs: 30 });
    void sup.start();
    await until("five attempts", () => made.length >= 5, 5_000);
    await sup.stop();
    const delays = lines.map((l) => l.fields!.restart_in_ms);
    expect(delays.slice(0, 4)).toEqual([20, 40, 80, 80]);
    expect(String(lines[0]!.fields!.cause)).toContain("did not become ready within 30 ms");
    expect(made.slice(0, 4).every((c) => c.killed)).toBe(true);
  });

  test("a crash after a healthy period restarts after the initial delay again", async () => {
    const { sup, made, lines } = setup();
    await sup.start();
    made[0]!.died("boom");
    await sup.whenReady();
    made[1]!.died("boom");
    await sup.whenReady();
    expect(lines.map((l) => l.fields!.restart_in_ms)).toEqual([20, 40]);
    await Bun.sleep(220); // longer than resetAfterMs
    made[2]!.died("boom");
    await sup.whenReady();
    expect(lines.map((l) => l.fields!.restart_in_ms)).toEqual([20, 40, 20]);
    expect(sup.restarts).toBe(3);
    await sup.stop();
  });

  test("a hung child is found by the probe: one failure tolerated, the second replaces it; onDown sees a hang", async () => {
    const downs: { cause: string; hang: boolean }[] = [];
    const { sup, made } = setup({ probe: { intervalMs: 10, timeoutMs: 20, failures: 2 }, onDown: (_c, f) => downs.push(f) });
    await sup.start();
    made[0]!.probe = () => new Promise(() => {}); // frozen: never answers
    await until("the first failure", () => !sup.healthy);
    expect(sup.ready).toBe(true); // one failed probe: reported unhealthy, not yet replaced
    await until("a replacement", () => made.length === 2);
    expect(downs).toHaveLength(1);
    expect(downs[0]!.hang).toBe(true);
    expect(downs[0]!.cause).toContain("health probe failed 2 times");
    expect(made[0]!.killed).toBe(true);
    await sup.whenReady();
    expect(sup.healthy).toBe(true);
    await sup.stop();
  });

  test("planned replacements restart at once, are not counted as restarts and log no warning", async () => {
    const { sup, made, lines, registry } = setup();
    await sup.start();
    sup.fail(made[0], "template_timeout", { planned: true });
    await sup.whenReady();
    expect(made).toHaveLength(2);
    expect(lines).toEqual([]);
    expect(registry.stats().sandbox).toEqual({ children: 1, healthy: 1, restarts: 0, recycles: 1 });
    // A stale report about an old generation changes nothing.
    made[0]!.died("late exit");
    expect(sup.restarts).toBe(0);
    await sup.stop();
    expect(made[1]!.killed).toBe(true);
    // Counts survive the supervisor's stop.
    expect(registry.stats().sandbox).toEqual({ children: 0, healthy: 0, restarts: 0, recycles: 1 });
    expect(registry.stats().chromium).toEqual({ children: 0, healthy: 0, restarts: 0, recycles: 0 });
  });

  describe("replace(): a planned replacement without a gap", () => {
    /** A supervisor whose children are drained when the test says so. */
    function withDrain(o: Partial<SupervisorOptions<Fake>> = {}) {
      const drains = new Map<Fake, () => void>();
      const downs: { child: Fake; failure: ChildFailure }[] = [];
      const s = setup({
        autoReady: false,
        drained: (c) => new Promise<void>((resolve) => drains.set(c, resolve)),
        onDown: (child, failure) => void downs.push({ child, failure }),
        ...o,
      });
      return { ...s, drains, downs };
    }

    test("the new child starts while the old one stays current; the old one retires once drained", async () => {
      const { sup, made, drains, registry, lines } = withDrain();
      const started = sup.start();
      made[0]!.becomeReady();
      await started;
      expect(sup.replace(made[0]!, "recycled after 3 renders")).toBe(true);
      // Starting: the old child is still the one that gets work, and the supervisor stays ready.
      expect(made).toHaveLength(2);
      expect(sup.child).toBe(made[0]);
      expect(sup.ready).toBe(true);
      // A second request while one is starting changes nothing.
      expect(sup.replace(made[0]!, "again")).toBe(false);
      expect(made).toHaveLength(2);
      made[1]!.becomeReady();
      await until("the switch", () => sup.child === made[1]);
      expect(sup.ready).toBe(true);
      // The old one finishes its work before it is killed.
      await until("the drain to be asked for", () => drains.has(made[0]!));
      expect(made[0]!.killed).toBe(false);
      drains.get(made[0]!)!();
      await until("the old child killed", () => made[0]!.killed);
      expect(made[1]!.killed).toBe(false);
      expect(registry.stats().sandbox).toMatchObject({ children: 1, restarts: 0, recycles: 1 });
      expect(lines).toEqual([]);
      // Only the current child can be replaced.
      expect(sup.replace(made[0]!, "stale")).toBe(false);
      await sup.stop();
    });

    test("a successor that cannot start is discarded: the old child goes on, and the next attempt waits for the backoff", async () => {
      const { sup, made, lines } = withDrain();
      const started = sup.start();
      made[0]!.becomeReady();
      await started;
      expect(sup.replace(made[0]!, "recycle")).toBe(true);
      made[1]!.failStart(new Error("no Chromium"));
      await until("the failure", () => made[1]!.killed);
      expect(sup.child).toBe(made[0]);
      expect(made[0]!.killed).toBe(false);
      expect(sup.restarts).toBe(1);
      expect(lines[0]!.msg).toContain("replacement could not start");
      expect(sup.replace(made[0]!, "recycle")).toBe(false); // within the 20 ms backoff
      await Bun.sleep(30);
      expect(sup.replace(made[0]!, "recycle")).toBe(true);
      made[2]!.becomeReady();
      await until("the switch", () => sup.child === made[2]);
      await sup.stop();
      expect(made.every((c) => c.killed)).toBe(true);
    });

    test("the old child crashing while its successor starts: the successor takes over, no third child is made", async () => {
      const { sup, made } = withDrain();
      const started = sup.start();
      made[0]!.becomeReady();
      await started;
      sup.replace(made[0]!, "recycle");
      made[0]!.died("crashed");
      expect(sup.ready).toBe(false);
      await Bun.sleep(40); // longer than the backoff: no launch of its own
      expect(made).toHaveLength(2);
      made[1]!.becomeReady();
      await sup.whenReady();
      expect(sup.child).toBe(made[1]);
      await sup.stop();
    });

    test("a retiring child that does not finish in time is taken down as planned, its work failed", async () => {
      const { sup, made, downs } = withDrain({ retireTimeoutMs: 30 });
      const started = sup.start();
      made[0]!.becomeReady();
      await started;
      sup.replace(made[0]!, "recycle");
      made[1]!.becomeReady();
      await until("the old child killed", () => made[0]!.killed);
      expect(downs).toHaveLength(1);
      expect(downs[0]!.child).toBe(made[0]!);
      expect(downs[0]!.failure).toMatchObject({ planned: true, hang: true });
      expect(sup.child).toBe(made[1]);
      await sup.stop();
    });

    test("stop() kills the successor being started and the children retiring", async () => {
      const { sup, made } = withDrain();
      const started = sup.start();
      made[0]!.becomeReady();
      await started;
      sup.replace(made[0]!, "recycle");
      made[1]!.becomeReady();
      await until("the switch", () => sup.child === made[1]);
      sup.replace(made[1]!, "recycle");
      await sup.stop();
      expect(made.map((c) => c.killed)).toEqual([true, true, true]);
    });
  });

  test("nothing restarts after stop()", async () => {
    const { sup, made } = setup();
    await sup.start();
    await sup.stop();
    made[0]!.died("exited");
    await Bun.sleep(60);
    expect(made).toHaveLength(1);
    expect(sup.state).toBe("stopped");
  });
});

describe("classifyRenderFailure", () => {
  const ok = { browserGone: false, pageCrashed: false, pageClosed: false };
  const closed = new Error("Target page, context or browser has been closed");
  test.each([
    [
      "Chromium gone: never page_closed, even though every page reads as closed",
      closed,
      { ...ok, browserGone: true, pageClosed: true },
      "renderer_crashed",
      true,
    ],
    ["the page's renderer crashed", new Error("the page crashed while loading"), { ...ok, pageCrashed: true }, "renderer_crashed", true],
    [
      "a renderer crash during a timeout is still a crash",
      new RenderError("render_timeout", "took too long"),
      { ...ok, pageCrashed: true },
      "renderer_crashed",
      true,
    ],
    [
      "deadline passed and Chromium does not answer: frozen",
      new RenderError("render_timeout", "took too long"),
      { ...ok, browserResponsive: false },
      "renderer_unresponsive",
      true,
    ],
    [
      "deadline passed and Chromium answers: the page's own runaway JavaScript",
      new RenderError("render_timeout", "took too long"),
      { ...ok, browserResponsive: true },
      "render_timeout",
      false,
    ],
    ["the page closed itself while Chromium lives", closed, { ...ok, pageClosed: true }, "page_closed", false],
    ["a template fault keeps its code", new RenderError("too_many_pages", "too many"), ok, "too_many_pages", false],
    ["anything else from Chromium", new Error("Protocol error (Page.printToPDF): Printing failed"), ok, "render_failed", true],
  ] as const)("%s", (_name, error, ctx, code, retryable) => {
    const e = classifyRenderFailure(error, ctx);
    expect(e.code).toBe(code);
    expect(isRetryable(e.code)).toBe(retryable);
    if (retryable && code !== "render_failed") expect(e.message).toContain("fault of the service");
  });
});

describe("Chromium's temp folders", () => {
  test("Chromium keeps the worker's folder as its TMPDIR only while its singleton socket path fits in 107 bytes", () => {
    const short = "/var/lib/reportgen/chromium-tmp/worker-AbC123";
    expect(chromiumTmpDir(short, "/tmp")).toBe(short);
    const long = `/srv/${"x".repeat(40)}/chromium-tmp/worker-AbC123`;
    expect(chromiumTmpDir(long, "/tmp")).toBe("/tmp");
    expect(`${chromiumTmpDir(long, "/tmp")}/org.chromium.Chromium.XXXXXX/SingletonSocket`.length).toBeLessThanOrEqual(107);
  });

  test("removing a worker's folder also removes the socket folder its profile links to, and nothing else", () => {
    const root = mkdtempSync(join(tmpdir(), "rg-temp-"));
    try {
      const worker = join(root, "worker-1");
      const profile = join(worker, "playwright_chromiumdev_profile-abc");
      const socketDir = join(root, "org.chromium.Chromium.Xyz123");
      const other = join(root, "org.chromium.Chromium.Other1");
      for (const d of [profile, socketDir, other]) mkdirSync(d, { recursive: true });
      symlinkSync(join(socketDir, "SingletonSocket"), join(profile, "SingletonSocket"));
      removeWorkerTemp(worker);
      expect(existsSync(worker)).toBe(false);
      expect(existsSync(socketDir)).toBe(false);
      expect(existsSync(other)).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
