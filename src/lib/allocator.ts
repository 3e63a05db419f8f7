// Bun's allocator (mimalloc) settings for the long-running processes: the server and its EJS sandboxes.
//
// By default mimalloc hands memory it freed back to the OS 100 ms later, from a "mi-scavenger" thread,
// and takes it back page fault by page fault on the next report. Earlier versions of the service turned
// purging off (MIMALLOC_PURGE_DELAY=-1: 29 -> 19 ms of server CPU per invoice then), so the
// server kept its peak for good: 149 MiB USS 60 s after a burst of 240 invoices against 80 idle. It now
// purges what stayed free for 5 s: during a burst a page freed and reused within the delay is kept
// (each free also pushes its segment's purge back), and after it the scavenger returns the memory,
// helped by the quiet-period collection of lib/memory-trim.ts. Measured with `bun scripts/memory.ts`,
// then the server's CPU per invoice at c=1 over 80 PDFs, two alternating runs each (load average 13-20
// from other test runs on 2 cores): server USS 60 s after the burst 149 MiB with -1, 81 MiB with
// 5000 (idle: 72-80); CPU per PDF server 11.9 / 10.0 ms with -1, 11.5 / 11.1 with 5000, 11.1 / 10.8 with
// 100; a sandbox 2.9 / 2.6, 3.3 / 3.0, 3.3 / 2.9: within the noise of each other. An operator who
// prefers otherwise sets MIMALLOC_PURGE_DELAY (ms; -1 never purges) themselves; it is then left as it is.
// tests/process/allocator.test.ts checks that `serve` and its sandboxes run with the setting.
import { dlopen, FFIType, ptr } from "bun:ffi";
import { isCompiled } from "./runtime";

/** mimalloc reads its options from the environment once, as the process starts. */
const ALLOCATOR_DEFAULTS: Readonly<Record<string, string>> = { MIMALLOC_PURGE_DELAY: "5000" };

/** The allocator settings for a child process: the operator's own where set, ours otherwise. */
export function allocatorEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(ALLOCATOR_DEFAULTS).map(([k, v]) => [k, process.env[k] ?? v]));
}

/**
 * Replaces this process with a fresh run of the same command whose environment has the settings
 * (execve: same PID, same open descriptors, so supervisors and signals see no difference). Returns
 * only when there is nothing to do, or when execve is unavailable or fails (the service then runs
 * with mimalloc's defaults; the reason is returned for the log).
 */
export function reexecWithAllocatorSettings(): string | undefined {
  if (process.platform !== "linux" || Object.keys(ALLOCATOR_DEFAULTS).some((k) => process.env[k] !== undefined)) return undefined;
  try {
    // The compiled executable is its own program (argv[1] is its embedded entry); from source, bun
    // runs the entry script again with its own flags.
    const args = isCompiled
      ? [process.execPath, ...process.argv.slice(2)]
      : [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
    const env = Object.entries({ ...process.env, ...ALLOCATOR_DEFAULTS }).map(([k, v]) => `${k}=${v}`);
    const cstrings = (list: string[]) => {
      const bufs = list.map((s) => Buffer.from(`${s}\0`));
      const table = new BigUint64Array(bufs.length + 1);
      for (const [i, b] of bufs.entries()) table[i] = BigInt(ptr(b));
      return { bufs, table };
    };
    const path = Buffer.from(`${process.execPath}\0`);
    const a = cstrings(args);
    const e = cstrings(env);
    const libc = dlopen("libc.so.6", { execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 } });
    libc.symbols.execve(ptr(path), ptr(a.table), ptr(e.table));
    // Still here: execve failed. Keep the buffers alive until this point.
    void [a.bufs, e.bufs];
    return "execve failed";
  } catch (err) {
    return (err as Error).message;
  }
}
