// One supervisor for every child process or thread (Chromium render workers, EJS sandboxes, the WAL
// checkpoint thread, the data_schema validator thread), after Gotenberg's ProcessSupervisor: a start
// timeout, restarts with exponential backoff up to a cap (reset once a child stayed healthy long
// enough), a real health probe with a timeout and a failure threshold, a warning with the cause and
// restart count on every replacement, and restart counts per kind for /metrics. Owners keep their own
// task queues and enforce each task's deadline; when a deadline passes they call fail(), which kills
// the whole child and replaces it. A planned replacement (replace(): a Chromium recycled after N
// renders) starts the next generation first and retires the old one only once the new one is ready and
// the old one's work is done: no gap.
import type { ChildRegistry } from "./child-registry";
import type { Logger } from "./logger";
import type { Child, ChildFailure, ChildKind } from "./supervisor-types";

export { ChildRegistry, type KindStats } from "./child-registry";
export type { Child, ChildFailure, ChildKind } from "./supervisor-types";

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  /** A child that stayed ready this long before failing restarts without delay growth. */
  resetAfterMs: number;
}

export interface ProbeOptions {
  intervalMs: number;
  timeoutMs: number;
  /** Consecutive failed probes before the child is declared hung and replaced (absorbs one slow answer). */
  failures: number;
  /** How much longer than timeoutMs the owner waits for the child's own answer (default 500 ms). */
  answerGraceMs?: number;
}

export interface SupervisorOptions<C extends Child> {
  kind: ChildKind;
  /** Names this child in logs, e.g. "chromium-0". */
  name: string;
  /** Makes the next generation; `died` is how the child reports that it failed by itself. */
  create: (died: (cause: string) => void) => C;
  startTimeoutMs: number;
  stopTimeoutMs?: number;
  backoff?: Partial<BackoffOptions>;
  probe?: ProbeOptions;
  logger: Logger;
  registry: ChildRegistry;
  /** Called when a ready child becomes usable. */
  onReady?: (child: C) => void;
  /** Called once when the child stops being usable, before it is killed: fail its tasks here. */
  onDown?: (child: C, failure: ChildFailure) => void;
  /**
   * Retiring a child replaced by replace(): resolves once its work in flight is done (it gets no new
   * work, as it is no longer `child`). Past `retireTimeoutMs` it is taken down anyway (onDown, planned).
   */
  drained?: (child: C) => Promise<void>;
  /** How long a retiring child may take to finish its work (default 60 s). */
  retireTimeoutMs?: number;
}

export type SupervisorState = "idle" | "starting" | "ready" | "backoff" | "stopped";

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 30_000, resetAfterMs: 30_000 };

/** The delay before restart number `failures` (1-based) in a row: initial · 2^(n-1), capped. */
export function backoffDelay(failures: number, b: BackoffOptions): number {
  if (failures <= 0) return 0;
  return Math.min(b.maxMs, b.initialMs * 2 ** Math.min(failures - 1, 30));
}

export class Supervisor<C extends Child = Child> {
  private current?: C;
  private _state: SupervisorState = "idle";
  private readyAt = 0;
  /** Failures in a row without a healthy period in between: drives the backoff. */
  private streak = 0;
  private probeFailures = 0;
  private probing = false;
  private probeTimer?: Timer;
  private restartTimer?: Timer;
  private readyWaiters: (() => void)[] = [];
  private firstAttempt?: Promise<void>;
  private settleFirst?: () => void;
  private readonly backoff: BackoffOptions;
  /** The next generation, started by replace() while the current one keeps working. */
  private successor?: C;
  /** Children replaced by replace() that are finishing their work. */
  private readonly retiring = new Set<C>();
  /** After a successor failed to start, no replace() before this time (the backoff). */
  private replaceAfter = 0;
  /** Unplanned replacements: crashes, hangs, failed starts. */
  restarts = 0;
  /** Planned replacements (the owner's own decision: a killed runaway template, a recycled Chromium). */
  recycles = 0;

  constructor(readonly opts: SupervisorOptions<C>) {
    this.backoff = { ...DEFAULT_BACKOFF, ...opts.backoff };
    opts.registry.add(this);
  }

  get kind(): ChildKind {
    return this.opts.kind;
  }

  get state(): SupervisorState {
    return this._state;
  }

  /** Ready and not failing its health probe. */
  get healthy(): boolean {
    return this._state === "ready" && this.probeFailures === 0;
  }

  get ready(): boolean {
    return this._state === "ready";
  }

  /** The running child, when ready. */
  get child(): C | undefined {
    return this._state === "ready" ? this.current : undefined;
  }

  /** Starts the first child. Resolves once that first attempt has succeeded or failed: never rejects. */
  start(): Promise<void> {
    this.firstAttempt ??= new Promise<void>((resolve) => {
      this.settleFirst = resolve;
      this.launch();
    });
    return this.firstAttempt;
  }

  /** Resolves when a child is ready (or the supervisor stopped). */
  whenReady(): Promise<void> {
    if (this._state === "ready" || this._state === "stopped") return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /**
   * Takes the child down and replaces it: kills its whole tree, logs why, and starts the next one
   * after the backoff delay (none for a planned replacement). Ignored if `child` is no longer current.
   */
  fail(child: C | undefined, cause: string, o: { hang?: boolean; planned?: boolean } = {}): void {
    if (!child || child !== this.current || this._state === "stopped") return;
    const wasReady = this._state === "ready";
    const failure: ChildFailure = { cause, hang: o.hang ?? false, planned: o.planned ?? false };
    this.current = undefined;
    this._state = "backoff";
    this.stopProbing();
    if (wasReady) this.opts.onDown?.(child, failure);
    void child.kill();
    let delay = 0;
    if (failure.planned) {
      this.recycles++;
    } else {
      this.restarts++;
      // A child that had been healthy for a while starts a fresh series: one crash a day restarts at once.
      if (wasReady && Date.now() - this.readyAt >= this.backoff.resetAfterMs) this.streak = 0;
      this.streak++;
      delay = backoffDelay(this.streak, this.backoff);
      this.opts.logger.warn(`${this.opts.kind} child ${wasReady ? "failed" : "could not start"}; replacing it`, {
        child: this.opts.name,
        cause,
        restarts: this.restarts,
        restart_in_ms: delay,
      });
    }
    this.settleFirst?.();
    // A successor already starting (replace()) takes over once ready, or launches on its failure.
    if (!this.successor) this.restartTimer = setTimeout(() => this.launch(), delay);
  }

  /**
   * Replaces `child` as planned, without a gap: starts the next generation while `child` keeps
   * working, makes the new one current once it is ready (the owner's onReady), then retires the old one:
   * it gets no new work, finishes what it has (drained), is asked to stop, and is killed. A successor that
   * cannot start is discarded (a restart, with the backoff before the next attempt); the old child goes
   * on. Returns false when there is nothing to do: `child` is not the ready current one, a replacement
   * is already starting, or the backoff after a failed one has not passed.
   */
  replace(child: C, cause: string): boolean {
    if (child !== this.current || this._state !== "ready" || this.successor || Date.now() < this.replaceAfter) return false;
    let next!: C;
    const died = (why: string) => {
      if (next === this.successor) this.successorFailed(next, why);
      else this.fail(next, why);
    };
    next = this.create(died);
    this.successor = next;
    this.started(next).then(
      () => {
        if (next !== this.successor) return;
        this.successor = undefined;
        if (this._state === "stopped") return void next.kill();
        const old = this.current;
        this.current = next;
        this._state = "ready";
        this.readyAt = Date.now();
        this.probeFailures = 0;
        this.recycles++;
        this.streak = 0;
        this.stopProbing();
        this.opts.onReady?.(next);
        for (const w of this.readyWaiters.splice(0)) w();
        this.startProbing();
        if (old) void this.retire(old, cause);
      },
      (e: unknown) => {
        if (next === this.successor) this.successorFailed(next, `start failed: ${(e as Error)?.message ?? e}`);
      },
    );
    return true;
  }

  private successorFailed(next: C, cause: string): void {
    this.successor = undefined;
    void next.kill();
    this.restarts++;
    this.streak++;
    const delay = backoffDelay(this.streak, this.backoff);
    this.replaceAfter = Date.now() + delay;
    this.opts.logger.warn(`${this.opts.kind} replacement could not start; the current child goes on`, {
      child: this.opts.name,
      cause,
      restarts: this.restarts,
    });
    // The current child failed meanwhile: nothing is running, so start one the usual way.
    if (!this.current && this._state === "backoff") this.restartTimer = setTimeout(() => this.launch(), delay);
  }

  /** Lets a replaced child finish its work, then stops and kills it. */
  private async retire(old: C, cause: string): Promise<void> {
    this.retiring.add(old);
    const limit = this.opts.retireTimeoutMs ?? 60_000;
    const done = await withTimeout(this.opts.drained?.(old) ?? Promise.resolve(), limit).then(
      () => true,
      () => false,
    );
    if (!this.retiring.delete(old)) return; // stop() took it down
    if (!done) this.opts.onDown?.(old, { cause: `${cause}; its work did not finish within ${limit} ms`, hang: true, planned: true });
    if (old.stop) await withTimeout(old.stop(), this.opts.stopTimeoutMs ?? 5_000).catch(() => {});
    await old.kill();
  }

  /** Stops for good: asks the child to finish within the stop timeout, then kills its tree. */
  async stop(): Promise<void> {
    if (this._state === "stopped") return;
    const child = this.current;
    this._state = "stopped";
    this.current = undefined;
    const others = [...this.retiring, ...(this.successor ? [this.successor] : [])];
    this.retiring.clear();
    this.successor = undefined;
    clearTimeout(this.restartTimer);
    this.stopProbing();
    this.settleFirst?.();
    for (const w of this.readyWaiters.splice(0)) w();
    this.opts.registry.remove(this);
    await Promise.all(others.map((c) => c.kill()));
    if (!child) return;
    if (child.stop) await withTimeout(child.stop(), this.opts.stopTimeoutMs ?? 5_000).catch(() => {});
    await child.kill();
  }

  private launch(): void {
    if (this._state === "stopped") return;
    this._state = "starting";
    this.probeFailures = 0;
    let child!: C;
    const died = (cause: string) => this.fail(child, cause);
    child = this.create(died);
    this.current = child;
    this.started(child).then(
      () => {
        if (child !== this.current || this._state !== "starting") return;
        this._state = "ready";
        this.readyAt = Date.now();
        this.settleFirst?.();
        this.opts.onReady?.(child);
        for (const w of this.readyWaiters.splice(0)) w();
        this.startProbing();
      },
      (e: unknown) => this.fail(child, `start failed: ${(e as Error)?.message ?? e}`),
    );
  }

  /** A new child; when opts.create throws, one whose start fails with that error (a failed start, with the same backoff). */
  private create(died: (cause: string) => void): C {
    try {
      return this.opts.create(died);
    } catch (e) {
      return { start: () => Promise.reject(e), kill: async () => {} } as unknown as C;
    }
  }

  /** The child's start, failed when it is not ready within the start timeout. */
  private started(child: C): Promise<void> {
    return withTimeout(child.start(), this.opts.startTimeoutMs, `did not become ready within ${this.opts.startTimeoutMs} ms`);
  }

  private startProbing() {
    const p = this.opts.probe;
    const child = this.current;
    if (!p || !child?.probe) return;
    this.probeTimer = setInterval(() => void this.runProbe(child, p), p.intervalMs);
  }

  private stopProbing() {
    clearInterval(this.probeTimer);
    this.probeTimer = undefined;
  }

  private async runProbe(child: C, p: ProbeOptions): Promise<void> {
    if (this.probing || child !== this.current) return;
    this.probing = true;
    let ok = false;
    let why = "no answer";
    try {
      ok = await withTimeout(child.probe!(p.timeoutMs), p.timeoutMs + (p.answerGraceMs ?? 500));
    } catch (e) {
      why = (e as Error).message;
    } finally {
      this.probing = false;
    }
    if (child !== this.current) return;
    if (ok) {
      this.probeFailures = 0;
      return;
    }
    this.probeFailures++;
    if (this.probeFailures >= p.failures)
      this.fail(child, `health probe failed ${this.probeFailures} times in a row (${why})`, { hang: true });
  }
}

/** Rejects with `message` if `p` has not settled within `ms`. */
export function withTimeout<T>(p: Promise<T>, ms: number, message = `timed out after ${ms} ms`): Promise<T> {
  let timer: Timer;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}
