// The ticker: every instance looks for due schedules twice a second, decides each one's due tick
// (cron.ts: run it, catch it up, or skip it), claims it by inserting its run (one instance wins: the
// unique index on the run's tick), moves the schedule's next tick on, and runs what it claimed. A run
// fetches data_url (if any), submits the report as a stored-template render of the account, and records
// the report or the reason it failed. A schedule's ticks are read from the database on each look, so a
// PATCH or DELETE on any instance takes effect on every one.
import { isDatabaseUnreachable } from "../../db/errors";
import { AppError } from "../../lib/errors";
import { newUuid } from "../../lib/ids";
import type { Logger } from "../../lib/logger";
import { decideTick } from "./cron";
import { DataUrlError } from "./data-url";
import type { RunFailedEvents } from "./events";
import type { ScheduleRow, SchedulesRepo } from "./repo";

/** How often each instance looks for due ticks: a tick runs at most this late (plus the run itself). */
export const TICK_POLL_MS = 500;
/** A run still `running` this long after it began lost its instance (a crash mid-run): it is marked failed. */
const STALE_RUN_MS = 10 * 60_000;
const DUE_PER_LOOK = 100;
/** How long a run stays in its schedule's history (a seconds cron would otherwise grow it without end). */
export const RUN_HISTORY_MS = 90 * 86_400_000;

/** What a run asks of the rest of the service. */
export interface RunDeps {
  /** The JSON object at a schedule's data_url (throws DataUrlError). */
  fetchData: (url: string) => Promise<Record<string, unknown>>;
  /** Queues the report: the reports service's submit, as the schedule's account. */
  submit: (s: ScheduleRow, data: unknown, options: Record<string, unknown> | undefined) => Promise<{ reportId: string }>;
}

/** A run's error as its history shows it: what failed and what to change. */
export function runError(e: unknown): string | undefined {
  if (e instanceof DataUrlError) return e.message;
  if (e instanceof AppError) {
    const problems = Array.isArray(e.details)
      ? (e.details as { field?: string; problem?: string }[])
          .filter((d) => d?.field)
          .map((d) => `${d.field}: ${d.problem}`)
          .slice(0, 10)
      : [];
    return `${e.code}: ${e.message}${problems.length ? ` (${problems.join("; ")})` : ""}`;
  }
  return undefined;
}

export class ScheduleTicker {
  private timer?: ReturnType<typeof setTimeout>;
  private running = false;
  private looking?: Promise<void>;
  private readonly runs = new Set<Promise<void>>();
  private lastStaleCheck = 0;

  constructor(
    private readonly repo: SchedulesRepo,
    private readonly deps: RunDeps,
    private readonly events: RunFailedEvents,
    private readonly logger: Logger,
    private readonly pollMs = TICK_POLL_MS,
  ) {}

  start(): void {
    this.running = true;
    this.schedule(0);
  }

  /** A schedule changed here: look again at once (other instances see it on their next look). */
  wake = (): void => {
    if (this.running && !this.looking) this.schedule(0);
  };

  /** Stops looking; runs in flight finish (their report is queued or their failure recorded). */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.looking;
    await Promise.all(this.runs);
    await this.events.stop();
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.looking = this.look()
        .catch((e: unknown) => {
          if (isDatabaseUnreachable(e)) this.logger.warn("schedule ticker cannot reach the database; retrying", { error: e });
          else this.logger.error("schedule ticker failed", { error: e });
        })
        .finally(() => {
          this.looking = undefined;
          if (this.running) this.schedule(this.pollMs);
        });
    }, ms);
  }

  /** One look: claims and starts every due tick, then the due run_failed events. */
  async look(now = Date.now()): Promise<void> {
    if (now - this.lastStaleCheck > STALE_RUN_MS / 10) {
      this.lastStaleCheck = now;
      const stale = await this.repo.failStale(now - STALE_RUN_MS, "the instance running it stopped before the report was queued", now);
      if (stale) this.logger.warn("schedule runs cut off by a stopped instance marked failed", { runs: stale });
      const pruned = await this.repo.pruneRuns(now - RUN_HISTORY_MS);
      if (pruned) this.logger.debug("schedule runs older than 90 days removed", { runs: pruned });
    }
    for (const s of await this.repo.due(now, DUE_PER_LOOK)) {
      if (!this.running) break;
      const d = decideTick({ cron: s.cron, timezone: s.timezone, catchUp: s.catchUp, nextRunAt: s.nextRunAt! }, now);
      if (!d) continue;
      const runId = newUuid();
      const claimed =
        d.tick !== undefined &&
        (await this.repo.claim({ id: runId, scheduleId: s.id, accountId: s.accountId, scheduledFor: d.tick, caughtUp: d.caughtUp, now }));
      await this.repo.advance(s.id, s.nextRunAt!, d.nextRunAt);
      if (d.tick === undefined)
        this.logger.info("schedule ticks missed while no instance was running were skipped (catch_up none)", { schedule_id: s.id });
      if (!claimed) continue;
      const p = this.run(s, runId).finally(() => this.runs.delete(p));
      this.runs.add(p);
    }
    await this.events.sendDue(now);
  }

  private async run(s: ScheduleRow, runId: string): Promise<void> {
    try {
      const data = s.dataUrl ? await this.deps.fetchData(s.dataUrl) : s.data ? JSON.parse(s.data) : undefined;
      const options: Record<string, unknown> | undefined = s.options ? JSON.parse(s.options) : undefined;
      // The schedule's deliver becomes options.deliver of its report (the destinations module's option).
      const withDeliver = s.deliver ? { ...options, deliver: JSON.parse(s.deliver) } : options;
      const { reportId } = await this.deps.submit(s, data, withDeliver);
      await this.repo.finish(runId, { status: "submitted", reportId }, Date.now());
      this.logger.info("schedule run queued its report", { schedule_id: s.id, run_id: runId, report_id: reportId });
    } catch (e) {
      const known = runError(e);
      if (!known) this.logger.error("schedule run failed", { schedule_id: s.id, run_id: runId, error: e });
      const error = known ?? "internal_error: the service failed to start this run (its log has the cause); the next tick runs as usual";
      await this.repo
        .finish(runId, { status: "failed", error, notify: s.webhookUrl !== null }, Date.now())
        .catch((e2: unknown) => this.logger.error("schedule run's failure not recorded", { run_id: runId, error: e2 }));
      this.logger.warn("schedule run failed", { schedule_id: s.id, run_id: runId, error });
      void this.events.sendDue().catch(() => {});
    }
  }
}
