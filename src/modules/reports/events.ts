// In-process notifications: a report was queued (for the processor's idle lanes), and a report reached a
// final state (for long-polling clients and the webhook sender).

export class ReportEvents {
  private readonly waiters = new Map<string, Set<() => void>>();

  /** Resolves when the report finishes or after `ms`, whichever comes first. */
  waitForFinish(id: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiters.get(id);
      if (!set) this.waiters.set(id, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        set!.delete(done);
        if (set!.size === 0) this.waiters.delete(id);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
    });
  }

  /** The reports long polls are waiting on (to catch up after missed cross-instance notifications). */
  waitingIds(): string[] {
    return [...this.waiters.keys()];
  }

  private readonly listeners: ((id: string) => void)[] = [];
  private readonly queuedListeners: (() => void)[] = [];

  /** Calls fn after every committed submission, so an idle renderer starts on it at once. */
  onQueued(fn: () => void): void {
    this.queuedListeners.push(fn);
  }

  queued(): void {
    for (const fn of this.queuedListeners) fn();
  }

  /** Calls fn after every report that finishes (the webhook sender: its event may be due now). */
  onFinished(fn: (id: string) => void): void {
    this.listeners.push(fn);
  }

  finished(id: string): void {
    const set = this.waiters.get(id);
    if (set) for (const done of [...set]) done();
    for (const fn of this.listeners) fn(id);
  }
}
