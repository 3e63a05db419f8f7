// Report counts for probes, the dashboard and /metrics, whose gauges are read synchronously at scrape
// time: refresh() re-reads them from the database (concurrent callers share one read: one indexed
// GROUP BY), and the getters answer from the last read.
import type { HealthRepo } from "./repo";

export class ReportCounts {
  private byStatus: Record<string, number> = {};
  private reading?: Promise<void>;

  constructor(private readonly repo: HealthRepo) {}

  refresh = (): Promise<void> => {
    this.reading ??= this.repo
      .reportsByStatus()
      .then((counts) => {
        this.byStatus = counts;
      })
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  };

  /** Reports by status, as of the last refresh. */
  statuses(): Record<string, number> {
    return this.byStatus;
  }

  /** Queued plus processing (on every instance), as of the last refresh. */
  unfinished(): number {
    return (this.byStatus.queued ?? 0) + (this.byStatus.processing ?? 0);
  }
}
