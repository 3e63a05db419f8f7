// Fault injection against the compiled executable, with real Chromium and real signals, on one running
// service, one fault after another: Chromium's browser process or one renderer SIGKILLed mid-render,
// Chromium frozen (SIGSTOP, never continued), an EJS sandbox SIGKILLed while idle and mid-template. In
// every case the service stays up, the affected report is retried (never blamed on its template), the
// next reports succeed, and /healthz reflects what is usable. Faults at start-up, each with its own
// server: faults-startup.test.ts. REPORTGEN_TEST_BINARY=<path> runs these against an already built
// executable (e.g. an older one).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readStat } from "../../src/lib/process-tree";
import { descendants, isAlive, runCli, type ServerProcess, startServer } from "../helpers/process";
import {
  browserPids,
  busyPage,
  busyTemplate,
  cpuTicks,
  expectNextReportSucceeds,
  finished,
  rendererPids,
  report,
  sandboxPids,
  submit,
  until,
  useFaultsBinary,
  watchHealth,
} from "./faults-harness";

const { work, binary, record } = useFaultsBinary();

describe("one running service, faults one after another", () => {
  const dir = join(work, "shared");
  let server: ServerProcess;
  let key: string;
  let health: ReturnType<typeof watchHealth>;

  beforeAll(async () => {
    key = runCli([binary], ["admin", "create-key", "--name", "faults", "--data-dir", dir]).stdout.trim();
    expect(key).toStartWith("rg_");
    server = await startServer([binary], dir, {
      extraArgs: ["--render-workers", "1", "--render-pages", "2", "--sandboxes", "1", "--render-timeout", "25s"],
    });
    health = watchHealth(server.baseUrl);
  }, 60_000);

  afterAll(async () => {
    health?.stop();
    if (server && server.proc.exitCode === null) {
      server.proc.kill("SIGTERM");
      await server.proc.exited;
    }
  });

  test("SIGKILL of Chromium's browser process mid-render: retried and printed, /healthz 503 then 200", async () => {
    const id = await submit(server, key, busyPage("survives a browser kill"));
    await until("the report to be printing", async () => (await report(server, key, id)).status === "processing", 15_000);
    await Bun.sleep(700);
    const [browser] = browserPids(server.proc.pid);
    expect(browser).toBeGreaterThan(0);
    const tree = descendants(browser!).concat(browser!);
    const t0 = Date.now();
    process.kill(browser!, "SIGKILL");
    const r = await finished(server, key, id, 25_000);
    record("SIGKILL Chromium browser process mid-render", health.recoveredAfter(t0), r);
    expect(r.error).toBeNull();
    expect(r.status).toBe("succeeded");
    expect(r.attempts).toBe(2);
    expect(health.sawDown(t0)).toBe(true);
    await until("/healthz 200", () => health.recoveredAfter(t0), 30_000);
    // The dead Chromium's whole tree is gone, and its profile folder with it.
    await until("the old Chromium tree to be gone", () => tree.every((p) => !isAlive(p)), 10_000);
    expect(readdirSync(join(dir, "chromium-tmp")).length).toBe(1);
    expect(server.stderr()).toMatch(
      /"level":"warn","msg":"chromium child failed; replacing it".*"cause":"Chromium exited unexpectedly".*"restarts":1/,
    );
    await expectNextReportSucceeds(server, key);
  }, 90_000);

  test("SIGKILL of one renderer mid-render: retried at once, not a render_timeout at the deadline", async () => {
    const id = await submit(server, key, busyPage("survives a renderer kill", 4000));
    await until("the report to be printing", async () => (await report(server, key, id)).status === "processing", 15_000);
    await Bun.sleep(300);
    // The renderer running the busy loop is the one whose CPU time grows (a loaded machine may take a while).
    const before = new Map(rendererPids(server.proc.pid).map((p) => [p, cpuTicks(p)]));
    const busy = await until(
      "a renderer to use CPU",
      () =>
        [...before]
          .map(([p, t]) => ({ p, d: cpuTicks(p) - t }))
          .sort((a, b) => b.d - a.d)
          .find((r) => r.d >= 2),
      5_000,
    );
    const t0 = Date.now();
    process.kill(busy!.p, "SIGKILL");
    // Far sooner than the 25 s render deadline.
    const r = await finished(server, key, id, 15_000);
    record("SIGKILL one renderer mid-render", health.recoveredAfter(t0), r);
    expect(r.error).toBeNull();
    expect(r.status).toBe("succeeded");
    expect(r.attempts).toBe(2);
    expect(Date.now() - t0).toBeLessThan(15_000);
    await expectNextReportSucceeds(server, key);
  }, 90_000);

  test("SIGSTOP of Chromium (never continued): detected, killed, replaced; the report is retried", async () => {
    const id = await submit(server, key, busyPage("survives a frozen browser", 1500));
    await until("the report to be printing", async () => (await report(server, key, id)).status === "processing", 15_000);
    await Bun.sleep(300);
    const [browser] = browserPids(server.proc.pid);
    expect(browser).toBeGreaterThan(0);
    const t0 = Date.now();
    process.kill(browser!, "SIGSTOP");
    try {
      await until("/healthz 503", () => health.sawDown(t0), 20_000);
      const r = await finished(server, key, id, 40_000);
      record("SIGSTOP Chromium browser process", health.recoveredAfter(t0), r);
      expect(r.error).toBeNull();
      expect(r.status).toBe("succeeded");
      expect(r.attempts).toBe(2);
      await until("/healthz 200", () => health.recoveredAfter(t0), 30_000);
      // The frozen process was killed (SIGKILL ends a stopped process), not left behind.
      await until("the frozen Chromium to be gone", () => !isAlive(browser!), 10_000);
      expect(server.stderr()).toMatch(/"msg":"chromium child failed; replacing it".*health probe failed/);
      await expectNextReportSucceeds(server, key);
    } finally {
      if (isAlive(browser!)) process.kill(browser!, "SIGKILL");
    }
  }, 120_000);

  test("SIGKILL of an idle EJS sandbox: logged, replaced, /healthz 503 then 200", async () => {
    const [sandbox] = sandboxPids(server.proc.pid);
    expect(sandbox).toBeGreaterThan(0);
    const t0 = Date.now();
    process.kill(sandbox!, "SIGKILL");
    await until("a new sandbox", () => sandboxPids(server.proc.pid).some((p) => p !== sandbox), 10_000);
    const healthyMs = await until("/healthz 200", () => health.recoveredAfter(t0), 20_000);
    const r = await finished(
      server,
      key,
      await submit(server, key, { engine: "ejs", html_template: "<p><%= x %></p>", data: { x: "after idle kill" } }),
      30_000,
    );
    record("SIGKILL idle sandbox", healthyMs, r);
    expect(r.status).toBe("succeeded");
    expect(server.stderr()).toMatch(
      /"level":"warn","msg":"sandbox child failed; replacing it".*"cause":"the sandbox process killed by SIGKILL".*"restarts":1/,
    );
  }, 60_000);

  test("SIGKILL of a sandbox mid-template: retried as the service's fault, not template_error", async () => {
    const id = await submit(server, key, busyTemplate("survives a sandbox kill"));
    await until("the report to be templating", async () => (await report(server, key, id)).status === "processing", 15_000);
    await Bun.sleep(500);
    const [sandbox] = sandboxPids(server.proc.pid);
    const t0 = Date.now();
    process.kill(sandbox!, "SIGKILL");
    const r = await finished(server, key, id, 30_000);
    record("SIGKILL sandbox mid-template", health.recoveredAfter(t0), r);
    expect(r.error).toBeNull();
    expect(r.status).toBe("succeeded");
    expect(r.attempts).toBe(2);
    await expectNextReportSucceeds(server, key);
  }, 60_000);

  test("a template's own fault keeps its code and is not retried", async () => {
    const r = await finished(
      server,
      key,
      await submit(server, key, { engine: "ejs", html_template: "<% while (true) {} %>", data: {} }),
      30_000,
    );
    expect(r.status).toBe("failed");
    expect(r.error.code).toBe("template_timeout");
    expect(r.attempts).toBe(1);
  }, 60_000);

  test("the service is still up, with no stopped or orphaned Chromium left", async () => {
    expect(server.proc.exitCode).toBeNull();
    expect(browserPids(server.proc.pid).length).toBe(1);
    const stat = readStat;
    // Nothing stopped anywhere in the tree (the frozen Chromium was killed, not left behind).
    expect(descendants(server.proc.pid).filter((p) => stat(p)?.state === "T")).toEqual([]);
    // No zombie among the server's own children: every killed child was reaped. (Chromium's zygote
    // reaps its renderers itself, a moment later: not checked here.)
    const zombies = () => descendants(server.proc.pid).filter((p) => stat(p)?.ppid === server.proc.pid && stat(p)?.state === "Z");
    await until("no zombie children", () => zombies().length === 0, 5_000).catch(() => {});
    expect(zombies()).toEqual([]);
    // One profile folder: the live Chromium's; the killed ones' were removed.
    expect(readdirSync(join(dir, "chromium-tmp")).length).toBe(1);
  });
});
