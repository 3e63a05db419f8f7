// The render pool: worker threads, each owning one Chromium with a few reused pages.
// Jobs go to the worker with the most free pages; a crashed or stuck worker is replaced and
// its jobs fail retryably, so the report processor can try them again.
import { Worker } from "node:worker_threads";
import { RenderError } from "../lib/errors";
import { entrypointUrl } from "../lib/runtime";
import type { Logger } from "../lib/logger";
import type { BrowserOptions, RenderJob, RenderOutput } from "./browser";
import type { FromWorker, ToWorker, WorkerData } from "./worker-protocol";

export interface PoolOptions extends BrowserOptions {
  workers: number;
  nice: number;
  logger: Logger;
}

interface Pending {
  resolve: (o: RenderOutput) => void;
  reject: (e: Error) => void;
  /** Log fields of the report (report_id, request_id). */
  fields?: Record<string, unknown>;
}

class RenderWorker {
  worker!: Worker;
  ready = false;
  inFlight = new Map<number, Pending>();
  private started!: Promise<void>;

  constructor(
    private readonly pool: RenderPool,
    private readonly index: number,
  ) {}

  start(): Promise<void> {
    const { workers: _w, logger: _l, ...workerData } = this.pool.opts;
    this.ready = false;
    // scripts/build.ts lists render/worker.ts as an entrypoint of the executable.
    this.worker = new Worker(entrypointUrl("render/worker.ts"), { workerData: workerData satisfies WorkerData });
    this.started = new Promise((resolve, reject) => {
      this.worker.on("message", (m: FromWorker) => this.onMessage(m, resolve, reject));
      this.worker.on("error", (e: Error) => this.replace(`worker error: ${e.message}`));
      this.worker.on("exit", () => this.replace("worker exited"));
    });
    return this.started;
  }

  get free() {
    return this.ready ? this.pool.opts.pages - this.inFlight.size : 0;
  }

  send(id: number, job: RenderJob, p: Pending) {
    this.inFlight.set(id, p);
    this.worker.postMessage({ type: "render", id, job } satisfies ToWorker);
  }

  private onMessage(m: FromWorker, resolve: () => void, reject: (e: Error) => void) {
    switch (m.type) {
      case "ready":
        this.ready = true;
        resolve();
        return this.pool.dispatch();
      case "done":
      case "failed": {
        const p = this.inFlight.get(m.id);
        this.inFlight.delete(m.id);
        if (m.type === "done") p?.resolve(m.output);
        else p?.reject(new RenderError(m.code, m.message, m.retryable));
        return this.pool.dispatch();
      }
      case "fatal":
        if (!this.ready) reject(new Error(m.reason));
        return this.replace(m.reason);
      case "stopped":
        return;
    }
  }

  private replace(reason: string) {
    if (this.pool.stopped) return;
    const old = this.worker;
    this.ready = false;
    this.pool.opts.logger.error("render worker failed; replacing it", { worker: this.index, reason, reports: [...this.inFlight.values()].map((p) => p.fields ?? {}) });
    for (const p of this.inFlight.values()) p.reject(new RenderError("renderer_crashed", `the renderer stopped while printing (${reason})`, true));
    this.inFlight.clear();
    old.removeAllListeners();
    void old.terminate();
    // Back off a little so a Chromium that cannot start does not spin.
    setTimeout(() => this.start().catch((e: unknown) => this.pool.opts.logger.error("render worker restart failed", { error: e })), 1000);
  }

  async stop(timeoutMs: number) {
    if (!this.ready) return void (await this.worker.terminate());
    const stopped = new Promise<void>((r) => this.worker.on("message", (m: FromWorker) => m.type === "stopped" && r()));
    this.worker.postMessage({ type: "stop" } satisfies ToWorker);
    await Promise.race([stopped, Bun.sleep(timeoutMs)]);
    this.worker.removeAllListeners();
    await this.worker.terminate();
  }
}

export class RenderPool {
  private readonly workers: RenderWorker[] = [];
  private readonly waiting: { job: RenderJob; p: Pending }[] = [];
  private nextId = 1;
  stopped = false;

  constructor(readonly opts: PoolOptions) {}

  /** Concurrent prints the pool can run. */
  get capacity() {
    return this.opts.workers * this.opts.pages;
  }

  get healthy() {
    return this.workers.some((w) => w.ready);
  }

  async start(): Promise<void> {
    for (let i = 0; i < this.opts.workers; i++) this.workers.push(new RenderWorker(this, i));
    await Promise.all(this.workers.map((w) => w.start()));
  }

  render(job: RenderJob, fields?: Record<string, unknown>): Promise<RenderOutput> {
    if (this.stopped) return Promise.reject(new RenderError("shutting_down", "the service is shutting down", true));
    return new Promise((resolve, reject) => {
      this.waiting.push({ job, p: { resolve, reject, fields } });
      this.dispatch();
    });
  }

  dispatch(): void {
    while (this.waiting.length > 0) {
      const best = this.workers.reduce<RenderWorker | undefined>((a, w) => (w.free > (a?.free ?? 0) ? w : a), undefined);
      if (!best) return;
      const { job, p } = this.waiting.shift()!;
      best.send(this.nextId++, job, p);
    }
  }

  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopped = true;
    for (const w of this.waiting.splice(0)) w.p.reject(new RenderError("shutting_down", "the service is shutting down", true));
    await Promise.all(this.workers.map((w) => w.stop(timeoutMs)));
  }
}
