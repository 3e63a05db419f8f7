// Run as an unprivileged user (as the README's systemd unit does), Chromium keeps its own sandbox:
// no --no-sandbox flag and its renderers confined by seccomp. The data directory is private.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandLine, readStat, statusField } from "../../src/lib/process-tree";
import { api, copyRepo, descendants, freePort } from "../helpers/process";

const dir = mkdtempSync(join(tmpdir(), "reportgen-nobody-"));
chmodSync(dir, 0o777);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const isRoot = process.getuid?.() === 0;
// The user "nobody" may not be able to read the repository where it lives: run from a readable copy.
const code = join(dir, "code");
if (isRoot) copyRepo(code);
const command = [join(code, "node_modules", ".bin", "bun"), join(code, "src", "main.ts")];
const asNobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "env", `HOME=${dir}`, `TMPDIR=${dir}`];

test.skipIf(!isRoot)(
  `as user nobody: Chromium runs sandboxed and reports still print${isRoot ? "" : " (SKIPPED: needs root to switch to user nobody)"}`,
  async () => {
    const data = join(dir, "data");
    const created = Bun.spawnSync([...asNobody, ...command, "admin", "create-key", "--name", "u", "--data-dir", data], { cwd: code });
    expect(created.exitCode, created.stderr.toString()).toBe(0);
    const key = created.stdout.toString().trim();
    // The data dir and the database hold key hashes and client templates: private to the service user.
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect(statSync(join(data, "reportgen.db")).mode & 0o777).toBe(0o600);

    const port = await freePort();
    const proc = Bun.spawn([...asNobody, ...command, "serve", "--data-dir", data, "--host", "127.0.0.1", "--port", String(port)], {
      cwd: code,
      stderr: "pipe",
      stdout: "ignore",
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      const until = Date.now() + 30_000;
      while (Date.now() < until) {
        try {
          if ((await fetch(`${base}/healthz`)).status === 200) break;
        } catch {}
        await Bun.sleep(50);
      }
      const sub = await api(base, key, "POST", "/generate-pdf-async", { engine: "raw", html_template: "<p>sandboxed</p>" });
      expect(sub.status).toBe(202);
      let status = "";
      while (Date.now() < until && !["succeeded", "failed"].includes(status)) {
        status = (await api(base, key, "GET", `/reports/${sub.body.report_id}`)).body.data.status;
        await Bun.sleep(50);
      }
      expect(status).toBe("succeeded");

      const chromium = descendants(proc.pid)
        // Zygote-forked processes rewrite their command line with spaces instead of NULs.
        .map((pid) => ({ pid, cmd: commandLine(pid).split(" ") }))
        .filter((p) => p.cmd[0]?.includes("chromium"));
      expect(chromium.length).toBeGreaterThan(0);
      for (const p of chromium) expect(p.cmd).not.toContain("--no-sandbox");
      const renderers = chromium.filter((p) => p.cmd.includes("--type=renderer"));
      expect(renderers.length).toBeGreaterThan(0);
      for (const r of renderers) expect(statusField(r.pid, "Seccomp")).toBe(2);
      // Unprivileged, Chromium cannot raise its own priority: all of it keeps --render-nice (10), below the API.
      const nice = (pid: number) => readStat(pid)?.nice;
      for (const p of chromium) expect(nice(p.pid)).toBe(10);
      expect(nice(proc.pid)).toBe(0);
      // And the root warning is not printed for an unprivileged run.
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
      expect(await new Response(proc.stderr as ReadableStream).text()).not.toContain("running as root");
    } finally {
      proc.kill("SIGKILL");
    }
  },
  60_000,
);
