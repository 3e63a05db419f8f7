// The thread's end of a TaskThread (task-thread.ts): its priority, its "ready" once `load` is done, its
// answers to pings, and each task's result or failure. A task's own entry file only says what it does.
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, type Transferable, workerData } from "node:worker_threads";
import type { FromTaskThread, TaskThreadData, ToTaskThread } from "./task-thread";

/**
 * Serves tasks with `handle`, one at a time, after `load` (what the thread needs before its first task).
 * `transfer` names the buffers of a result that move to the owner instead of being copied. A handler
 * that throws fails its task with the error's message.
 */
export async function serveTasks<In, Out>(
  handle: (task: In) => Out | Promise<Out>,
  options: { load?: () => Promise<void>; transfer?: (out: Out) => Transferable[] } = {},
): Promise<void> {
  const port = parentPort!;
  // Linux gives each thread its own nice value (setpriority on the thread's id): a thread busy for seconds
  // then yields the cores to the event loop, as Chromium and the sandboxes do.
  let tid: number | undefined;
  try {
    tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    setPriority(tid, (workerData as TaskThreadData).nice);
  } catch {
    // Not Linux, or no /proc: the thread keeps the process's priority.
  }
  await options.load?.();
  port.on("message", async (m: ToTaskThread<In>) => {
    if (m.type === "ping") return port.postMessage({ type: "pong", id: m.id } satisfies FromTaskThread<Out>);
    try {
      const out = await handle(m.task);
      port.postMessage({ type: "done", id: m.id, out } satisfies FromTaskThread<Out>, options.transfer?.(out) ?? []);
    } catch (e) {
      port.postMessage({ type: "failed", id: m.id, message: (e as Error).message } satisfies FromTaskThread<Out>);
    }
  });
  // Its id lets the owner count the deadline in this thread's CPU time.
  port.postMessage({ type: "ready", tid } satisfies FromTaskThread<Out>);
}
