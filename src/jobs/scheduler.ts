// Runs named jobs on cron schedules (croner). A run never overlaps the previous one.
import { Cron } from "croner";
import type { Logger } from "../lib/logger";

export class Scheduler {
  private readonly crons: Cron[] = [];

  constructor(private readonly logger: Logger) {}

  add(name: string, pattern: string, job: () => unknown): void {
    this.crons.push(
      // No croner `name`: names are global to the process, and tests run several Apps in one.
      new Cron(pattern, { protect: true, catch: (e) => this.logger.error("scheduled job failed", { job: name, error: e }) }, async () => {
        await job();
      }),
    );
  }

  stop(): void {
    for (const c of this.crons) c.stop();
  }
}

/** Throws a readable error when a cron pattern is invalid (checked at start-up, not at first run). */
export function checkCronPattern(pattern: string): void {
  new Cron(pattern, { paused: true }).stop();
}
