// Fault injection against the compiled executable, with real Chromium and real signals: Chromium's
// browser process or one renderer SIGKILLed mid-render, Chromium frozen (SIGSTOP, never continued),
// an EJS sandbox SIGKILLed before it is ready, while idle and mid-template, and a Chromium binary that
// exits at once. In every case the service stays up, the affected report is retried (never blamed on
// its template), the next reports succeed, and /healthz reflects what is usable.
// REPORTGEN_TEST_BINARY=<path> runs these against an already built executable (e.g. an older one).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { settings } from "../../src/config/settings";
import { commandLine, readStat } from "../../src/lib/process-tree";
import { api, descendants, isAlive, repoRoot, runCli, type ServerProcess, spawnServer, startServer } from "../helpers/process";

const work = mkdtempSync(join(tmpdir(), "reportgen-faults-"));
const binary = process.env.REPORTGEN_TEST_BINARY ?? join(work, "reportgen");
const SANDBOX_ARG = "__reportgen-sandbox-child";
/** Printed figures for the closing note: fault, time to healthy, what the affected report ended as. */
const matrix: string[] = [];

beforeAll(() => {
  if (process.env.REPORTGEN_TEST_BINARY) return;
  const build = Bun.spawnSync([process.execPath, join(repoRoot, "scripts", "build.ts"), binary], { cwd: repoRoot });
  expect(build.exitCode, build.stderr.toString()).toBe(0);
}, 120_000);

afterAll(() => {
  console.error(`\nfault matrix:\n${matrix.join("\n")}`);
  rmSync(work, { recursive: true, force: true });
});

// Chromium's child processes rewrite their command line into one space-separated string.
const cmdline = (pid: number) => commandLine(pid).split(/ +/).filter(Boolean);
const cpuTicks = (pid: number) => readStat(pid)?.cpu ?? 0;
const isChromium = (pid: number) => /chrom/i.test(cmdline(pid)[0] ?? "");
/** Chromium's browser process: a Chromium with no --type= (renderers, zygotes and utilities have one). */
const browserPids = (server: number) =>
  descendants(server).filter((p) => isChromium(p) && isAlive(p) && !cmdline(p).some((a) => a.startsWith("--type=")));
const rendererPids = (server: number) => descendants(server).filter((p) => isAlive(p) && cmdline(p).includes("--type=renderer"));
const sandboxPids = (server: number) => descendants(server).filter((p) => isAlive(p) && cmdline(p).includes(SANDBOX_ARG));

/** Polls /healthz every 25 ms and remembers every answer, to see it go 503 and back to 200. */
function watchHealth(baseUrl: string) {
  const seen: { at: number; status: number }[] = [];
  let on = true;
  void (async () => {
    while (on) {
      const status = await fetch(`${baseUrl}/healthz`).then(
        (r) => r.status,
        () => 0,
      );
      seen.push({ at: Date.now(), status });
      await Bun.sleep(25);
    }
  })();
  return {
    stop: () => void (on = false),
    /** Milliseconds from `since` until /healthz answered 200 again after its first non-200, or undefined. */
    recoveredAfter(since: number): number | undefined {
      const down = seen.findIndex((s) => s.at >= since && s.status !== 200);
      if (down < 0) return undefined;
      const up = seen.findIndex((s, i) => i > down && s.status === 200);
      return up < 0 ? undefined : seen[up]!.at - since;
    },
    sawDown: (since: number) => seen.some((s) => s.at >= since && s.status === 503),
  };
}

async function until<T>(what: string, fn: () => T | Promise<T>, timeoutMs: number): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(20);
  }
}

async function report(s: ServerProcess, key: string, id: string) {
  return (await api(s.baseUrl, key, "GET", `/reports/${id}`)).body.data;
}

async function finished(s: ServerProcess, key: string, id: string, timeoutMs: number) {
  return until(
    `report ${id} to finish`,
    async () => {
      const r = await report(s, key, id);
      return r.status === "succeeded" || r.status === "failed" ? r : undefined;
    },
    timeoutMs,
  );
}

async function submit(s: ServerProcess, key: string, body: unknown): Promise<string> {
  const r = await api(s.baseUrl, key, "POST", "/generate-pdf-async", body);
  expect(r.status).toBe(202);
  return r.body.report_id;
}

/** A raw report that keeps its page busy for `ms` (so a fault lands mid-render), then prints. */
const busyPage = (label: string, ms = 2500) => ({
  engine: "raw",
  html_template: `<p>${label}</p><script>var e = Date.now() + ${ms}; while (Date.now() < e) {}</script>`,
});
/** An EJS report whose template loops for `ms` inside the sandbox, then renders. */
const busyTemplate = (label: string, ms = 2500) => ({
  engine: "ejs",
  html_template: `<% var e = Date.now() + ${ms}; while (Date.now() < e) {} %><p><%= label %></p>`,
  data: { label },
});

async function expectNextReportSucceeds(s: ServerProcess, key: string) {
  for (const body of [
    { engine: "raw", html_template: "<p>next raw</p>" },
    { engine: "ejs", html_template: "<p><%= n %></p>", data: { n: "next ejs" } },
  ]) {
    const r = await finished(s, key, await submit(s, key, body), 30_000);
    expect(r.status).toBe("succeeded");
  }
}

function record(fault: string, healthyMs: number | undefined, r: { status: string; attempts: number; error: { code: string } | null }) {
  matrix.push(
    `  ${fault}: healthy again after ${healthyMs === undefined ? "(stayed healthy)" : `${healthyMs} ms`}; report ${r.status}${r.error ? ` ${r.error.code}` : ""}, attempts ${r.attempts}`,
  );
}

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

test("sandboxes SIGKILLed before they are ready at start-up: start-up completes, with backoff", async () => {
  const dir = join(work, "early");
  const key = runCli([binary], ["admin", "create-key", "--name", "early", "--data-dir", dir]).stdout.trim();
  const server = await spawnServer([binary], dir, { extraArgs: ["--sandboxes", "1", "--render-workers", "1"] });
  try {
    // Kill the first three sandbox processes the moment they appear (a sandbox needs ~300 ms to be ready).
    const killed = new Set<number>();
    const end = Date.now() + 20_000;
    while (killed.size < 3 && Date.now() < end && server.proc.exitCode === null) {
      for (const p of sandboxPids(server.proc.pid)) {
        if (killed.has(p)) continue;
        process.kill(p, "SIGKILL");
        killed.add(p);
      }
      await Bun.sleep(2);
    }
    expect(killed.size).toBe(3);
    const t0 = Date.now();
    const id = await submit(server, key, { engine: "ejs", html_template: "<p><%= x %></p>", data: { x: "after early kills" } });
    await until("/healthz 200", async () => (await fetch(`${server.baseUrl}/healthz`)).status === 200, 30_000);
    const r = await finished(server, key, id, 30_000);
    record("SIGKILL sandbox before ready (x3, at start-up)", Date.now() - t0, r);
    expect(r.status).toBe("succeeded");
    expect(r.attempts).toBe(1);
    // Each start failure is logged with the restart count, and the delay doubles.
    const warnings = server
      .stderr()
      .split("\n")
      .filter((l) => l.includes('"msg":"sandbox child could not start; replacing it"'));
    expect(warnings.length).toBeGreaterThanOrEqual(3);
    expect(warnings.slice(0, 3).map((l) => JSON.parse(l).restart_in_ms)).toEqual([250, 500, 1000]);
  } finally {
    server.proc.kill("SIGKILL");
    await server.proc.exited;
  }
}, 90_000);

test("a Chromium binary that exits at once: the service stays up, 503, backs off, and recovers once Chromium works", async () => {
  const dir = join(work, "broken");
  const key = runCli([binary], ["admin", "create-key", "--name", "broken", "--data-dir", dir]).stdout.trim();
  const script = join(work, "chromium.sh");
  const launches = join(work, "launches");
  const fixed = join(work, "chromium-fixed");
  // Records when each launch happened (ms since the epoch), then exits 1 until "fixed".
  writeFileSync(
    script,
    `#!/bin/sh\necho $(date +%s%3N) >> ${launches}\nif [ -f ${fixed} ]; then exec ${settings.chromiumPath.default} "$@"; fi\nexit 1\n`,
  );
  chmodSync(script, 0o755);
  const server = await spawnServer([binary], dir, { extraArgs: ["--chromium-path", script, "--render-workers", "1"] });
  const health = watchHealth(server.baseUrl);
  const failures = () =>
    server
      .stderr()
      .split("\n")
      .filter((l) => l.includes('"msg":"chromium child could not start; replacing it"'));
  try {
    await until("HTTP to answer", () => health.sawDown(0), 15_000);
    const id = await submit(server, key, { engine: "raw", html_template: "<p>waits for a working Chromium</p>" });
    await until("three failed launches", () => failures().length >= 3, 60_000);
    expect(server.proc.exitCode).toBeNull();
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(503);
    // Backoff, not a tight loop: the delays double, and launches are at least that far apart.
    expect(
      failures()
        .slice(0, 3)
        .map((l) => JSON.parse(l).restart_in_ms),
    ).toEqual([250, 500, 1000]);
    const at = readFileSync(launches, "utf8").split("\n").filter(Boolean).map(Number);
    expect(at.length).toBeLessThanOrEqual(failures().length + 1);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(250);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(500);
    // The report waits in the queue, its attempts untouched.
    const waiting = await report(server, key, id);
    expect(waiting.status).toBe("queued");
    expect(waiting.attempts).toBe(0);

    writeFileSync(fixed, "");
    const t0 = Date.now();
    await until("/healthz 200", async () => (await fetch(`${server.baseUrl}/healthz`)).status === 200, 60_000);
    const r = await finished(server, key, id, 30_000);
    record(`Chromium binary exits at once (${at.length} launches, then fixed)`, Date.now() - t0, r);
    expect(r.status).toBe("succeeded");
    expect(r.attempts).toBe(1);
  } finally {
    health.stop();
    server.proc.kill("SIGKILL");
    await server.proc.exited;
  }
}, 150_000);

test("SIGKILL of the server: Chromium's profile folder it left is removed at the next start, nothing else", async () => {
  const dir = join(work, "leftovers");
  runCli([binary], ["admin", "create-key", "--name", "leftovers", "--data-dir", dir]);
  const first = await startServer([binary], dir, { extraArgs: ["--render-workers", "1"] });
  const temp = join(dir, "chromium-tmp");
  const [left] = readdirSync(temp);
  // Chromium's profile lives in the data dir, not in /tmp.
  expect(readdirSync(join(temp, left!)).some((n) => n.startsWith("playwright_chromiumdev_profile-"))).toBe(true);
  const children = descendants(first.proc.pid);
  first.proc.kill("SIGKILL");
  await first.proc.exited;
  await until("Chromium to go down with the server", () => children.every((p) => !isAlive(p)), 10_000);
  expect(readdirSync(temp)).toEqual([left!]); // left behind by the kill
  const second = await startServer([binary], dir, { extraArgs: ["--render-workers", "1"] });
  try {
    const now = readdirSync(temp);
    expect(now).toHaveLength(1);
    expect(now).not.toContain(left!);
    expect(second.stderr()).toContain("removed Chromium temp folders an earlier run left behind");
  } finally {
    second.proc.kill("SIGTERM");
    await second.proc.exited;
  }
  // A clean stop leaves nothing.
  expect(readdirSync(temp)).toEqual([]);
}, 90_000);
