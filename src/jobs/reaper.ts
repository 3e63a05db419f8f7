// The reaper: with PostgreSQL, reports whose lease ran out (their instance died, stalled or lost the
// database while finishing them) go back to the queue, or fail past --max-attempts. Every instance runs
// it, whatever its role: an api-only instance must not leave a dead worker's reports `processing` until
// some worker starts again. Running it on N instances at once is harmless: each report is taken back by
// one conditional UPDATE, and the bound stays lease + period (15 s + 5 s on defaults).
import type { Logger } from "../lib/logger";
import { REAP_EVERY_MS, type ReportQueue } from "../modules/reports/queue";

export class Reaper {
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly queue: ReportQueue,
    private readonly opts: { maxAttempts: number; logger: Logger; everyMs?: number },
  ) {}

  /** One pass: takes back what ran out of lease before `now`. */
  async run(now = Date.now()): Promise<{ requeued: number; failed: number }> {
    const reaped = await this.queue.reap(this.opts.maxAttempts, now);
    if (reaped.requeued || reaped.failed) this.opts.logger.warn("took back the reports of an instance whose lease ran out", reaped);
    return reaped;
  }

  start(): void {
    this.timer ??= setInterval(
      () => void this.run().catch((e) => this.opts.logger.warn("queue reaper failed", { error: e })),
      this.opts.everyMs ?? REAP_EVERY_MS,
    );
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
