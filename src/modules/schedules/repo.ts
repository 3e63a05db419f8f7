// SQL of schedules and their runs. A tick is claimed by inserting its run: the unique index on
// (schedule_id, scheduled_for) lets exactly one of the instances that see it due win, on SQLite and
// PostgreSQL alike.
import { newestFirst } from "../../db/newest-first";
import type { CatchUp, ScheduleRunStatus } from "../../db/schema";
import type { Sql } from "../../db/sql";
import type { Cursor } from "../../lib/cursor";

export interface ScheduleRow {
  id: string;
  accountId: string;
  name: string;
  cron: string;
  timezone: string;
  templateId: string;
  templateVersion: number | null;
  data: string | null;
  dataUrl: string | null;
  options: string | null;
  deliver: string | null;
  webhookUrl: string | null;
  catchUp: CatchUp;
  paused: number;
  nextRunAt: number | null;
  createdBy: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface RunRow {
  id: string;
  scheduleId: string;
  accountId: string;
  scheduledFor: number;
  status: ScheduleRunStatus;
  reportId: string | null;
  /** The report's status now (joined), when it has one. */
  reportStatus: string | null;
  error: string | null;
  caughtUp: number;
  webhookStatus: "pending" | "delivered" | "failed" | null;
  webhookAttempts: number;
  createdAt: number;
  finishedAt: number | null;
}

/** A failed run whose schedule.run_failed event is due. */
export interface DueRunEvent {
  id: string;
  accountId: string;
  scheduleId: string;
  scheduleName: string;
  webhookUrl: string;
  scheduledFor: number;
  error: string | null;
  webhookAttempts: number;
  createdAt: number;
}

const cols = `id, account_id AS "accountId", name, cron, timezone, template_id AS "templateId",
  template_version AS "templateVersion", data, data_url AS "dataUrl", options, deliver, webhook_url AS "webhookUrl",
  catch_up AS "catchUp", paused, next_run_at AS "nextRunAt", created_by AS "createdBy", created_at AS "createdAt",
  updated_at AS "updatedAt"`;

const runCols = `id, schedule_id AS "scheduleId", account_id AS "accountId", scheduled_for AS "scheduledFor", status,
  report_id AS "reportId", report_status AS "reportStatus", error, caught_up AS "caughtUp", webhook_status AS "webhookStatus",
  webhook_attempts AS "webhookAttempts", created_at AS "createdAt", finished_at AS "finishedAt"`;

/** Runs with their report's status, under the run's own column names (newestFirst filters and orders by them). */
const runsWithReports = `(SELECT r.*, p.status AS report_status FROM schedule_runs r LEFT JOIN reports p ON p.id = r.report_id) runs`;

/** The columns a PATCH may change, by their API names' row names. */
export type ScheduleChange = Partial<Omit<ScheduleRow, "id" | "accountId" | "createdBy" | "createdAt">>;

const COLUMN: Record<keyof ScheduleChange, string> = {
  name: "name",
  cron: "cron",
  timezone: "timezone",
  templateId: "template_id",
  templateVersion: "template_version",
  data: "data",
  dataUrl: "data_url",
  options: "options",
  deliver: "deliver",
  webhookUrl: "webhook_url",
  catchUp: "catch_up",
  paused: "paused",
  nextRunAt: "next_run_at",
  updatedAt: "updated_at",
};

export class SchedulesRepo {
  constructor(private readonly sql: Sql) {}

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.sql.tx(fn);
  }

  async insert(r: ScheduleRow): Promise<void> {
    await this.sql.run(
      `INSERT INTO schedules (id, account_id, name, cron, timezone, template_id, template_version, data, data_url, options, deliver,
         webhook_url, catch_up, paused, next_run_at, created_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      [
        r.id,
        r.accountId,
        r.name,
        r.cron,
        r.timezone,
        r.templateId,
        r.templateVersion,
        r.data,
        r.dataUrl,
        r.options,
        r.deliver,
        r.webhookUrl,
        r.catchUp,
        r.paused,
        r.nextRunAt,
        r.createdBy,
        r.createdAt,
        r.updatedAt,
      ],
    );
  }

  /** The account's schedule; undefined for an unknown id or another account's. */
  get(id: string, accountId: string): Promise<ScheduleRow | undefined> {
    return this.sql.get<ScheduleRow>(`SELECT ${cols} FROM schedules WHERE id = $1 AND account_id = $2`, [id, accountId]);
  }

  list(q: { accountId: string; limit: number; after?: Cursor }): Promise<ScheduleRow[]> {
    return newestFirst<ScheduleRow>(this.sql, `SELECT ${cols} FROM schedules`, q);
  }

  /** Writes the changed columns of the account's schedule; false when there is none. */
  async update(id: string, accountId: string, change: ScheduleChange): Promise<boolean> {
    const entries = Object.entries(change).filter(([, v]) => v !== undefined) as [keyof ScheduleChange, unknown][];
    const params: unknown[] = [id, accountId];
    const sets = entries.map(([k, v]) => `${COLUMN[k]} = $${params.push(v)}`);
    return (await this.sql.run(`UPDATE schedules SET ${sets.join(", ")} WHERE id = $1 AND account_id = $2`, params)) > 0;
  }

  async delete(id: string, accountId: string): Promise<ScheduleRow | undefined> {
    const row = await this.get(id, accountId);
    if (row) await this.sql.run("DELETE FROM schedules WHERE id = $1 AND account_id = $2", [id, accountId]);
    return row;
  }

  /** Schedules not paused whose next tick is at or before `now`. */
  due(now: number, limit: number): Promise<ScheduleRow[]> {
    return this.sql.all<ScheduleRow>(`SELECT ${cols} FROM schedules WHERE paused = 0 AND next_run_at <= $1 ORDER BY next_run_at LIMIT $2`, [
      now,
      limit,
    ]);
  }

  /**
   * Moves the schedule's next tick on, if no one else did since it was read as `seen` (two instances
   * deciding the same tick write the same value; a PATCH meanwhile wins).
   */
  async advance(id: string, seen: number, next: number | null): Promise<void> {
    await this.sql.run("UPDATE schedules SET next_run_at = $3 WHERE id = $1 AND next_run_at = $2", [id, seen, next]);
  }

  /** Claims the tick: true for the one caller whose insert made the row. */
  async claim(r: { id: string; scheduleId: string; accountId: string; scheduledFor: number; caughtUp: boolean; now: number }) {
    const n = await this.sql.run(
      `INSERT INTO schedule_runs (id, schedule_id, account_id, scheduled_for, status, caught_up, created_at)
       VALUES ($1, $2, $3, $4, 'running', $5, $6) ON CONFLICT (schedule_id, scheduled_for) DO NOTHING`,
      [r.id, r.scheduleId, r.accountId, r.scheduledFor, r.caughtUp ? 1 : 0, r.now],
    );
    return n > 0;
  }

  /** The run's outcome: its report, or its error (with a schedule.run_failed event pending when the schedule has a webhook). */
  async finish(
    id: string,
    o: { status: "submitted"; reportId: string } | { status: "failed"; error: string; notify: boolean },
    now: number,
  ): Promise<void> {
    if (o.status === "submitted")
      await this.sql.run("UPDATE schedule_runs SET status = 'submitted', report_id = $2, finished_at = $3 WHERE id = $1", [
        id,
        o.reportId,
        now,
      ]);
    else
      await this.sql.run(
        `UPDATE schedule_runs SET status = 'failed', error = $2, finished_at = $3,
           webhook_status = $4, webhook_next_at = $5 WHERE id = $1`,
        [id, o.error, now, o.notify ? "pending" : null, o.notify ? now : null],
      );
  }

  /** Runs still `running` that began before `before` (their instance stopped mid-run): ended as failed. */
  async failStale(before: number, error: string, now: number): Promise<number> {
    return this.sql.run(
      "UPDATE schedule_runs SET status = 'failed', error = $2, finished_at = $3 WHERE status = 'running' AND created_at < $1",
      [before, error, now],
    );
  }

  /** Removes runs that began before `before` (the history's bound); resolves to how many. */
  pruneRuns(before: number): Promise<number> {
    return this.sql.run("DELETE FROM schedule_runs WHERE created_at < $1 AND status <> 'running'", [before]);
  }

  /** The schedule's runs, newest first (keyset pages). */
  runs(q: { accountId: string; scheduleId: string; limit: number; after?: Cursor }): Promise<RunRow[]> {
    return newestFirst<RunRow>(this.sql, `SELECT ${runCols} FROM ${runsWithReports}`, { ...q, where: { schedule_id: q.scheduleId } });
  }

  /**
   * Claims failed runs whose event is due: each is pushed `claimMs` on, so no other instance sends it
   * meanwhile (an instance dying mid-attempt leaves it due again then).
   */
  async claimDueEvents(now: number, limit: number, claimMs: number): Promise<DueRunEvent[]> {
    const due = await this.sql.all<DueRunEvent>(
      `SELECT r.id, r.account_id AS "accountId", r.schedule_id AS "scheduleId", s.name AS "scheduleName", s.webhook_url AS "webhookUrl",
         r.scheduled_for AS "scheduledFor", r.error, r.webhook_attempts AS "webhookAttempts", r.created_at AS "createdAt"
       FROM schedule_runs r JOIN schedules s ON s.id = r.schedule_id
       WHERE r.webhook_status = 'pending' AND r.webhook_next_at <= $1 AND s.webhook_url IS NOT NULL
       ORDER BY r.webhook_next_at LIMIT $2`,
      [now, limit],
    );
    const mine: DueRunEvent[] = [];
    for (const d of due) {
      const n = await this.sql.run(
        "UPDATE schedule_runs SET webhook_next_at = $3 WHERE id = $1 AND webhook_status = 'pending' AND webhook_next_at <= $2",
        [d.id, now, now + claimMs],
      );
      if (n > 0) mine.push(d);
    }
    return mine;
  }

  /** Records an attempt at the event: delivered, failed for good, or due again at `nextAt`. */
  async eventAttempted(id: string, o: { status: "delivered" | "failed" } | { status: "pending"; nextAttemptAt: number }) {
    await this.sql.run(
      "UPDATE schedule_runs SET webhook_status = $2, webhook_attempts = webhook_attempts + 1, webhook_next_at = $3 WHERE id = $1",
      [id, o.status, o.status === "pending" ? o.nextAttemptAt : null],
    );
  }
}
