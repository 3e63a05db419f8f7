// `npm run release`: both executables and SHA256SUMS, checked with `sha256sum -c` as a download would be.
// This machine's executable runs `version` and `doctor` natively; the other architecture's runs `version`,
// and `admin create-key` (argon2's native addon for that architecture), under qemu-user.
// (tests/process/binary.test.ts runs the same compile's executable with no node_modules around it.)
import { afterAll, beforeAll, expect, test } from "bun:test";
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VERSION } from "../../src/version";
import { repoRoot } from "../helpers/process";

const out = mkdtempSync(join(tmpdir(), "reportgen-release-"));
const run = mkdtempSync(join(tmpdir(), "reportgen-release-run-"));
const native = process.arch === "arm64" ? "arm64" : "x64";
const foreign = native === "x64" ? "arm64" : "x64";
/** qemu-user for the other architecture, with its C library from Debian's cross packages (scripts/setup). */
const qemu =
  foreign === "arm64" ? ["qemu-aarch64-static", "-L", "/usr/aarch64-linux-gnu"] : ["qemu-x86_64-static", "-L", "/usr/x86_64-linux-gnu"];
const hasQemu = Bun.which(qemu[0]!) !== null && statSync(qemu[2]!, { throwIfNoEntry: false })?.isDirectory() === true;
if (!hasQemu) console.error(`SKIP the ${foreign} executable's run: ${qemu[0]} or ${qemu[2]} is missing (scripts/setup installs them)`);

beforeAll(() => {
  const t0 = performance.now();
  const build = Bun.spawnSync([process.execPath, join(repoRoot, "scripts", "release.ts"), out], { cwd: repoRoot });
  expect(build.exitCode, build.stderr.toString()).toBe(0);
  const size = (arch: string) => `${(statSync(join(out, `reportgen-linux-${arch}`)).size / 1024 ** 2).toFixed(1)} MB`;
  console.error(`release built in ${((performance.now() - t0) / 1000).toFixed(1)} s: x64 ${size("x64")}, arm64 ${size("arm64")}`);
}, 300_000);

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  rmSync(run, { recursive: true, force: true });
});

function exec(cmd: string[], timeout = 120_000) {
  const p = Bun.spawnSync(cmd, { cwd: run, timeout, env: { ...process.env, REPORTGEN_LOG_LEVEL: "warn" } });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

/** The ELF header's machine field: 62 is x86-64, 183 is AArch64. */
function elfMachine(file: string): number {
  const fd = openSync(file, "r");
  const head = Buffer.alloc(20);
  readSync(fd, head, 0, 20, 0);
  closeSync(fd);
  expect(head.subarray(0, 4).toString("latin1")).toBe("\x7fELF");
  return head.readUInt16LE(18);
}

test("SHA256SUMS lists both executables and the units, and sha256sum -c accepts them; a changed byte is caught", () => {
  const sums = readFileSync(join(out, "SHA256SUMS"), "utf8");
  const files = [
    "reportgen-linux-x64",
    "reportgen-linux-arm64",
    "reportgen.service",
    "reportgen@.service",
    `reportgen-client-${VERSION}.tgz`,
    "reportgen.py",
  ];
  expect(sums).toMatch(new RegExp(`^${files.map((f) => `[0-9a-f]{64} {2}${f.replaceAll(".", "\\.")}\n`).join("")}$`));
  const check = Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: out });
  expect(check.exitCode, check.stderr.toString()).toBe(0);
  expect(check.stdout.toString()).toBe(files.map((f) => `${f}: OK\n`).join(""));
  expect(readFileSync(join(out, "reportgen.service"), "utf8")).toBe(readFileSync(join(repoRoot, "deploy", "reportgen.service"), "utf8"));
  // The same check against a list whose sum does not match fails: the check is not a formality.
  const wrong = sums.replace(/^[0-9a-f]/, (c) => (c === "0" ? "1" : "0"));
  const bad = Bun.spawnSync(["sha256sum", "-c", "-"], { cwd: out, stdin: new TextEncoder().encode(wrong) });
  expect(bad.exitCode).toBe(1);
  expect(bad.stdout.toString()).toContain("reportgen-linux-x64: FAILED");
});

test("each executable is built for its architecture", () => {
  expect(elfMachine(join(out, "reportgen-linux-x64"))).toBe(62);
  expect(elfMachine(join(out, "reportgen-linux-arm64"))).toBe(183);
});

test(`the ${native} executable: version, then doctor passes on this machine`, () => {
  const bin = join(out, `reportgen-linux-${native}`);
  const v = exec([bin, "version"]);
  expect(v.code, v.stderr).toBe(0);
  expect(v.stdout).toBe(`${VERSION}\n`);
  const d = exec([bin, "doctor", "--data-dir", join(run, "data"), "--port", "0"]);
  console.error(d.stdout);
  expect(d.code, d.stdout + d.stderr).toBe(0);
  expect(d.stdout).toMatch(/✓ Chromium prints\s+started and printed 1 page/);
});

test.skipIf(!hasQemu)(`the ${foreign} executable under qemu-user: version, and argon2's addon for ${foreign} works`, () => {
  const bin = join(out, `reportgen-linux-${foreign}`);
  const v = exec([...qemu, bin, "version"]);
  expect(v.code, v.stderr).toBe(0);
  expect(v.stdout).toBe(`${VERSION}\n`);
  // Minting a key hashes it with argon2id: the native binding embedded must be the foreign one.
  const key = exec([...qemu, bin, "admin", "create-key", "--name", "release", "--data-dir", join(run, "data-foreign")]);
  expect(key.code, key.stderr).toBe(0);
  expect(key.stdout.trim()).toMatch(/^rg_[a-z2-9]{12}_[A-Za-z0-9_-]{43}$/);
});
