// In-process notifications: a report was queued (for the processor's idle lanes), and a report reached a
// final state (for long-polling clients and the webhook sender).
import type { ReportSummary } from "./repo";

/**
 * A finished report's columns that change when it finishes, as the instance that recorded its success
 * knows them, or as another instance's notification carries them (peers.ts). A long poll woken with it
 * merges it into the report it read before waiting, instead of reading the report again.
 */
export type FinishedState = Pick<
  ReportSummary,
  "status" | "attempts" | "errorCode" | "errorMessage" | "sizeBytes" | "pageCount" | "startedAt" | "finishedAt" | "expiresAt"
> &
  /** Sent by other instances (peers.ts), which know them: a chunked report's progress moved while it rendered. */
  Partial<Pick<ReportSummary, "progressDone" | "progressTotal">>;

export class ReportEvents {
  private readonly waiters = new Map<string, Set<(state?: FinishedState) => void>>();

  /**
   * Resolves when the report finishes or after `ms`, whichever comes first; with the report's final state
   * when it was recorded by this instance and the recorder passed it on (else undefined: read it again).
   */
  waitForFinish(id: string, ms: number): Promise<FinishedState | undefined> {
    if (this.released) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      let set = this.waiters.get(id);
      if (!set) this.waiters.set(id, (set = new Set()));
      const done = (state?: FinishedState) => {
        clearTimeout(timer);
        set!.delete(done);
        if (set!.size === 0) this.waiters.delete(id);
        resolve(state);
      };
      const timer = setTimeout(done, ms);
      set.add(done);
    });
  }

  /**
   * Ends every long poll now: each answers the report as it stands (202 with Retry-After while
   * unfinished), so that an instance shutting down leaves no client without an answer it can retry.
   */
  releaseAll(): void {
    this.released = true;
    for (const set of [...this.waiters.values()]) for (const done of [...set]) done();
  }

  /** Set by releaseAll(): long polls answer at once from then on. */
  private released = false;

  /** The reports long polls are waiting on (to catch up after missed cross-instance notifications). */
  waitingIds(): string[] {
    return [...this.waiters.keys()];
  }

  private readonly listeners: ((id: string) => void)[] = [];
  private readonly queuedListeners: (() => void)[] = [];

  /** Whether queued reports are announced by the database (NOTIFY) rather than by submissions here. */
  private queueAnnouncedByPeers = false;

  /** Calls fn once for every committed submission, so an idle renderer starts on it at once. */
  onQueued(fn: () => void): void {
    this.queuedListeners.push(fn);
  }

  /** A submission to this instance was committed. */
  queued(): void {
    if (!this.queueAnnouncedByPeers) for (const fn of this.queuedListeners) fn();
  }

  /**
   * From now on every queued report is announced by queuedAnywhere() (PostgreSQL's NOTIFY reaches every
   * instance, this one included), and a submission here announces nothing itself: one wake-up per
   * report, not one more claim that finds nothing.
   */
  announceQueueFromPeers(): void {
    this.queueAnnouncedByPeers = true;
  }

  /** A report was queued on some instance of the cluster, this one included (NOTIFY). */
  queuedAnywhere(): void {
    for (const fn of this.queuedListeners) fn();
  }

  /** Calls fn after every report that finishes HERE (the webhook sender: its event may be due now). */
  onFinished(fn: (id: string) => void): void {
    this.listeners.push(fn);
  }

  /**
   * A report reached its final state: the long polls waiting on it answer. `elsewhere`: it was recorded
   * by another instance (PostgreSQL's NOTIFY), whose own listeners were told; the webhook delivery that
   * recording queued is sent by that instance's sender, woken there, so this one's is not woken for it
   * (every sender also polls). Waking every instance's sender for every report cost two more queries
   * per report on each. `hasWebhook` false: no webhook waits for this report (its claim said so), and the
   * listeners (only the webhook sender) are not told. `state`: the final state as recorded here.
   */
  finished(id: string, elsewhere = false, hasWebhook = true, state?: FinishedState): void {
    // Our own NOTIFY can arrive before the answer to the UPDATE that sent it: the recorder tells the
    // waiters, with the state, once it has its answer (recorded()).
    if (elsewhere && this.recording.has(id)) return void this.recording.set(id, { held: true, state });
    const set = this.waiters.get(id);
    if (set) for (const done of [...set]) done(state);
    if (!elsewhere && hasWebhook) for (const fn of this.listeners) fn(id);
  }

  /** Reports whose outcome this instance is writing now, and a peer's notification for one held back meanwhile. */
  private readonly recording = new Map<string, { held: boolean; state?: FinishedState }>();

  /** This instance starts writing a report's outcome (a notification for it waits for recorded()). */
  recordingHere(id: string): void {
    this.recording.set(id, { held: false });
  }

  /**
   * The write of recordingHere() ended: with `state` when it recorded the outcome (the waiters get it,
   * see finished()); without, when it did not (fenced out, or failed), and a notification held back
   * meanwhile (another instance's outcome) is delivered now.
   */
  recorded(id: string, state?: { hasWebhook: boolean; state?: FinishedState }): void {
    const held = this.recording.get(id);
    this.recording.delete(id);
    if (state) this.finished(id, false, state.hasWebhook, state.state);
    else if (held?.held) this.finished(id, true, true, held.state);
  }
}
