// deploy/reportgen.service: systemd accepts it without a warning (when systemd-analyze is installed),
// and it keeps the properties the README promises.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { settings } from "../../src/config/settings";

const unitPath = join(import.meta.dir, "..", "..", "deploy", "reportgen.service");
const unit = await Bun.file(unitPath).text();
const dir = mkdtempSync(join(tmpdir(), "rg-unit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const analyze = Bun.which("systemd-analyze");

test.skipIf(!analyze)(
  `systemd-analyze verify: no error and no warning${analyze ? "" : " (SKIPPED: systemd-analyze is not installed)"}`,
  () => {
    // verify insists that ExecStart's binary exists: point it at a stand-in.
    const exe = join(dir, "reportgen");
    writeFileSync(exe, "#!/bin/sh\n");
    chmodSync(exe, 0o755);
    const copy = join(dir, "reportgen.service");
    writeFileSync(copy, unit.replaceAll("/usr/local/bin/reportgen", exe));
    const r = Bun.spawnSync([analyze!, "verify", copy]);
    const out = (r.stdout.toString() + r.stderr.toString()).trim();
    expect(out).toBe("");
    expect(r.exitCode).toBe(0);
  },
);

const value = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, "gm"))].map((m) => m[1]);

test("an unprivileged user, hardened, with Chromium's sandbox left possible", () => {
  expect(value("User")).toEqual(["reportgen"]);
  expect(value("ExecStart")).toEqual(["/usr/local/bin/reportgen serve"]);
  expect(value("NoNewPrivileges")).toEqual(["yes"]);
  expect(value("ProtectSystem")).toEqual(["strict"]);
  expect(value("CapabilityBoundingSet")).toEqual([""]);
  // The sandbox creates user, PID and network namespaces; the JITs need W+X memory.
  expect(value("RestrictNamespaces")).toEqual([]);
  expect(value("PrivateUsers")).toEqual([]);
  expect(value("MemoryDenyWriteExecute")).toEqual([]);
});

test("stopping leaves the server time to drain: SIGTERM to it alone, a stop timeout above --shutdown-timeout", () => {
  expect(value("KillMode")).toEqual(["mixed"]);
  expect(Number(value("TimeoutStopSec")[0]) * 1000).toBeGreaterThan(settings.shutdownTimeout.default + 5_000);
});
