// Fault injection at start-up against the compiled executable, each with its own server: EJS sandboxes
// SIGKILLed before they are ready, a Chromium binary that exits at once, and the Chromium profile
// folder a SIGKILLed server left behind. The service comes up, backs off, recovers and cleans up.
// The faults on one running service: faults.test.ts. REPORTGEN_TEST_BINARY=<path> runs these against
// an already built executable (e.g. an older one).
import { expect, test } from "bun:test";
import { chmodSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { settings } from "../../src/config/settings";
import { descendants, isAlive, runCli, spawnServer, startServer } from "../helpers/process";
import { finished, report, sandboxPids, submit, until, useFaultsBinary, watchHealth } from "./faults-harness";

const { work, binary, record } = useFaultsBinary();

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
