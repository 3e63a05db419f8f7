// One supervisor for every child process or thread (Chromium render workers, EJS sandboxes, the WAL
// checkpoint thread), after Gotenberg's ProcessSupervisor: a start timeout, restarts with exponential
// backoff up to a cap (reset once a child stayed healthy long enough), a real health probe with a
// timeout and a failure threshold, a warning with the cause and restart count on every replacement,
// and restart counts per kind for /metrics. Owners keep their own task queues and enforce each task's
// deadline; when a deadline passes they call fail(), which kills the whole child and replaces it.

import { setPriority } from "node:os";
import type { Logger } from "./logger";

export type ChildKind = "chromium" | "sandbox" | "checkpointer";

/** One generation of a supervised child. A new one is created for every (re)start. */
export interface Child {
  /** Resolves once the child is ready for work; rejects if it cannot start. */
  start(): Promise<void>;
  /** Ends the child at once with everything it started (SIGKILL of the whole tree); never throws. */
  kill(): Promise<void>;
  /** Asks the child to finish cleanly; the supervisor kills it when this takes longer than allowed. */
  stop?(): Promise<void>;
  /** A real round trip to the child (e.g. CDP Browser.getVersion); resolves false or rejects when unhealthy. */
  probe?(timeoutMs: number): Promise<boolean>;
}

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
}

/** Why a child was taken down. `hang` means it stopped answering (probe or task deadline). */
export interface ChildFailure {
  cause: string;
  hang: boolean;
  /** A replacement the owner asked for as part of normal work (e.g. a template overran its deadline). */
  planned: boolean;
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
  /** Unplanned replacements: crashes, hangs, failed starts. */
  restarts = 0;
  /** Planned replacements (the owner's own decision, e.g. a killed runaway template). */
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
    this.restartTimer = setTimeout(() => this.launch(), delay);
  }

  /** Stops for good: asks the child to finish within the stop timeout, then kills its tree. */
  async stop(): Promise<void> {
    if (this._state === "stopped") return;
    const child = this.current;
    this._state = "stopped";
    this.current = undefined;
    clearTimeout(this.restartTimer);
    this.stopProbing();
    this.settleFirst?.();
    for (const w of this.readyWaiters.splice(0)) w();
    this.opts.registry.remove(this);
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
    try {
      child = this.opts.create(died);
    } catch (e) {
      // Treated as a failed start, with the same backoff.
      child = { start: () => Promise.reject(e), kill: async () => {} } as unknown as C;
    }
    this.current = child;
    withTimeout(child.start(), this.opts.startTimeoutMs, `did not become ready within ${this.opts.startTimeoutMs} ms`).then(
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

/**
 * Supervised children that share one kind of work (a pool extends this): usable while any one of
 * them is ready, healthy while any one also passes its probe.
 */
export class SupervisorGroup<C extends Child> {
  protected readonly members: Supervisor<C>[] = [];
  stopped = false;

  /** At least one member is ready and passes its health probe. */
  get healthy(): boolean {
    return this.members.some((s) => s.healthy);
  }

  /** At least one member is ready (it may still have to answer its next probe). */
  get usable(): boolean {
    return this.members.some((s) => s.ready);
  }

  /** Resolves when a member is ready (or the group stopped). */
  whenUsable(): Promise<void> {
    if (this.stopped || this.usable) return Promise.resolve();
    return Promise.race(this.members.map((s) => s.whenReady()));
  }

  /** Starts every member; resolves once each has come up or failed its first start (it keeps retrying). */
  protected async startMembers(members: Supervisor<C>[]): Promise<void> {
    this.members.push(...members);
    await Promise.all(members.map((s) => s.start()));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.members.map((s) => s.stop()));
  }
}

export interface KindStats {
  /** Supervised children of this kind. */
  children: number;
  /** Of those, how many are ready and pass their health probe now. */
  healthy: number;
  /** Unplanned replacements since start: crashes, hangs, failed starts. */
  restarts: number;
  /** Planned replacements, e.g. a sandbox killed for overrunning its template's deadline. */
  recycles: number;
}

/** Every supervisor of the App, for /metrics and logs. */
export class ChildRegistry {
  // biome-ignore lint/suspicious/noExplicitAny: supervisors of every child type (their callbacks make Supervisor<C> invariant)
  private readonly all = new Set<Supervisor<any>>();
  /** Counts of supervisors already removed (stopped), so totals never go down. */
  private readonly retired = new Map<ChildKind, { restarts: number; recycles: number }>();

  add<C extends Child>(s: Supervisor<C>): void {
    this.all.add(s);
  }

  remove<C extends Child>(s: Supervisor<C>): void {
    if (!this.all.delete(s)) return;
    const r = this.retired.get(s.kind) ?? { restarts: 0, recycles: 0 };
    this.retired.set(s.kind, { restarts: r.restarts + s.restarts, recycles: r.recycles + s.recycles });
  }

  /** Per kind: children, healthy, restarts, recycles. Every kind is present, with zeros if unused. */
  stats(): Record<ChildKind, KindStats> {
    const out = {} as Record<ChildKind, KindStats>;
    for (const kind of ["chromium", "sandbox", "checkpointer"] as ChildKind[]) {
      const r = this.retired.get(kind);
      out[kind] = { children: 0, healthy: 0, restarts: r?.restarts ?? 0, recycles: r?.recycles ?? 0 };
    }
    for (const s of this.all) {
      const k = out[s.kind];
      k.children++;
      if (s.healthy) k.healthy++;
      k.restarts += s.restarts;
      k.recycles += s.recycles;
    }
    return out;
  }
}

/** Rejects with `message` if `p` has not settled within `ms`. */
export function withTimeout<T>(p: Promise<T>, ms: number, message = `timed out after ${ms} ms`): Promise<T> {
  let timer: Timer;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

export interface ToolRun {
  /** The exit code, or null when the process was killed (by a signal, or at the deadline). */
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The last 4 KB of its standard error, for the log. */
  stderr: string;
  ms: number;
}

/**
 * Runs a short-lived tool (qpdf) to completion under a deadline: in its own process group, which is
 * SIGKILLed whole at the deadline (or when `signal` aborts), at `nice` priority like Chromium, with
 * `stdin` (if given) as its standard input. The
 * long-lived children above are supervised; a tool run is one task, so its owner only needs the bound.
 */
export async function runTool(
  cmd: string[],
  o: { timeoutMs: number; nice?: number; signal?: AbortSignal; stdin?: string },
): Promise<ToolRun> {
  const started = performance.now();
  const stdin = o.stdin === undefined ? "ignore" : new Blob([o.stdin]);
  const p = Bun.spawn({ cmd, detached: true, stdin, stdout: "ignore", stderr: "pipe" });
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
    const [stderr] = await Promise.all([new Response(p.stderr).text(), p.exited]);
    return {
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
