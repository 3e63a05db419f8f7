// The render pool: worker threads, each owning one Chromium with a few reused pages, each under the
// supervisor (start timeout, backoff, CDP health probe, whole process tree killed on replacement).
// Jobs go to the worker with the most free pages and carry a deadline enforced here, on the owner's
// side: a worker that does not answer in time is declared hung and replaced, and its jobs fail
// retryably with an infrastructure code, so the report processor tries them again. After
// --recycle-after renders a worker is replaced as planned through its supervisor: the new worker and
// Chromium start while the old one prints on, and the old one retires once they are ready and its
// prints are done, so reports neither wait nor fail for a recycle.
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { RenderError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { findProcesses, killAll, processTree, waitChildrenReaped, waitGone } from "../lib/process-tree";
import { entrypointUrl } from "../lib/runtime";
import { type Child, type ChildFailure, type ChildRegistry, Supervisor } from "../lib/supervisor";
import { StartHandshake, SupervisorGroup } from "../lib/supervisor-group";
import { chromiumTmpDir, removeWorkerTemp } from "../lib/temp";
import type { BrowserOptions, RenderJob } from "./browser";
import { INFRA_MESSAGES } from "./render-failure";
import type { FromWorker, ToWorker, WorkerData } from "./worker-protocol";

export interface PoolOptions extends Omit<BrowserOptions, "proxyUrl"> {
  /** The checking egress proxy, when hosts are allow-listed: its URL is read as each worker starts. */
  proxy?: { readonly url: string };
  workers: number;
  /** Renders after which a worker's Chromium is replaced (bounds its memory growth). */
  recycleAfter: number;
  nice: number;
  logger: Logger;
  registry: ChildRegistry;
  /** Folder for the workers' temp folders (Chromium profiles); emptied at start by the App. */
  tmpRoot: string;
}

interface Pending {
  resolve: (pdf: Uint8Array) => void;
  reject: (e: Error) => void;
  /** Log fields of the report (report_id, request_id). */
  fields?: Record<string, unknown>;
  timer?: Timer;
}

/** Chromium, including a recycle inside the worker, may take this long to come up on a loaded machine. */
const START_TIMEOUT_MS = 45_000;
/** A job may outlive its render deadline by this much (a page replacement, a recycle) before its worker counts as hung. */
const JOB_GRACE_MS = 20_000;
/**
 * The health probe: Browser.getVersion every second, 2.5 s to answer, replaced after 2 failures in a
 * row. A late answer from a Chromium that is runnable or used CPU meanwhile is not a failure (see
 * BrowserHost.responsive): on a saturated machine (load ~40 on 2 cores) the niced worker thread and
 * Chromium answered in over 3 s and were replaced for nothing. The worker thread itself gets 10 s more.
 */
export const CHROMIUM_PROBE = { intervalMs: 1_000, timeoutMs: 2_500, failures: 2, answerGraceMs: 10_000 };

/** A new render worker thread; it waits for its settings (the "init" message). */
function renderThread(): Worker {
  // scripts/build.ts lists render/worker.ts as an entrypoint of the executable.
  return new Worker(entrypointUrl("render/worker.ts"));
}

let prestarted: { worker: Worker; failed: boolean } | undefined;

/**
 * Starts the first render worker thread now, before the service knows its settings: loading
 * playwright-core takes the thread ~300 ms, which then overlaps the rest of serve's start (opening the
 * database, migrations, the modules) instead of coming after it. The pool's first worker takes it.
 */
export function prestartRenderThread(): void {
  if (prestarted) return;
  const p = { worker: renderThread(), failed: false };
  // A thread that fails before the pool listens is noted (an unheard "error" would end the process), and
  // the pool starts a fresh one instead.
  const failed = () => (p.failed = true);
  p.worker.once("error", failed).once("exit", failed);
  // Until the pool takes it, it keeps nothing alive (a start that fails before then exits as it would).
  p.worker.unref();
  prestarted = p;
}

function takePrestartedThread(): Worker | undefined {
  const p = prestarted;
  prestarted = undefined;
  if (!p) return undefined;
  p.worker.removeAllListeners();
  if (!p.failed) return p.worker;
  void p.worker.terminate().catch(() => {});
  return undefined;
}

/** One render worker thread and its Chromium: one generation of a supervised child. */
class RenderWorker implements Child {
  readonly worker: Worker;
  readonly inFlight = new Map<number, Pending>();
  private readonly tmpDir: string;
  private readonly probes = new Map<number, (ok: boolean) => void>();
  private nextProbe = 1;
  /** Renders this worker's Chromium finished, for recycling. */
  private renders = 0;
  private whenDrained?: () => void;
  private readonly handshake = new StartHandshake();
  private stopped?: () => void;

  constructor(
    private readonly pool: RenderPool,
    private readonly sup: () => Supervisor<RenderWorker>,
    private readonly died: (cause: string) => void,
  ) {
    const { workers: _w, logger: _l, registry: _r, recycleAfter: _ra, tmpRoot, proxy, ...rest } = pool.opts;
    const browser = { ...rest, proxyUrl: proxy?.url };
    mkdirSync(tmpRoot, { recursive: true, mode: 0o700 });
    this.tmpDir = mkdtempSync(join(tmpRoot, "worker-"));
    this.worker = takePrestartedThread() ?? renderThread();
    this.worker.ref();
    const data: WorkerData = {
      ...browser,
      // The first generation is the service's start: ready without waiting for a page (BrowserOptions).
      readyBeforePages: !pool.readyOnce.has(sup()),
      tmpDir: this.tmpDir,
      chromiumTmpDir: chromiumTmpDir(this.tmpDir, tmpdir()),
    };
    this.worker.postMessage({ type: "init", data } satisfies ToWorker);
    this.worker.on("message", (m: FromWorker) => this.onMessage(m));
    this.worker.on("error", (e: Error) => this.gone(`worker error: ${e.message}`));
    this.worker.on("exit", () => this.gone("the worker thread exited"));
  }

  start(): Promise<void> {
    return this.handshake.started;
  }

  probe(timeoutMs: number): Promise<boolean> {
    const id = this.nextProbe++;
    return new Promise<boolean>((resolve) => {
      this.probes.set(id, resolve);
      this.worker.postMessage({ type: "probe", id, timeoutMs } satisfies ToWorker);
    }).finally(() => this.probes.delete(id));
  }

  stop(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.stopped = resolve;
      this.worker.postMessage({ type: "stop" } satisfies ToWorker);
    });
  }

  /** SIGKILLs this worker's Chromium with its whole tree (a stopped one too), then ends the thread. */
  async kill(): Promise<void> {
    this.worker.removeAllListeners();
    const pids = processTree(findProcesses(this.tmpDir));
    killAll(pids);
    await waitGone(pids, 2_000);
    await waitChildrenReaped(2_000);
    await this.worker.terminate().catch(() => {});
    removeWorkerTemp(this.tmpDir);
  }

  /** Resolves once no render is in flight here (this worker gets no new ones once it was replaced). */
  drained(): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.whenDrained = resolve));
  }

  get free(): number {
    return this.pool.opts.pages - this.inFlight.size;
  }

  send(id: number, job: RenderJob, p: Pending) {
    this.inFlight.set(id, p);
    this.worker.postMessage({ type: "render", id, job } satisfies ToWorker);
  }

  /** Fails every job in flight with an infrastructure error (retryable). */
  failAll(err: RenderError) {
    for (const p of this.inFlight.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.inFlight.clear();
  }

  private onMessage(m: FromWorker) {
    switch (m.type) {
      case "ready":
        return this.handshake.ready();
      case "done":
      case "failed": {
        const p = this.inFlight.get(m.id);
        this.inFlight.delete(m.id);
        clearTimeout(p?.timer);
        if (this.inFlight.size === 0) this.whenDrained?.();
        if (++this.renders >= this.pool.opts.recycleAfter) this.recycle(`recycled after ${this.renders} renders`);
        if (m.type === "done") p?.resolve(m.pdf);
        else {
          if (m.code === "renderer_crashed" || m.code === "renderer_unresponsive")
            this.pool.opts.logger.warn("a render was interrupted by a Chromium fault; the report will be retried", {
              code: m.code,
              ...p?.fields,
            });
          p?.reject(new RenderError(m.code, m.message));
        }
        return this.pool.dispatch();
      }
      case "probed":
        return this.probes.get(m.id)?.(m.ok);
      case "worn":
        return this.recycle(m.reason);
      case "fatal":
        this.handshake.fail(new Error(m.reason));
        return this.died(m.reason);
      case "stopped":
        return this.stopped?.();
    }
  }

  /** Asks the supervisor for a planned replacement (ignored while one is starting or once replaced). */
  private recycle(cause: string) {
    if (this.sup().replace(this, cause)) this.pool.opts.logger.info("recycling Chromium", { cause });
  }

  private gone(cause: string) {
    this.handshake.fail(new Error(cause));
    this.died(cause);
  }
}

/** A report waiting for a page of some worker. */
type RenderTask = Pending & { job: RenderJob };

export class RenderPool extends SupervisorGroup<RenderWorker, RenderTask> {
  private nextId = 1;
  /** The members whose worker was ready once: their next generations are replacements. */
  readonly readyOnce = new Set<Supervisor<RenderWorker>>();
  constructor(readonly opts: PoolOptions) {
    super();
  }

  /** Concurrent prints the pool can run. */
  get capacity() {
    return this.opts.workers * this.opts.pages;
  }

  /** Starts every worker; resolves once each has come up or failed its first start (it keeps retrying). */
  start(): Promise<void> {
    const sups = Array.from({ length: this.opts.workers }, (_, i) => {
      const sup: Supervisor<RenderWorker> = new Supervisor<RenderWorker>({
        kind: "chromium",
        name: `chromium-${i}`,
        create: (died) => new RenderWorker(this, () => sup, died),
        startTimeoutMs: START_TIMEOUT_MS,
        stopTimeoutMs: 5_000,
        probe: CHROMIUM_PROBE,
        logger: this.opts.logger,
        registry: this.opts.registry,
        onReady: () => {
          this.readyOnce.add(sup);
          this.dispatch();
        },
        onDown: (w, f) => this.onWorkerDown(w, f),
        drained: (w) => w.drained(),
        retireTimeoutMs: this.opts.renderTimeoutMs + JOB_GRACE_MS,
      });
      return sup;
    });
    return this.startMembers(sups);
  }

  /** Asks every render worker thread for a full garbage collection (see lib/memory-trim.ts). */
  collectGarbage(): void {
    for (const sup of this.members) sup.child?.worker.postMessage({ type: "gc" } satisfies ToWorker);
  }

  /** Prints a report; resolves with the PDF's bytes (the caller checks the limits and stores them). */
  render(job: RenderJob, fields?: Record<string, unknown>): Promise<Uint8Array> {
    return new Promise((resolve, reject) => this.enqueue({ job, resolve, reject, fields }));
  }

  /** A worker takes as many reports as it has free pages; the one with the most gets the next. */
  protected room(w: RenderWorker): number {
    return w.free;
  }

  protected assign(sup: Supervisor<RenderWorker>, w: RenderWorker, task: RenderTask): void {
    const { job, ...p } = task;
    const deadline = this.opts.renderTimeoutMs + JOB_GRACE_MS;
    p.timer = setTimeout(() => sup.fail(w, `a render got no answer within ${deadline} ms`, { hang: true }), deadline);
    w.send(this.nextId++, job, p);
  }

  private onWorkerDown(w: RenderWorker, f: ChildFailure) {
    if (w.inFlight.size)
      this.opts.logger.warn("renders interrupted by the Chromium failure; the reports will be retried", {
        cause: f.cause,
        reports: [...w.inFlight.values()].map((p) => p.fields ?? {}),
      });
    const code = f.hang ? "renderer_unresponsive" : "renderer_crashed";
    w.failAll(new RenderError(code, INFRA_MESSAGES[code]));
    // With no Chromium left, jobs waiting here go back to the queue untouched (the processor holds
    // new ones back until a Chromium is ready again) instead of waiting an unknown time.
    if (!this.usable) this.rejectWaiting(new RenderError("renderer_unavailable", "no Chromium is running; the report waits in the queue"));
  }
}
