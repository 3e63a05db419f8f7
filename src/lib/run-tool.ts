// Runs a short-lived tool (qpdf) under a deadline. The long-lived children are supervised
// (supervisor.ts); a tool run is one task, so its owner only needs the bound and the kill.
import { setPriority } from "node:os";

/** Variables a tool runs with on top of the service's own environment. */
export type ToolEnv = Record<string, string>;

export interface ToolRun {
  /** The exit code, or null when the process was killed (by a signal, or at the deadline). */
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The last 4 KB of its standard error, for the log. */
  stderr: string;
  ms: number;
  /** Its standard output, when asked for (`stdout: true`). */
  stdout?: Uint8Array;
}

/**
 * Runs a short-lived tool (qpdf) to completion under a deadline: in its own process group, which is
 * SIGKILLed whole at the deadline (or when `signal` aborts), at `nice` priority like Chromium, with
 * `stdin` (if given) as its standard input and `env` over the service's environment. The
 * long-lived children above are supervised; a tool run is one task, so its owner only needs the bound.
 */
export async function runTool(
  cmd: string[],
  o: { timeoutMs: number; nice?: number; signal?: AbortSignal; stdin?: string; stdout?: boolean; env?: ToolEnv },
): Promise<ToolRun> {
  const started = performance.now();
  const stdin = o.stdin === undefined ? "ignore" : new Blob([o.stdin]);
  const env = o.env ? { ...process.env, ...o.env } : undefined;
  const p = Bun.spawn({ cmd, env, detached: true, stdin, stdout: o.stdout ? "pipe" : "ignore", stderr: "pipe" });
  if (o.nice) {
    try {
      setPriority(p.pid, o.nice);
    } catch {
      // Gone already: its exit is read below.
    }
  }
  let timedOut = false;
  const killGroup = () => {
    try {
      process.kill(-p.pid, "SIGKILL");
    } catch {
      // The group is gone.
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, o.timeoutMs);
  o.signal?.addEventListener("abort", killGroup, { once: true });
  try {
    const out = o.stdout ? new Response(p.stdout as ReadableStream<Uint8Array>).arrayBuffer() : undefined;
    const [stderr, stdout] = await Promise.all([new Response(p.stderr).text(), out, p.exited]);
    return {
      ...(stdout ? { stdout: new Uint8Array(stdout) } : {}),
      code: p.exitCode,
      signal: p.signalCode ? String(p.signalCode) : null,
      timedOut,
      stderr: stderr.slice(-4096),
      ms: performance.now() - started,
    };
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener("abort", killGroup);
    // A tool that failed may have left children in its group (a wrapper script's): they go with it.
    // After a clean exit there is nothing to end, and the group's id may already be free for reuse.
    if (p.exitCode !== 0) killGroup();
  }
}
