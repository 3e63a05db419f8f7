// Shared by the fault-injection tests (faults.test.ts, faults-startup.test.ts): the compiled executable
// built once per file into a temp folder, the fault matrix printed at the end, finding Chromium's and
// the EJS sandboxes' processes by their command lines, watching /healthz, and submitting and awaiting
// reports. REPORTGEN_TEST_BINARY=<path> uses an already built executable (e.g. an older one) instead.
import { afterAll, beforeAll, expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandLine, readStat } from "../../src/lib/process-tree";
import { api, descendants, isAlive, repoRoot, type ServerProcess } from "../helpers/process";

const SANDBOX_ARG = "__reportgen-sandbox-child";

/**
 * A temp folder for the file's servers and the executable under test (built there in beforeAll unless
 * REPORTGEN_TEST_BINARY names one); `record` adds a line to the fault matrix printed in afterAll.
 */
export function useFaultsBinary() {
  const work = mkdtempSync(join(tmpdir(), "reportgen-faults-"));
  const binary = process.env.REPORTGEN_TEST_BINARY ?? join(work, "reportgen");
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

  function record(fault: string, healthyMs: number | undefined, r: { status: string; attempts: number; error: { code: string } | null }) {
    matrix.push(
      `  ${fault}: healthy again after ${healthyMs === undefined ? "(stayed healthy)" : `${healthyMs} ms`}; report ${r.status}${r.error ? ` ${r.error.code}` : ""}, attempts ${r.attempts}`,
    );
  }

  return { work, binary, record };
}

// Chromium's child processes rewrite their command line into one space-separated string.
const cmdline = (pid: number) => commandLine(pid).split(/ +/).filter(Boolean);
export const cpuTicks = (pid: number) => readStat(pid)?.cpu ?? 0;
const isChromium = (pid: number) => /chrom/i.test(cmdline(pid)[0] ?? "");
/** Chromium's browser process: a Chromium with no --type= (renderers, zygotes and utilities have one). */
export const browserPids = (server: number) =>
  descendants(server).filter((p) => isChromium(p) && isAlive(p) && !cmdline(p).some((a) => a.startsWith("--type=")));
export const rendererPids = (server: number) => descendants(server).filter((p) => isAlive(p) && cmdline(p).includes("--type=renderer"));
export const sandboxPids = (server: number) => descendants(server).filter((p) => isAlive(p) && cmdline(p).includes(SANDBOX_ARG));

/** Polls /healthz every 25 ms and remembers every answer, to see it go 503 and back to 200. */
export function watchHealth(baseUrl: string) {
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

export async function until<T>(what: string, fn: () => T | Promise<T>, timeoutMs: number): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(20);
  }
}

export async function report(s: ServerProcess, key: string, id: string) {
  return (await api(s.baseUrl, key, "GET", `/reports/${id}`)).body.data;
}

export async function finished(s: ServerProcess, key: string, id: string, timeoutMs: number) {
  return until(
    `report ${id} to finish`,
    async () => {
      const r = await report(s, key, id);
      return r.status === "succeeded" || r.status === "failed" ? r : undefined;
    },
    timeoutMs,
  );
}

export async function submit(s: ServerProcess, key: string, body: unknown): Promise<string> {
  const r = await api(s.baseUrl, key, "POST", "/generate-pdf-async", body);
  expect(r.status).toBe(202);
  return r.body.report_id;
}

/** A raw report that keeps its page busy for `ms` (so a fault lands mid-render), then prints. */
export const busyPage = (label: string, ms = 2500) => ({
  engine: "raw",
  html_template: `<p>${label}</p><script>var e = Date.now() + ${ms}; while (Date.now() < e) {}</script>`,
});
/** An EJS report whose template loops for `ms` inside the sandbox, then renders. */
export const busyTemplate = (label: string, ms = 2500) => ({
  engine: "ejs",
  html_template: `<% var e = Date.now() + ${ms}; while (Date.now() < e) {} %><p><%= label %></p>`,
  data: { label },
});

export async function expectNextReportSucceeds(s: ServerProcess, key: string) {
  for (const body of [
    { engine: "raw", html_template: "<p>next raw</p>" },
    { engine: "ejs", html_template: "<p><%= n %></p>", data: { n: "next ejs" } },
  ]) {
    const r = await finished(s, key, await submit(s, key, body), 30_000);
    expect(r.status).toBe("succeeded");
  }
}
