// The one /proc reader (Linux): the service, the bench and the tests read processes only through here.
// It also finds and kills process trees. Chromium started by Playwright is not a direct handle we hold:
// it is found by a path unique to its worker (its profile folder lives there), and it is killed with
// everything it started, because a stopped (SIGSTOP) or orphaned Chromium never exits on its own when
// its pipe closes. SIGKILL ends stopped processes too.
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU times (USER_HZ is 100 on Linux). */
export const TICK_MS = 10;

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** R running, S sleeping, T stopped, Z zombie... */
  state: string;
  /** CPU time used (user + system), in clock ticks. */
  cpu: number;
  /** CPU time of children that exited and were waited for (cutime + cstime), in clock ticks. */
  childrenCpu: number;
  nice: number;
  /** Resident pages (a counter the kernel keeps: free to read, unlike PSS; see memoryOf). */
  rssPages: number;
}

/** /proc/<pid>/stat, or undefined once the process is gone. */
export function readStat(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    // The command name is in parentheses and may itself contain spaces or parentheses.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return {
      pid,
      state: f[0]!,
      ppid: Number(f[1]),
      pgid: Number(f[2]),
      cpu: Number(f[11]) + Number(f[12]),
      childrenCpu: Number(f[13]) + Number(f[14]),
      nice: Number(f[16]),
      rssPages: Number(f[21]),
    };
  } catch {
    return undefined;
  }
}

export function allPids(): number[] {
  try {
    return readdirSync("/proc")
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
}

/** Every process's stat at one moment, by pid. */
export function processTable(): Map<number, ProcInfo> {
  const out = new Map<number, ProcInfo>();
  for (const pid of allPids()) {
    const s = readStat(pid);
    if (s) out.set(pid, s);
  }
  return out;
}

/** `root` (when alive) and all its descendants, from one snapshot of the process table. */
export function treeOf(root: number, table: Map<number, ProcInfo> = processTable()): number[] {
  const kids = new Map<number, number[]>();
  for (const [pid, p] of table) {
    const list = kids.get(p.ppid);
    if (list) list.push(pid);
    else kids.set(p.ppid, [pid]);
  }
  const out: number[] = [];
  const stack = table.has(root) ? [root] : [];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(kids.get(pid) ?? []));
  }
  return out;
}

/** Live descendants of `pid` (not `pid` itself). */
export function descendantsOf(pid: number): number[] {
  return treeOf(pid).filter((p) => p !== pid);
}

/** Whether a process exists and is not a zombie (a zombie is dead, only not yet reaped). */
export function isAlive(pid: number): boolean {
  const s = readStat(pid);
  return !!s && s.state !== "Z";
}

/** Machine CPU time so far (ms): user + nice + system + irq + softirq + steal over all CPUs (not idle, not iowait). */
export function machineCpuMs(): number {
  const f = readFileSync("/proc/stat", "latin1").split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = f;
  return (user + nice + system + irq + softirq + steal) * TICK_MS;
}

/** A process's environment as a record ({} once it is gone). */
export function environOf(pid: number): Record<string, string> {
  try {
    return Object.fromEntries(
      readFileSync(`/proc/${pid}/environ`, "utf8")
        .split("\0")
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
    );
  } catch {
    return {};
  }
}

/** The ids of a process's threads ([] once it is gone). */
export function threadIds(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [];
  }
}

/** The names (comm) of a process's threads. */
export function threadNames(pid: number): string[] {
  return threadIds(pid).map((tid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
    } catch {
      return "";
    }
  });
}

/** Open file descriptors of a process (0 once it is gone). */
export function openFdCount(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

/** A numeric field of /proc/<pid>/status (VmRSS and VmHWM are in KiB; Seccomp is the mode); undefined when absent. */
export function statusField(pid: number | "self", field: string): number | undefined {
  try {
    const v = new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(readFileSync(`/proc/${pid}/status`, "latin1"))?.[1];
    return v === undefined ? undefined : Number(v);
  } catch {
    return undefined;
  }
}

/** The soft limit on open files of a process (Bun raises it to the hard one at start); 4096 when it cannot be read. */
export function openFileLimit(pid: number | "self" = "self"): number {
  try {
    const soft = /^Max open files\s+(\S+)/m.exec(readFileSync(`/proc/${pid}/limits`, "utf8"))?.[1];
    if (soft === "unlimited") return Number.MAX_SAFE_INTEGER;
    const n = Number(soft);
    return Number.isInteger(n) && n > 0 ? n : 4096;
  } catch {
    return 4096;
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
export function memoryOf(pid: number): { rss: number; pss: number; uss: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, "latin1");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? Number.NaN) * 1024;
    const pss = kb("Pss");
    return Number.isNaN(pss) ? undefined : { rss: kb("Rss"), pss, uss: kb("Private_Clean") + kb("Private_Dirty") };
  } catch {
    return undefined;
  }
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

/** CPU time (ms) used so far by `root` and its live descendants, with the children they reaped. */
export function treeCpuMs(root: number): number {
  const table = processTable();
  return treeOf(root, table).reduce((a, pid) => {
    const s = table.get(pid);
    return a + (s ? (s.cpu + s.childrenCpu) * TICK_MS : 0);
  }, 0);
}
