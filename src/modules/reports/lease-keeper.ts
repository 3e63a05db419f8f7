// Keeps a processor's claims alive across instances: a heartbeat renews the leases of the reports it is
// rendering (one statement for all), and with PostgreSQL a reaper re-queues the claims of instances that
// died (their leases ran out). A missed beat is harmless until the lease runs out; the fence then stops
// the late instance from recording anything.
import type { Logger } from "../../lib/logger";
import { LEASE_MS, REAP_EVERY_MS, type ReportQueue } from "./queue";

export class LeaseKeeper {
  private timers: ReturnType<typeof setInterval>[] = [];

  constructor(
    private readonly queue: ReportQueue,
    private readonly opts: { leaseMs?: number; reap?: () => Promise<void>; reapEveryMs?: number; logger: Logger },
    private readonly inFlight: () => number,
  ) {}

  /** How long a claim is leased; the heartbeat runs every third of it. */
  get leaseMs(): number {
    return this.opts.leaseMs ?? LEASE_MS;
  }

  start(): void {
    this.timers.push(setInterval(() => this.heartbeat(), this.leaseMs / 3));
    const reap = this.opts.reap;
    if (reap) {
      const run = () => void reap().catch((e) => this.opts.logger.warn("queue reaper failed", { error: e }));
      this.timers.push(setInterval(run, this.opts.reapEveryMs ?? REAP_EVERY_MS));
    }
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  private heartbeat(): void {
    if (this.inFlight() === 0) return;
    this.queue.heartbeat(Date.now() + this.leaseMs).catch((e: unknown) => {
      this.opts.logger.warn("lease heartbeat failed", { error: e });
    });
  }
}
