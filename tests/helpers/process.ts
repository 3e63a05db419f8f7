// Runs reportgen as a real process (source or compiled executable) for process-level tests.
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";

export const repoRoot = join(import.meta.dir, "..", "..");
export const sourceCommand = [process.execPath, join(repoRoot, "src", "main.ts")];

import { freePort } from "../../src/lib/ports";

export { freePort };

/** Runs a CLI command to completion and returns its exit code and output. */
export function runCli(cmd: string[], args: string[], cwd = repoRoot) {
  const p = Bun.spawnSync([...cmd, ...args], { cwd, env: { ...process.env, REPORTGEN_LOG_LEVEL: "warn" } });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

export interface ServerProcess {
  proc: ReturnType<typeof Bun.spawn>;
  baseUrl: string;
  /** Milliseconds from spawn to the first HTTP answer (any status). */
  listenMs: number;
  /** Milliseconds from spawn to the first healthy answer (Chromium ready). */
  startMs: number;
  stderr: () => string;
}

export interface ServerOptions {
  cwd?: string;
  extraArgs?: string[];
  /** Environment variables on top of this process's (undefined removes one). */
  env?: Record<string, string | undefined>;
}

export async function startServer(cmd: string[], dataDir: string, opts: ServerOptions = {}): Promise<ServerProcess> {
  const t0 = performance.now();
  const { proc, baseUrl, stderr } = await spawnServer(cmd, dataDir, opts);
  const deadline = Date.now() + 30_000;
  let listenMs = 0;
  for (;;) {
    try {
      const status = (await fetch(`${baseUrl}/healthz`)).status;
      listenMs ||= performance.now() - t0;
      if (status === 200) break;
    } catch {}
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`server did not become healthy:\n${stderr()}`);
    await Bun.sleep(20);
  }
  return { proc, baseUrl, listenMs, startMs: performance.now() - t0, stderr };
}

/** Starts `serve` without waiting for it to be healthy (listenMs and startMs stay 0). */
export async function spawnServer(cmd: string[], dataDir: string, opts: ServerOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  let log = "";
  const proc = Bun.spawn(
    [
      ...cmd,
      "serve",
      "--data-dir",
      dataDir,
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--log-level",
      "info",
      ...(opts.extraArgs ?? []),
    ],
    {
      cwd: opts.cwd ?? repoRoot,
      stdout: "ignore",
      stderr: "pipe",
      env: { ...process.env, REPORTGEN_RATE_LIMIT: "0", ...opts.env },
    },
  );
  void (async () => {
    const dec = new TextDecoder();
    for await (const c of proc.stderr as ReadableStream<Uint8Array>) log += dec.decode(c);
  })();
  return { proc, baseUrl: `http://127.0.0.1:${port}`, listenMs: 0, startMs: 0, stderr: () => log };
}

/** All live descendants of a process, and whether one is alive: from src's one /proc reader. */
export { descendantsOf as descendants, isAlive } from "../../src/lib/process-tree";

export async function api(baseUrl: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * Copies the repository's files and node_modules to `dest` (world-readable), so a test can build from
 * a copy and then delete it, or run the code as another user wherever the repo itself lives.
 * node_modules is hard-linked when on the same filesystem, else copied.
 */
export function copyRepo(dest: string): void {
  mkdirSync(dest, { recursive: true });
  chmodSync(dest, 0o755);
  const files = Bun.spawnSync(["git", "ls-files", "-co", "--exclude-standard", "-z"], { cwd: repoRoot })
    .stdout.toString()
    .split("\0")
    .filter(Boolean);
  // Generated and git-ignored, yet imported by the dashboard: the copy must run without scripts/setup.
  files.push("src/dashboard/assets/editor.bundle.js");
  const cp = Bun.spawnSync(["xargs", "-0", "cp", "--parents", "-t", dest], {
    cwd: repoRoot,
    stdin: new TextEncoder().encode(files.join("\0")),
  });
  if (cp.exitCode !== 0) throw new Error(`copying the repo failed: ${cp.stderr}`);
  const modules = [join(repoRoot, "node_modules"), join(dest, "node_modules")];
  if (Bun.spawnSync(["cp", "-al", ...modules]).exitCode !== 0 && Bun.spawnSync(["cp", "-a", ...modules]).exitCode !== 0) {
    throw new Error("copying node_modules failed");
  }
  Bun.spawnSync(["chmod", "-R", "a+rX", dest]);
}
