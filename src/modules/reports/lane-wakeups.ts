// How the report processor's idle lanes are woken. A wake-up (a report was queued) goes to ONE idle
// lane, the one idle longest, not to all of them: with PostgreSQL every queued report notifies every
// instance, and waking all ~6 idle lanes of each sent ~11 claims (and as many nextDueAt reads) per
// report through the database, all but one finding nothing. A lane that claims a report passes the
// wake-up on (processor.ts), so a burst still reaches every idle lane, one claim each, and one more.
// With PostgreSQL a submission here may also hold an idle lane (hold()) and hand it the report its
// insert claimed: that report is never queued, and no instance is woken for it.
import type { ClaimedReport } from "./queue";

/** More missed wake-ups than this are as good as "the queue has a backlog": each lane claims until it finds none. */
const MAX_MISSED = 64;

/**
 * What ends an idle lane's wait: undefined (a wake-up, or its timer: it claims), a report claimed for it
 * (hold()), or "released": a hold that brought no report; the lane goes idle again without a claim.
 */
export type Handed = ClaimedReport | "released" | undefined;

interface IdleLane {
  /** Ends the lane's wait (and its timer). */
  give: (handed?: Handed) => void;
  timer?: ReturnType<typeof setTimeout>;
}

export class LaneWakeups {
  /** Lanes idle for want of a report, oldest first. */
  private readonly idle: IdleLane[] = [];
  /** Lanes waiting for a disk, the bucket or a renderer to come back: woken only by wakeAll(). */
  private readonly paused = new Set<() => void>();

  /** Wake-ups that found no idle lane (bounded): a lane that finishes a report claims once for each. */
  private missed = 0;

  /** Wakes one idle lane, if any; else remembers the wake-up for the next lane that finishes a report. */
  one(): void {
    const lane = this.idle.shift();
    if (lane) lane.give();
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
    for (const lane of this.idle.splice(0)) lane.give();
    for (const wake of [...this.paused]) wake();
    this.paused.clear();
  }

  /**
   * Takes the idle lane idle longest out of the idle list, its timer stopped, for a report a submission
   * is about to claim; undefined when no lane is idle. Call the answer exactly once: with the report the
   * insert claimed, or with "released".
   */
  hold(): ((handed: ClaimedReport | "released") => void) | undefined {
    const lane = this.idle.shift();
    if (!lane) return undefined;
    clearTimeout(lane.timer);
    return (handed) => lane.give(handed);
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
   * the next). The lane then leaves the idle list. Resolves to what hold()'s answer hands it, if held.
   */
  wait(dueMs?: number, pollMs?: number): Promise<Handed> {
    const polls = pollMs !== undefined && !this.polling;
    if (polls) this.polling = true;
    const ms = polls ? Math.min(dueMs ?? pollMs, pollMs) : dueMs;
    return new Promise<Handed>((resolve) => {
      const lane: IdleLane = {
        give: (handed) => {
          clearTimeout(lane.timer);
          if (polls) this.polling = false;
          resolve(handed);
        },
      };
      if (ms !== undefined)
        lane.timer = setTimeout(
          () => {
            const i = this.idle.indexOf(lane);
            if (i >= 0) this.idle.splice(i, 1);
            lane.give();
          },
          Math.max(0, ms),
        );
      this.idle.push(lane);
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
