// The black-box tier's harness: the compiled executable, started as a separate process on its DEFAULT
// settings (only --data-dir, --host and --port; no REPORTGEN_* variable reaches it), driven only over
// HTTP and through its own CLI, as a client and an operator would.
//
// The executable is built once per test run (all files of one `bun test` process share it).
// BLACKBOX_BINARY=<path> runs the tier against an existing executable instead, e.g. one built from
// another commit, to show what fails there.
import { afterAll, beforeAll } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readStat, statusField, TICK_MS } from "../../src/lib/process-tree";
import { freePort, repoRoot } from "../helpers/process";

let built: string | undefined;

/** The executable under test: built from this checkout on first use, removed when the run ends. */
export function binary(): string {
  if (process.env.BLACKBOX_BINARY) return process.env.BLACKBOX_BINARY;
  if (built && existsSync(built)) return built;
  const dir = mkdtempSync(join(tmpdir(), "reportgen-blackbox-bin-"));
  const out = join(dir, "reportgen");
  const build = Bun.spawnSync([process.execPath, join(repoRoot, "scripts", "build.ts"), out], { cwd: repoRoot });
  if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr}`);
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return (built = out);
}

/** The environment without any REPORTGEN_* setting: the executable sees its defaults only. */
export function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("REPORTGEN_")) env[k] = v;
  return env;
}

/** Runs a CLI command of the executable to completion. */
export function cli(args: string[]) {
  const p = Bun.spawnSync([binary(), ...args], { env: cleanEnv(), cwd: tmpdir() });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

/** Mints a key with `admin create-key` (works while a server runs on the same data dir). */
export function createKey(dataDir: string, name = "blackbox"): string {
  const r = cli(["admin", "create-key", "--name", name, "--data-dir", dataDir]);
  if (r.code !== 0) throw new Error(`create-key failed: ${r.stderr}`);
  return r.stdout.trim();
}

export interface Server {
  pid: number;
  port: number;
  base: string;
  dataDir: string;
  log: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number>;
  stop: (signal?: "SIGTERM" | "SIGKILL") => Promise<void>;
}

export interface StartOptions {
  extraArgs?: string[];
  port?: number;
  /** Variables added to the clean environment (a bucket's AWS_*). */
  env?: Record<string, string>;
  /**
   * Run in a process group of its own (setsid; its pid is the group's id), so that a test can kill it
   * with everything it started (Chromium, sandboxes) at once: process.kill(-pid, "SIGKILL").
   */
  ownGroup?: boolean;
  /** What "started" means: /healthz 200 (Chromium ready; the default) or /readyz 200 (an `api` role has no Chromium). */
  ready?: "/healthz" | "/readyz";
  /** How long start-up may take (default 60 s). */
  timeoutMs?: number;
}

/**
 * Starts `reportgen serve` on defaults; resolves once it is ready (/healthz 200 by default: Chromium ready).
 * `extraArgs` exist for the few tests that must shorten a timeout to stay quick, and for the cluster's
 * settings; say why where used.
 */
export async function startServer(dataDir: string, opts: StartOptions = {}): Promise<Server> {
  const port = opts.port ?? (await freePort());
  let log = "";
  const serve = [binary(), "serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", String(port), ...(opts.extraArgs ?? [])];
  const proc = Bun.spawn(opts.ownGroup ? ["setsid", ...serve] : serve, {
    env: { ...cleanEnv(), ...opts.env },
    cwd: tmpdir(),
    stdout: "pipe",
    stderr: "pipe",
  });
  const collect = async (s: ReadableStream<Uint8Array>) => {
    const dec = new TextDecoder();
    for await (const c of s) log += dec.decode(c);
  };
  void collect(proc.stdout as ReadableStream<Uint8Array>);
  void collect(proc.stderr as ReadableStream<Uint8Array>);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    try {
      if ((await fetch(`${base}${opts.ready ?? "/healthz"}`)).status === 200) break;
    } catch {}
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`reportgen did not become ready:\n${log}`);
    await Bun.sleep(50);
  }
  return {
    pid: proc.pid,
    port,
    base,
    dataDir,
    log: () => log,
    exited: proc.exited,
    stop: async (signal = "SIGTERM") => {
      if (proc.exitCode === null) proc.kill(signal);
      await proc.exited;
    },
  };
}

/** A fresh data dir, removed by the returned function. */
export function tempDataDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "reportgen-blackbox-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** CPU seconds (user + system, all threads) a process has used. */
export const cpuSeconds = (pid: number) => ((readStat(pid)?.cpu ?? 0) * TICK_MS) / 1000;

/** Peak resident memory (VmHWM) of a process, in bytes. */
export const peakRss = (pid: number) => (statusField(pid, "VmHWM") ?? 0) * 1024;

/** Current resident memory (VmRSS) of a process, in bytes. */
export const rss = (pid: number) => (statusField(pid, "VmRSS") ?? 0) * 1024;

export const api = (s: Server, key: string | null, method: string, path: string, body?: unknown) =>
  fetch(`${s.base}/api/v1${path}`, {
    method,
    headers: { ...(key === null ? {} : { "x-api-key": key }), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

export interface Running {
  readonly server: Server;
  /** A key minted by the CLI before the server started. */
  readonly key: string;
  readonly dataDir: string;
  /** Stops the server (SIGTERM) and starts it again on the same data dir. */
  restart: () => Promise<void>;
}

/** One server on defaults for a test file: a fresh data dir and a key before, stopped and removed after. */
export function useServer(): Running {
  const data = tempDataDir();
  let server: Server | undefined;
  let key = "";
  beforeAll(async () => {
    key = createKey(data.dir, "first");
    server = await startServer(data.dir);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    data.remove();
  });
  return {
    get server() {
      return server!;
    },
    get key() {
      return key;
    },
    dataDir: data.dir,
    restart: async () => {
      await server?.stop();
      server = await startServer(data.dir);
    },
  };
}

/**
 * A data dir and a key for a file whose tests start their own servers (some with extra arguments);
 * every server still running is stopped, and the dir removed, after the file.
 */
export function useServers() {
  const data = tempDataDir();
  let key = "";
  const servers: Server[] = [];
  beforeAll(() => {
    key = createKey(data.dir);
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    data.remove();
  });
  return {
    dataDir: data.dir,
    get key() {
      return key;
    },
    start: async (extraArgs: string[] = []) => {
      const s = await startServer(data.dir, { extraArgs });
      servers.push(s);
      return s;
    },
    stop: async (s: Server) => {
      await s.stop();
      servers.splice(servers.indexOf(s), 1);
    },
  };
}
