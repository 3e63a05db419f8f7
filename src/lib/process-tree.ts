// Finds and kills process trees through /proc (Linux). Chromium started by Playwright is not a direct
// handle we hold: it is found by a path unique to its worker (its profile folder lives there), and it
// is killed with everything it started, because a stopped (SIGSTOP) or orphaned Chromium never exits
// on its own when its pipe closes. SIGKILL ends stopped processes too.
import { readFileSync, readdirSync } from "node:fs";

interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  /** CPU time used (user + system), in clock ticks. */
  cpu: number;
  /** CPU time of its children that exited and were waited for (cutime + cstime), in clock ticks. */
  childCpu: number;
}

function readStat(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may itself contain spaces or parentheses.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return {
      pid,
      state: rest[0]!,
      ppid: Number(rest[1]),
      pgid: Number(rest[2]),
      cpu: Number(rest[11]) + Number(rest[12]),
      childCpu: Number(rest[13]) + Number(rest[14]),
    };
  } catch {
    return undefined;
  }
}

function allPids(): number[] {
  try {
    return readdirSync("/proc")
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
}

/** A process's command line, arguments joined by spaces ("" once it is gone or a zombie). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** Live processes (zombies excluded) whose command line contains `needle`. */
export function findProcesses(needle: string): number[] {
  return allPids().filter((pid) => pid !== process.pid && commandLine(pid).includes(needle) && readStat(pid)?.state !== "Z");
}

/** `roots`, their process groups' members and all their descendants. */
export function processTree(roots: number[]): number[] {
  const infos = allPids()
    .map(readStat)
    .filter((p): p is ProcInfo => !!p);
  const out = new Set<number>();
  const groups = new Set(
    roots.map((r) => infos.find((i) => i.pid === r)?.pgid).filter((g): g is number => !!g && g !== readStat(process.pid)?.pgid),
  );
  for (const i of infos) if (groups.has(i.pgid)) out.add(i.pid);
  const seen = new Set<number>();
  const queue = [...roots, ...out];
  while (queue.length) {
    const p = queue.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    out.add(p);
    for (const i of infos) if (i.ppid === p) queue.push(i.pid);
  }
  out.delete(process.pid);
  return [...out];
}

/** SIGKILLs every process of `pids` (stopped ones too); those already gone are skipped. */
export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/**
 * Waits until none of `pids` is alive, up to `timeoutMs`. Our own children must also have been reaped
 * (a zombie of ours would stay one if the thread that spawned it ended first); others' zombies count as gone.
 */
export async function waitGone(pids: number[], timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter((p) => {
      const s = readStat(p);
      return s && (s.state !== "Z" || s.ppid === process.pid);
    });
    if (alive.length === 0) return true;
    if (Date.now() > end) return false;
    await Bun.sleep(20);
  }
}

/**
 * Waits (up to `timeoutMs`) until this process has no zombie child left. A child that died before it
 * was found (its command line is empty once it is a zombie) is reaped by the thread that spawned it:
 * ending that thread first would leave the zombie for good.
 */
export async function waitChildrenReaped(timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (!allPids().some((p) => readStat(p)?.ppid === process.pid && readStat(p)?.state === "Z")) return true;
    if (Date.now() > end) return false;
    await Bun.sleep(20);
  }
}

/** A process's state letter and CPU time, for telling a frozen process from a starved one. */
export function processActivity(pid: number): { state: string; cpu: number } | undefined {
  const s = readStat(pid);
  return s && { state: s.state, cpu: s.cpu };
}

/**
 * Whether a process that did not answer in time is frozen rather than merely starved of CPU on a
 * saturated machine: stopped (SIGSTOP, a debugger), gone, or neither runnable nor using any CPU time
 * across the wait.
 */
export function seemsFrozen(
  before: { state: string; cpu: number } | undefined,
  after: { state: string; cpu: number } | undefined,
): boolean {
  if (!after || after.state === "Z" || after.state === "X") return true;
  if (after.state === "T" || after.state === "t") return true;
  if (after.state === "R") return false;
  return !before || after.cpu <= before.cpu;
}

/**
 * A process's memory from /proc/PID/smaps_rollup, in bytes. `pss` (proportional set size) is its private
 * memory plus its share of pages it shares with others, so the PSS of a process tree adds up to what the
 * tree costs the machine (RSS would count Chromium's shared libraries once per process); `uss` is its
 * private memory alone, which, unlike PSS, does not drop when other programs map the same files (another
 * Chromium on the machine). Undefined once it is gone, or when the kernel does not let us read it.
 */
export function memoryOf(pid: number): { pss: number; uss: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, "latin1");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? Number.NaN) * 1024;
    const pss = kb("Pss");
    return Number.isNaN(pss) ? undefined : { pss, uss: kb("Private_Clean") + kb("Private_Dirty") };
  } catch {
    return undefined;
  }
}

/** A process's proportional set size in bytes (see memoryOf). */
export function pssBytes(pid: number): number | undefined {
  return memoryOf(pid)?.pss;
}

/**
 * What a process of the service's tree is, from its command line: the server itself, an EJS sandbox,
 * or one of Chromium's processes (browser, renderer, the desktop browser's WebUI renderer, GPU, utility
 * services, zygotes). `serverPid` is the service's own process.
 */
export function processKind(pid: number, serverPid: number, sandboxArg: string): string {
  if (pid === serverPid) return "server";
  const cmd = commandLine(pid);
  if (!cmd) return "exited";
  if (cmd.includes(sandboxArg) || cmd.includes("sandbox-child")) return "sandbox";
  const type = /--type=(\S+)/.exec(cmd)?.[1];
  if (!type) return /chrom/i.test(cmd) ? "chromium browser" : "other";
  if (type === "renderer") return cmd.includes("--top-chrome-webui") || cmd.includes("--webui") ? "webui renderer" : "renderer";
  if (type === "utility") return `utility ${/--utility-sub-type=(\S+)/.exec(cmd)?.[1] ?? ""}`.trim();
  if (type === "gpu-process") return "gpu";
  return type;
}

/** `root` and all its descendants (by parent pid only, unlike processTree). */
export function descendants(root: number): number[] {
  const infos = allPids()
    .map(readStat)
    .filter((p): p is ProcInfo => !!p && p.state !== "Z");
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const p = queue.pop()!;
    if (out.includes(p)) continue;
    if (p === root || infos.some((i) => i.pid === p)) out.push(p);
    for (const i of infos) if (i.ppid === p) queue.push(i.pid);
  }
  return out;
}

/** CPU time (ms) used so far by `root` and its live descendants, with the children they reaped. */
export function treeCpuMs(root: number): number {
  const TICK_MS = 10; // USER_HZ is 100 on Linux
  return descendants(root).reduce((a, pid) => {
    const s = readStat(pid);
    return a + (s ? (s.cpu + s.childCpu) * TICK_MS : 0);
  }, 0);
}
