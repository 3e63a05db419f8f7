// One supervised worker thread that runs tasks one at a time, off the event loop: the data_schema
// validator's and the rasteriser's. The thread starts with the first task (a service that never needs it
// never pays its memory), runs under the supervisor (start timeout, backoff, restart counts by kind) and
// answers its pings. Each task has a deadline counted in the thread's own CPU time: past it the thread
// is terminated and replaced, and the task fails with the owner's error. What waits is a bounded queue.
import { readFileSync } from "node:fs";
import { type Transferable, Worker } from "node:worker_threads";
import type { Logger } from "./logger";
import { type Child, type ChildKind, ChildRegistry, Supervisor } from "./supervisor";
import { ThreadLink } from "./thread-link";

/** What a task thread's entry (task-thread-worker.ts) and its owner say to each other. */
export type ToTaskThread<In> = { type: "task"; id: number; task: In } | { type: "ping"; id: number };
export type FromTaskThread<Out> =
  | { type: "ready"; tid?: number }
  | { type: "done"; id: number; out: Out }
  | { type: "failed"; id: number; message: string }
  | { type: "pong"; id: number };

/** What a task thread starts with (workerData). */
export interface TaskThreadData {
  nice: number;
}

export interface TaskThreadOptions {
  kind: ChildKind;
  name: string;
  /** The thread's entry, from src/ (entrypointUrl); scripts/build.ts compiles it in. */
  entry: URL;
  /** The deadline of one task, in the thread's CPU time. */
  timeoutMs: number;
  /** The thread's CPU priority (--render-nice), below the event loop's. */
  nice: number;
  /** How long the thread may take to load what it needs. */
  startTimeoutMs: number;
  /** Tasks waiting beyond the one in flight; beyond, `errors.busy`. */
  queueMax: number;
  /**
   * Ends the thread after this long without a task (its memory back to the system: a rasteriser's heap
   * grows to its largest page); the next task starts it again. Undefined: it stays.
   */
  idleStopMs?: number;
  logger: Logger;
  errors: {
    /** The task used its deadline's CPU: `what` names it. */
    overran(what: string, seconds: number): Error;
    /** No room or no time: the queue is full, the thread starved, or the service stops. */
    busy(reason: string, retryAfterS: number): Error;
    /** The thread failed by itself, or the task failed in it with `message`. */
    failed(message: string): Error;
  };
}

/**
 * How far past the deadline a task may wait for a CPU it did not get. The deadline counts the thread's own
 * CPU time: on a saturated machine the niced thread can wait seconds for a core, and that is the service's
 * load, not the task's fault. Past this many deadlines of wall time it is `busy` instead.
 */
const STARVED_DEADLINES = 10;
const CLOCK_TICKS = 100;

/** CPU milliseconds a thread of this process has used (/proc/self/task/TID/stat); undefined off Linux. */
function threadCpuMs(tid: number | undefined): number | undefined {
  if (tid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "latin1");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 (utime, stime) in clock ticks; the slice starts at field 3.
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

interface Pending<In, Out> {
  task: In;
  transfer: Transferable[];
  /** Says what overran the deadline, e.g. "checking data against data_schema". */
  what: string;
  resolve: (v: Out) => void;
  reject: (e: Error) => void;
}

/** One generation of the thread. */
class Generation<In, Out> implements Child {
  private readonly worker: Worker;
  private readonly link: ThreadLink;
  pending?: Pending<In, Out>;
  private taskId = 0;
  private timer?: Timer;
  /** The thread's id (its "ready" says it), to read its CPU time. */
  private tid?: number;

  constructor(
    private readonly owner: TaskThread<In, Out>,
    died: (cause: string) => void,
  ) {
    this.worker = new Worker(owner.opts.entry, { workerData: { nice: owner.opts.nice } satisfies TaskThreadData });
    // A one-shot command (reportgen diff) ends when its work does, not when the idle thread would.
    this.worker.unref();
    this.link = new ThreadLink(this.worker, died);
    this.worker.on("message", (m: FromTaskThread<Out>) => {
      this.link.heard(m);
      if (m.type === "ready") this.tid = m.tid;
      if (m.type === "done" && m.id === this.taskId) this.settle((t) => t.resolve(m.out));
      if (m.type === "failed" && m.id === this.taskId) this.settle((t) => t.reject(this.owner.opts.errors.failed(m.message)));
    });
  }

  start(): Promise<void> {
    return this.link.started();
  }

  run(p: Pending<In, Out>): void {
    this.pending = p;
    const id = ++this.taskId;
    const limit = this.owner.opts.timeoutMs;
    const cpu0 = threadCpuMs(this.tid);
    const wall0 = performance.now();
    // At the deadline: overrun if the thread spent it on CPU; else it waited for a core, and gets the rest.
    const check = () => {
      const used = cpu0 === undefined ? undefined : threadCpuMs(this.tid)! - cpu0;
      if (used === undefined || used >= limit * 0.9) return this.owner.overran(this);
      if (performance.now() - wall0 > limit * STARVED_DEADLINES) return this.owner.starved(this);
      this.timer = setTimeout(check, Math.max(50, limit - used));
    };
    this.timer = setTimeout(check, limit);
    this.worker.postMessage({ type: "task", id, task: p.task } satisfies ToTaskThread<In>, p.transfer);
  }

  /** Takes the task in flight (if any) off the thread, without starting the next one. */
  take(): Pending<In, Out> | undefined {
    const t = this.pending;
    clearTimeout(this.timer);
    this.pending = undefined;
    return t;
  }

  /** Ends the task in flight, if any, with `how`; then the next one can start. */
  settle(how: (t: Pending<In, Out>) => void): void {
    const t = this.take();
    if (t) how(t);
    this.owner.dispatch();
  }

  probe(): Promise<boolean> {
    return this.link.probe();
  }

  async kill(): Promise<void> {
    clearTimeout(this.timer);
    await this.link.kill();
  }
}

export class TaskThread<In, Out> {
  private sup?: Supervisor<Generation<In, Out>>;
  private registry?: ChildRegistry;
  private readonly waiting: Pending<In, Out>[] = [];
  private stopped = false;
  private idleTimer?: Timer;

  constructor(readonly opts: TaskThreadOptions) {}

  /** Counts the thread's restarts in `registry` (the App's) from now on; the thread itself starts with the first task. */
  start(registry: ChildRegistry): void {
    this.registry ??= registry;
  }

  /** The thread's supervisor, created and started by the first task. */
  private launch(): Supervisor<Generation<In, Out>> {
    this.sup ??= new Supervisor<Generation<In, Out>>({
      kind: this.opts.kind,
      name: this.opts.name,
      create: (died) => new Generation(this, died),
      startTimeoutMs: this.opts.startTimeoutMs,
      // A busy thread answers no ping until its task ends, which the deadline bounds.
      probe: { intervalMs: 10_000, timeoutMs: this.opts.timeoutMs + 5_000, failures: 2 },
      logger: this.opts.logger,
      registry: (this.registry ??= new ChildRegistry()),
      onReady: () => this.dispatch(),
      // A thread that failed by itself (not a deadline: that task is settled already) fails its task.
      onDown: (g) => g.settle((t) => t.reject(this.opts.errors.failed(`the ${this.opts.name} thread stopped unexpectedly`))),
    });
    void this.sup.start();
    return this.sup;
  }

  /** Fails what waits and what runs, and ends the thread. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.idleTimer);
    const shuttingDown = () => this.opts.errors.busy("the service is shutting down", 5);
    for (const t of this.waiting.splice(0)) t.reject(shuttingDown());
    this.sup?.child?.take()?.reject(shuttingDown());
    await this.sup?.stop();
  }

  /** Runs `task` in the thread; `transfer` moves its buffers there instead of copying them. */
  run(task: In, what: string, transfer: Transferable[] = []): Promise<Out> {
    return new Promise((resolve, reject) => {
      if (this.stopped) return reject(this.opts.errors.busy("the service is shutting down", 5));
      if (this.waiting.length >= this.opts.queueMax)
        return reject(this.opts.errors.busy(`${this.opts.queueMax} tasks of the ${this.opts.name} thread waiting, its limit`, 1));
      this.waiting.push({ task, transfer, what, resolve, reject });
      this.launch();
      this.dispatch();
    });
  }

  /** Hands the next waiting task to the thread when it is ready and idle. */
  dispatch(): void {
    const g = this.sup?.child;
    clearTimeout(this.idleTimer);
    if (g && !g.pending && this.waiting.length) g.run(this.waiting.shift()!);
    else if (g && !g.pending && this.opts.idleStopMs !== undefined) {
      this.idleTimer = setTimeout(() => this.rest(), this.opts.idleStopMs);
      this.idleTimer.unref();
    }
  }

  /** Ends an idle thread; the next task starts a new one. */
  private rest(): void {
    const sup = this.sup;
    if (!sup || sup.child?.pending || this.waiting.length) return;
    this.sup = undefined;
    void sup.stop();
  }

  /** The task in flight waited far past its deadline without getting the CPU it needed: the service's load. */
  starved(g: Generation<In, Out>): void {
    const t = g.take();
    this.sup?.fail(g, `a ${this.opts.name} task waited for a core far past its deadline`, { planned: true });
    t?.reject(this.opts.errors.busy(`the server is too busy for ${t.what} now: retry after Retry-After seconds`, 5));
  }

  /** The task in flight passed its deadline: the thread (stuck in it) is replaced at once. */
  overran(g: Generation<In, Out>): void {
    // Off the thread first: no next task may be handed to it before it is taken down.
    const t = g.take();
    this.sup?.fail(g, `a ${this.opts.name} task overran its deadline`, { planned: true });
    t?.reject(this.opts.errors.overran(t.what, this.opts.timeoutMs / 1000));
  }
}
