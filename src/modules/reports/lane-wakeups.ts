// How the report processor's idle lanes are woken. A wake-up (a report was queued) goes to ONE idle
// lane, the one idle longest, not to all of them: with PostgreSQL every queued report notifies every
// instance, and waking all ~6 idle lanes of each sent ~11 claims (and as many nextDueAt reads) per
// report through the database, all but one finding nothing. A lane that claims a report passes the
// wake-up on (processor.ts), so a burst still reaches every idle lane, one claim each, and one more.

/** More missed wake-ups than this are as good as "the queue has a backlog": each lane claims until it finds none. */
const MAX_MISSED = 64;

export class LaneWakeups {
  /** Lanes idle for want of a report, oldest first. */
  private readonly idle: (() => void)[] = [];
  /** Lanes waiting for a disk, the bucket or a renderer to come back: woken only by wakeAll(). */
  private readonly paused = new Set<() => void>();

  /** Wake-ups that found no idle lane (bounded): a lane that finishes a report claims once for each. */
  private missed = 0;

  /** Wakes one idle lane, if any; else remembers the wake-up for the next lane that finishes a report. */
  one(): void {
    const wake = this.idle.shift();
    if (wake) wake();
    else this.missed = Math.min(this.missed + 1, MAX_MISSED);
  }

  /** Whether a wake-up found no idle lane since (and takes it). */
  takeMissed(): boolean {
    if (this.missed === 0) return false;
    this.missed--;
    return true;
  }

  /** Wakes every lane, idle or paused (stop()). */
  all(): void {
    for (const wake of [...this.idle.splice(0), ...this.paused]) wake();
    this.paused.clear();
  }

  /** Whether an idle lane is the instance's poller right now. */
  private polling = false;

  /** Whether an idle lane already polls (another lane going idle then needs no timer of its own). */
  get hasPoller(): boolean {
    return this.polling;
  }

  /**
   * Resolves when one() picks this lane, or after `dueMs` when given (a report held back by a retry's
   * backoff is due), or, for ONE idle lane of the instance at a time, after `pollMs` (the poll that
   * covers a missed wake-up: one lane looking every pollMs is enough, a lane that finds a report wakes
   * the next). The lane then leaves the idle list.
   */
  wait(dueMs?: number, pollMs?: number): Promise<void> {
    const polls = pollMs !== undefined && !this.polling;
    if (polls) this.polling = true;
    const ms = polls ? Math.min(dueMs ?? pollMs, pollMs) : dueMs;
    return new Promise<void>((resolve) => {
      const done = () => {
        if (polls) this.polling = false;
        resolve();
      };
      const wake = () => {
        clearTimeout(timer);
        done();
      };
      const timer =
        ms === undefined
          ? undefined
          : setTimeout(
              () => {
                const i = this.idle.indexOf(wake);
                if (i >= 0) this.idle.splice(i, 1);
                done();
              },
              Math.max(0, ms),
            );
      this.idle.push(wake);
    });
  }

  /**
   * Resolves when `recovery` does, or on all(). Kept apart from the idle lanes, so that a wake-up meant
   * for a report is never spent on a lane that cannot take one.
   */
  async pause(recovery: Promise<unknown>): Promise<void> {
    let wake!: () => void;
    const stopped = new Promise<void>((resolve) => (wake = resolve));
    this.paused.add(wake);
    try {
      await Promise.race([recovery, stopped]);
    } finally {
      this.paused.delete(wake);
    }
  }
}
