// Keeps a processor's claims alive across instances: a heartbeat renews the leases of the reports it is
// rendering (one statement for all). The reaper (jobs/reaper.ts, run by every instance) re-queues the
// claims of instances that died. A missed beat is harmless until the lease runs out; the fence then stops
// the late instance from recording anything.
import type { Logger } from "../../lib/logger";
import { LEASE_MS, type ReportQueue } from "./queue";

export class LeaseKeeper {
  private timers: ReturnType<typeof setInterval>[] = [];

  constructor(
    private readonly queue: ReportQueue,
    private readonly opts: { leaseMs?: number; logger: Logger },
    /** The ids of the reports the processor is working on now. */
    private readonly inFlight: () => string[],
  ) {}

  /** How long a claim is leased; the heartbeat runs every third of it. */
  get leaseMs(): number {
    return this.opts.leaseMs ?? LEASE_MS;
  }

  start(): void {
    this.timers.push(setInterval(() => this.heartbeat(), this.leaseMs / 3));
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  private heartbeat(): void {
    const ids = this.inFlight();
    if (ids.length === 0) return;
    this.queue.heartbeat(ids, Date.now() + this.leaseMs).catch((e: unknown) => {
      this.opts.logger.warn("lease heartbeat failed", { error: e });
    });
  }
}
