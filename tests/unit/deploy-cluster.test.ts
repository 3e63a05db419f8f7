// deploy/reportgen@.service, the unit for N instances on one machine: systemd accepts it without a
// warning, it keeps every hardening line of deploy/reportgen.service, and gives each instance its own
// port and data dir while all of them read the cluster's shared settings.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const deploy = join(import.meta.dir, "..", "..", "deploy");
const template = await Bun.file(join(deploy, "reportgen@.service")).text();
const single = await Bun.file(join(deploy, "reportgen.service")).text();
const dir = mkdtempSync(join(tmpdir(), "rg-unit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const analyze = Bun.which("systemd-analyze");

test.skipIf(!analyze)("systemd-analyze verify of an instance: no error and no warning", () => {
  const exe = join(dir, "reportgen");
  writeFileSync(exe, "#!/bin/sh\n");
  chmodSync(exe, 0o755);
  writeFileSync(join(dir, "reportgen@.service"), template.replaceAll("/usr/local/bin/reportgen", exe));
  const r = Bun.spawnSync([analyze!, "verify", join(dir, "reportgen@2.service")]);
  expect((r.stdout.toString() + r.stderr.toString()).trim()).toBe("");
  expect(r.exitCode).toBe(0);
});

const lines = (unit: string, from: string) => unit.slice(unit.indexOf(from)).trim();
const value = (key: string) => [...template.matchAll(new RegExp(`^${key}=(.*)$`, "gm"))].map((m) => m[1]);

test("the same stop handling and hardening as the single-instance unit, line for line", () => {
  const from = "# SIGTERM to the server only";
  expect(template).toContain(from);
  expect(lines(template, from)).toBe(lines(single, from));
  expect(value("User")).toEqual(["reportgen"]);
  expect(value("ExecStart")).toEqual(["/usr/local/bin/reportgen serve"]);
});

test("each instance has its own port and data dir; all read the cluster's settings, then their own", () => {
  expect(value("Environment")).toEqual([
    "REPORTGEN_DATA_DIR=/var/lib/reportgen-%i",
    "REPORTGEN_PORT=808%i",
    "TMPDIR=/var/lib/reportgen-%i/tmp-runtime",
  ]);
  expect(value("EnvironmentFile")).toEqual(["/etc/reportgen/cluster.env", "-/etc/reportgen/%i.env"]);
  expect(value("StateDirectory")).toEqual(["reportgen-%i reportgen-%i/tmp-runtime"]);
});
