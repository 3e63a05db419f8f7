// `reportgen doctor` as a real process on this machine: it passes here, and each broken part (no
// Chromium, a data dir that cannot be written, a busy port, too low a file limit, readable secrets)
// fails its own line, names the fix, and makes the exit code 1.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, sourceCommand, startServer } from "../helpers/process";

const work = mkdtempSync(join(tmpdir(), "reportgen-doctor-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Line {
  name: string;
  status: "ok" | "warn" | "fail" | "skip";
  detail: string;
  fix?: string;
}

function doctor(args: string[], wrap: string[] = [], env: Record<string, string> = {}) {
  const p = Bun.spawnSync([...wrap, ...sourceCommand, "doctor", ...args], {
    cwd: work,
    env: { ...process.env, REPORTGEN_LOG_LEVEL: "warn", ...env },
  });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

function doctorJson(args: string[], wrap: string[] = [], env: Record<string, string> = {}) {
  const r = doctor([...args, "--json"], wrap, env);
  const result = JSON.parse(r.stdout) as { ok: boolean; version: string; checks: Line[] };
  const check = (name: string) => {
    const c = result.checks.find((x) => x.name === name);
    if (!c) throw new Error(`no check named ${name}: ${r.stdout}`);
    return c;
  };
  return { ...r, result, check };
}

const expectedChecks = [
  "Chromium found",
  "Chromium sandbox",
  "Chromium prints",
  "fonts: Latin",
  "fonts: Greek, Cyrillic",
  "fonts: CJK",
  "fonts: emoji",
  "/dev/shm",
  "TMPDIR",
  "data dir",
  "secret files",
  "port",
  "open-file limit",
  "image tools",
  "PostgreSQL",
  "bucket",
];

test("passes on this machine: one marked line per check, exit 0; --json says the same", async () => {
  const port = String(await freePort());
  const dataDir = join(work, "data-ok");
  const r = doctor(["--data-dir", dataDir, "--port", port, "--host", "127.0.0.1"]);
  console.error(r.stdout);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const lines = r.stdout.trim().split("\n");
  expect(lines).toHaveLength(expectedChecks.length + 1);
  for (const [i, name] of expectedChecks.entries()) expect(lines[i]).toMatch(new RegExp(`^[✓!-] ${name.replace(/[/]/g, "\\/")}\\s`));
  expect(lines.at(-1)).toMatch(/^reportgen \S+: ready/);
  expect(r.stdout).toMatch(/✓ Chromium found\s+\S+: Chromium \d+\./);
  expect(r.stdout).toMatch(/✓ Chromium prints\s+started and printed 1 page/);

  const j = doctorJson(["--data-dir", dataDir, "--port", port, "--host", "127.0.0.1"]);
  expect(j.code).toBe(0);
  expect(j.result.ok).toBe(true);
  expect(j.result.checks.map((c) => c.name)).toEqual(expectedChecks);
  for (const c of j.result.checks) {
    expect(["ok", "warn", "skip"]).toContain(c.status);
    if (c.status === "warn") expect(c.fix).toBeString();
  }
  expect(j.check("fonts: CJK").detail).toContain("WenQuanYi Micro Hei");
  expect(j.check("fonts: emoji").detail).toContain("Noto Color Emoji");
});

test("no Chromium: its line fails with the fix, the print is skipped, exit 1", () => {
  const missing = join(work, "no-such-chromium");
  const r = doctor(["--data-dir", join(work, "data-nochromium"), "--port", "0", "--chromium-path", missing]);
  expect(r.code).toBe(1);
  const line = r.stdout.split("\n").find((l) => l.startsWith("✗ Chromium found"));
  expect(line).toContain(missing);
  expect(line).toContain("fix: apt-get install chromium-headless-shell, or set --chromium-path");
  expect(r.stdout).toMatch(/^- Chromium prints/m);
  expect(r.stdout).toMatch(/check failed$/m);

  // An API-only instance renders nothing: no Chromium is needed there.
  const api = doctorJson(["--data-dir", join(work, "data-api"), "--port", "0", "--chromium-path", missing, "--role", "api"]);
  expect(api.code).toBe(0);
  for (const name of ["Chromium found", "Chromium prints", "fonts: CJK", "/dev/shm"])
    expect(api.check(name)).toMatchObject({ status: "skip", detail: "not needed: --role api renders nothing" });
  expect(api.check("data dir").status).toBe("ok");

  // Something that is not Chromium: a warning on the version, and the print fails saying how it ended.
  const notChromium = doctorJson(["--data-dir", join(work, "data-false"), "--port", "0", "--chromium-path", "/bin/false"]);
  expect(notChromium.code).toBe(1);
  expect(notChromium.check("Chromium found").status).toBe("warn");
  expect(notChromium.check("Chromium prints").status).toBe("fail");
  expect(notChromium.check("Chromium prints").detail).toContain("/bin/false did not start");
  expect(notChromium.check("Chromium prints").detail).toContain("exitCode=1");
});

test("without the webp tools on the PATH, the image tools line warns, names them and says what to install", () => {
  const bin = join(work, "bin-no-cwebp");
  mkdirSync(bin, { recursive: true });
  symlinkSync(Bun.which("cjpeg")!, join(bin, "cjpeg"));
  const r = doctorJson(["--data-dir", join(work, "data-noimage"), "--port", "0"], [], { PATH: bin });
  expect(r.check("image tools")).toMatchObject({ status: "warn", fix: "apt-get install libjpeg-turbo-progs webp" });
  expect(r.check("image tools").detail).toStartWith("cwebp and dwebp not found");
});

test("a data dir that is a file, a busy port, too low a file limit, readable secrets: each fails with its fix", async () => {
  const notADir = join(work, "data-file");
  writeFileSync(notADir, "");
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  const port = String((busy.address() as { port: number }).port);
  try {
    const j = doctorJson(["--data-dir", notADir, "--host", "127.0.0.1", "--port", port, "--max-connections", "10000000"]);
    expect(j.code).toBe(1);
    expect(j.result.ok).toBe(false);
    expect(j.check("data dir")).toMatchObject({ status: "fail", detail: `${notADir} is not a folder` });
    expect(j.check("data dir").fix).toContain("--data-dir");
    expect(j.check("secret files").status).toBe("skip");
    expect(j.check("port")).toMatchObject({ status: "fail", detail: `127.0.0.1:${port}: already in use` });
    expect(j.check("port").fix).toContain("--port");
    expect(j.check("open-file limit").status).toBe("fail");
    expect(j.check("open-file limit").fix).toMatch(/LimitNOFILE=65536.*lower --max-connections to \d+/);
    expect(j.check("Chromium prints").status).toBe("ok");
  } finally {
    busy.close();
  }

  const dataDir = join(work, "data-secrets");
  mkdirSync(dataDir);
  writeFileSync(join(dataDir, "link-secret"), "x".repeat(40), { mode: 0o644 });
  const s = doctorJson(["--data-dir", dataDir, "--port", "0"]);
  expect(s.code).toBe(1);
  expect(s.check("secret files").status).toBe("fail");
  expect(s.check("secret files").detail).toContain("link-secret is readable by others (mode 644)");
  expect(s.check("secret files").fix).toContain("chmod 600");
});

test("next to the running service: its port and its secret files pass (doctor after install)", async () => {
  const dataDir = join(work, "data-running");
  const server = await startServer(sourceCommand, dataDir);
  try {
    const port = new URL(server.baseUrl).port;
    const j = doctorJson(["--data-dir", dataDir, "--host", "127.0.0.1", "--port", port]);
    expect(j.check("port")).toMatchObject({ status: "ok" });
    expect(j.check("port").detail).toMatch(new RegExp(`127\\.0\\.0\\.1:${port} is in use by a running reportgen \\d`));
    expect(j.check("secret files")).toMatchObject({ status: "ok", detail: "link-secret, auth-pepper: mode 600, owned by this user" });
    expect(j.code, JSON.stringify(j.result)).toBe(0);
  } finally {
    server.proc.kill("SIGTERM");
    await server.proc.exited;
  }
});

// A read-only data dir: a read-only bind mount in a private mount namespace (needs user namespaces,
// as root or not). Where they are refused, the test says so instead of passing silently.
const mountProbe = Bun.spawnSync(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", `mount --bind -o ro "${work}" "${work}"`]);
const canMount = mountProbe.exitCode === 0;
if (!canMount)
  console.error(`SKIP doctor read-only data dir: cannot make a read-only bind mount here (${mountProbe.stderr.toString().trim()})`);

test.skipIf(!canMount)("a read-only data dir fails with the fix", () => {
  const dataDir = join(work, "data-ro");
  mkdirSync(dataDir);
  const wrap = [
    "unshare",
    "--user",
    "--map-root-user",
    "--mount",
    "sh",
    "-c",
    `mount --bind -o ro "${dataDir}" "${dataDir}" && exec "$@"`,
    "sh",
  ];
  const j = doctorJson(["--data-dir", dataDir, "--port", "0"], wrap);
  expect(j.code).toBe(1);
  expect(j.check("data dir")).toMatchObject({ status: "fail", detail: `${dataDir} is not writable (EROFS)` });
  expect(j.check("data dir").fix).toContain(`chown -R USER ${dataDir}`);
  expect(j.check("data dir").fix).toContain("--data-dir");
});
