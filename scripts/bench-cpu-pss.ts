// CPU and memory accounting of the bench's sides, all read from /proc through src/lib/process-tree.ts:
// CPU per process kind (server, sandbox, Chromium, this bench), the floor Chromium's nice value, and the
// peak PSS of each side's process tree.
import { setPriority } from "node:os";
import { commandLine, memoryOf, type ProcInfo, processTable, TICK_MS, threadIds, treeOf } from "../src/lib/process-tree";
import { CHROMIUM, DESKTOP_CHROMIUM, isService, type Side } from "./bench-settings";

// ---------------------------------------------------------------------------------------------
// CPU accounting from /proc

/**
 * A process's CPU so far, in ticks: its own (utime + stime) plus that of children that exited and were
 * waited for. Chromium starts a PrintCompositor utility process for every print (forked by its zygote,
 * gone ~0.1 s later): ~75 ms of CPU per invoice on this machine, more than the rest of Chromium, and
 * counted only in its parent's children's time.
 */
export const ticksOf = (p: ProcInfo | undefined) => (p ? p.cpu + p.childrenCpu : 0);

export type Kind = "server" | "sandbox" | "chromium" | "bench";
const kindCache = new Map<number, Kind>();
function kindOf(pid: number, serverPid: number, procs: Map<number, ProcInfo>): Kind {
  if (pid === process.pid) return "bench";
  if (pid === serverPid) return "server";
  let k = kindCache.get(pid);
  if (k) return k;
  const cmd = commandLine(pid);
  // A process that has just exited (a print's PrintCompositor) has no command line left: it is of its
  // parent's kind. Counted as a sandbox, its CPU would move to Chromium when reaped, and the sandbox
  // column would go negative.
  if (!cmd) {
    const ppid = procs.get(pid)?.ppid;
    return ppid && procs.has(ppid) ? kindOf(ppid, serverPid, procs) : "sandbox";
  }
  k = /chrom/i.test(cmd) ? "chromium" : "sandbox";
  kindCache.set(pid, k);
  return k;
}

/** CPU ms so far of the processes one side uses, by kind: the service's tree or the floor's Chromium, plus this process. */
export function ownCpu(side: Side, serverPid: number): Record<Kind, number> {
  const procs = processTable();
  const service = new Set(treeOf(serverPid, procs));
  const pids = isService(side) ? [...service, process.pid] : treeOf(process.pid, procs).filter((p) => !service.has(p));
  const out: Record<Kind, number> = { server: 0, sandbox: 0, chromium: 0, bench: 0 };
  for (const pid of pids) out[kindOf(pid, serverPid, procs)] += ticksOf(procs.get(pid)) * TICK_MS;
  return out;
}

/** Gives every thread of every process under `root` the nice value `nice` (children forked later inherit it). */
export function renice(root: number, nice: number, exclude: Set<number>) {
  for (const pid of treeOf(root)) {
    if (pid === process.pid || exclude.has(pid)) continue;
    for (const tid of threadIds(pid)) {
      try {
        setPriority(tid, nice);
      } catch {}
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Peak PSS from /proc

/** Peak PSS (bytes) of each side's process tree, sampled over the whole run. */
export const peakPss = { service: 0, floor: 0, desktop: 0 };
const pssOf = (pids: number[]) => pids.reduce((a, pid) => a + (memoryOf(pid)?.pss ?? 0), 0);
export function treePss(root: number | undefined): number {
  return root ? pssOf(treeOf(root)) : 0;
}
/** A floor's browser process: a child of this process running `executable`, without --type=. */
export function floorBrowser(executable: string): number | undefined {
  return treeOf(process.pid).find((pid) => {
    const cmd = commandLine(pid);
    return cmd.startsWith(`${executable} `) && !cmd.includes("--type=");
  });
}
/**
 * Samples each side's tree every 250 ms, but reads its PSS only when the tree's resident size passes its
 * highest so far (PSS peaks with it). A PSS read walks every mapping of every process
 * (/proc/PID/smaps_rollup): for the three trees, ~60 processes, ~210 ms of system CPU on this 2-core
 * machine (2026-11-26), so reading it 4 times a second took most of a core from the sides being measured
 * (the bench's own CPU: ~24 ms per invoice on every side). The resident size is a counter in
 * /proc/PID/stat, read with the process table the tree comes from anyway.
 */
export function startPssSampler(servicePid: number): () => void {
  const roots = { service: servicePid, floor: floorBrowser(CHROMIUM), desktop: floorBrowser(DESKTOP_CHROMIUM) };
  const highestRss = { service: 0, floor: 0, desktop: 0 };
  const sample = () => {
    const table = processTable();
    for (const side of ["service", "floor", "desktop"] as const) {
      const root = roots[side];
      if (root === undefined) continue;
      const pids = treeOf(root, table);
      const rss = pids.reduce((a, pid) => a + (table.get(pid)?.rssPages ?? 0), 0);
      if (rss <= highestRss[side]) continue;
      highestRss[side] = rss;
      peakPss[side] = Math.max(peakPss[side], pssOf(pids));
    }
  };
  const timer = setInterval(sample, 250);
  return () => clearInterval(timer);
}
