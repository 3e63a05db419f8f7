// The loop of a leased work queue in the database (webhook-style: rows with a next_attempt_at that a
// claim pushes a lease ahead): take the due rows a few at a time, run each attempt, and sleep until
// the next one is due, an attempt ends, or someone says there is new work. Used by the delivery worker
// (modules/destinations/worker.ts). On stop, attempts in flight are cut off and their rows given back.
import { isDatabaseUnreachable } from "../db/errors";
import type { LeasedRows } from "../db/leased-rows";
import type { Logger } from "../lib/logger";

export interface DueQueue<T extends { id: string }> {
  /** Claims up to `limit` due rows (for as long as an attempt may take). */
  claim(now: number, limit: number): Promise<T[]>;
  /** When the next row is due, or null. */
  nextDueAt(): Promise<number | null>;
  /** Gives claimed rows back, due at `now` (their attempts were cut off). */
  release(ids: string[], now: number): Promise<void>;
  /** Single machine only: gives back the claims an earlier (killed) process left. */
  releaseOthers?(now: number): Promise<number>;
}

/**
 * The queue of a leased table: `claim` reads the claimed rows (each queue reads its own columns); the
 * rest is the table's. `sole`: this is the only instance, so claims an earlier process left are given
 * back at start instead of when they run out.
 */
export function leasedQueue<T extends { id: string }>(
  leased: LeasedRows,
  claim: (now: number, limit: number) => Promise<T[]>,
  sole: boolean,
): DueQueue<T> {
  return {
    claim,
    nextDueAt: () => leased.nextDueAt(),
    release: (ids, now) => leased.release(ids, now),
    ...(sole ? { releaseOthers: (now: number) => leased.releaseOthers(now) } : {}),
  };
}

export interface DueWorkerOptions {
  /** What it is, in log lines. */
  name: string;
  concurrency: number;
  logger: Logger;
  /** With nothing due, look anyway this often (rows made due by other instances send no wake-up here). */
  idlePollMs?: number;
}

export class DueWorker<T extends { id: string }> {
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();

  constructor(
    private readonly queue: DueQueue<T>,
    /** One attempt; `signal` aborts when the worker stops (the attempt is then not recorded). */
    private readonly attempt: (item: T, signal: AbortSignal) => Promise<void>,
    private readonly opts: DueWorkerOptions,
  ) {}

  get busy(): number {
    return this.inFlight.size;
  }

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** New work may be due: look at once. */
  notify = (): void => {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  };

  async stop(timeoutMs = 5_000): Promise<void> {
    if (!this.running) return;
    this.running = false;
    const cut = [...this.inFlight.keys()];
    this.abort.abort();
    this.notify();
    await Promise.race([Promise.all([this.loop, ...this.inFlight.values()]), Bun.sleep(timeoutMs)]);
    await this.queue.release(cut, Date.now()).catch(() => {});
  }

  private async run(): Promise<void> {
    const log = this.opts.logger;
    if (this.queue.releaseOthers) {
      const released = await this.queue.releaseOthers(Date.now()).catch((e: unknown) => {
        log.warn(`could not give back the ${this.opts.name} attempts an earlier run left claimed`, { error: e });
        return 0;
      });
      if (released) log.info(`${this.opts.name} attempts cut off by the last stop are due again`, { released });
    }
    while (this.running) {
      let waitMs = this.opts.idlePollMs ?? 5_000;
      try {
        const now = Date.now();
        const free = this.opts.concurrency - this.inFlight.size;
        if (free > 0) {
          for (const item of await this.queue.claim(now, free)) {
            if (this.inFlight.has(item.id)) continue;
            const p = this.attempt(item, this.abort.signal)
              .catch((e: unknown) => log.error(`${this.opts.name} attempt crashed`, { id: item.id, error: e }))
              .finally(() => {
                this.inFlight.delete(item.id);
                this.notify();
              });
            this.inFlight.set(item.id, p);
          }
        }
        const next = await this.queue.nextDueAt();
        if (next !== null && next > now) waitMs = Math.min(waitMs, next - now);
      } catch (e) {
        if (isDatabaseUnreachable(e)) log.warn(`${this.opts.name} worker cannot reach the database; retrying`, { error: e });
        else log.error(`${this.opts.name} worker failed to read its queue`, { error: e });
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => done(), waitMs);
        const prev = this.wake;
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        this.wake = () => {
          prev?.();
          done();
        };
      });
    }
  }
}
