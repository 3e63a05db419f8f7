// SQL for reports. The reports table doubles as the durable job queue.
import { and, eq, inArray, isNotNull, lt, sql } from "drizzle-orm";
import { type Db, withoutSync } from "../../db/client";
import { type Engine, type Report, type ReportStatus, reports } from "../../db/schema";

export interface NewReport {
  id: string;
  accountId: string;
  engine: Engine;
  template: string;
  data: string | null;
  options: string | null;
  createdAt: number;
  /** X-Request-Id of the submitting request, for the rendering's log lines. */
  requestId?: string | null;
  /** The ids a merged report joins, as a JSON array (template is then ""). */
  mergeParts?: string | null;
}

export interface ListQuery {
  accountId: string;
  limit: number;
  status?: ReportStatus;
  /** Position after which to continue: the last item of the previous page. */
  after?: { createdAt: number; id: string };
}

export type ReportSummary = Omit<Report, "template" | "data" | "options" | "requestId" | "mergeParts">;
export type ClaimedReport = Pick<Report, "id" | "engine" | "template" | "data" | "options" | "attempts" | "requestId" | "mergeParts">;

/** Columns for reading a report without its (possibly large) input, named as in ReportSummary. */
const summarySql = `id, account_id AS accountId, engine, status, attempts, error_code AS errorCode, error_message AS errorMessage,
  size_bytes AS sizeBytes, page_count AS pageCount, created_at AS createdAt, started_at AS startedAt, finished_at AS finishedAt, expires_at AS expiresAt`;

export class ReportsRepo {
  private readonly claimStmt;
  private readonly nextDueStmt;
  private readonly statusStmt;
  // Status polls, long polls and downloads read one report: prepared, not rebuilt by the ORM each
  // time (3 µs instead of 77 µs, and a long poll reads it twice).
  private readonly getStmt;
  private readonly getAnyStmt;
  private readonly deleteStmt;
  // Listing is the API's hottest read: prepared once, one statement per shape (first page, later pages).
  private readonly firstPageStmt;
  private readonly nextPageStmt;
  // Every report is inserted, counted against the queue caps, and finished once: prepared too, so
  // neither the ORM nor SQLite builds and compiles these statements again for every report.
  private readonly insertStmt;
  private readonly countUnfinishedStmt;
  private readonly countUnfinishedOfStmt;
  private readonly succeededStmt;
  private readonly failedStmt;
  private readonly requeueStmt;

  constructor(private readonly db: Db) {
    const c = db.$client;
    // The oldest queued report becomes processing in one statement, so two lanes never take the same one.
    // A report waiting out its retry backoff (not_before in the future) is skipped.
    this.claimStmt = c.prepare<ClaimedReport & { attempts: number }, [number]>(
      `UPDATE reports SET status = 'processing', attempts = attempts + 1, started_at = ?1, not_before = NULL
       WHERE id = (SELECT id FROM reports WHERE status = 'queued' AND (not_before IS NULL OR not_before <= ?1) ORDER BY created_at, rowid LIMIT 1)
       RETURNING id, engine, template, data, options, attempts, request_id AS requestId, merge_parts AS mergeParts`,
    );
    this.nextDueStmt = c.prepare<{ t: number | null }, [number]>(
      "SELECT min(not_before) AS t FROM reports WHERE status = 'queued' AND not_before > ?",
    );
    this.statusStmt = c.prepare<{ status: ReportStatus }, [string]>("SELECT status FROM reports WHERE id = ?");
    this.getStmt = c.prepare<ReportSummary, [string, string]>(`SELECT ${summarySql} FROM reports WHERE id = ?1 AND account_id = ?2`);
    this.getAnyStmt = c.prepare<ReportSummary, [string]>(`SELECT ${summarySql} FROM reports WHERE id = ?`);
    this.deleteStmt = c.prepare<ReportSummary, [string, string]>(
      `DELETE FROM reports WHERE id = ?1 AND account_id = ?2 RETURNING ${summarySql}`,
    );
    this.firstPageStmt = c.prepare<ReportSummary, [string, string | null, number]>(
      `SELECT ${summarySql} FROM reports WHERE account_id = ?1 AND (?2 IS NULL OR status = ?2)
       ORDER BY created_at DESC, id DESC LIMIT ?3`,
    );
    this.nextPageStmt = c.prepare<ReportSummary, [string, string | null, number, string, number]>(
      `SELECT ${summarySql} FROM reports WHERE account_id = ?1 AND (?2 IS NULL OR status = ?2)
       AND (created_at < ?3 OR (created_at = ?3 AND id < ?4)) ORDER BY created_at DESC, id DESC LIMIT ?5`,
    );
    this.insertStmt = c.prepare<
      never,
      [string, string, string, string, string | null, string | null, number, string | null, string | null]
    >(
      `INSERT INTO reports (id, account_id, engine, status, template, data, options, attempts, created_at, request_id, merge_parts)
       VALUES (?1, ?2, ?3, 'queued', ?4, ?5, ?6, 0, ?7, ?8, ?9)`,
    );
    this.countUnfinishedStmt = c.prepare<{ n: number }, []>("SELECT count(*) AS n FROM reports WHERE status IN ('queued', 'processing')");
    this.countUnfinishedOfStmt = c.prepare<{ n: number }, [string]>(
      "SELECT count(*) AS n FROM reports WHERE account_id = ? AND status IN ('queued', 'processing')",
    );
    this.succeededStmt = c.prepare<{ id: string }, [string, number, number, number, number]>(
      `UPDATE reports SET status = 'succeeded', size_bytes = ?2, page_count = ?3, finished_at = ?4, expires_at = ?5,
       template = NULL, data = NULL, options = NULL, error_code = NULL, error_message = NULL
       WHERE id = ?1 AND status = 'processing' RETURNING id`,
    );
    this.failedStmt = c.prepare<never, [string, string, string, number]>(
      `UPDATE reports SET status = 'failed', error_code = ?2, error_message = ?3, finished_at = ?4, template = NULL, data = NULL, options = NULL
       WHERE id = ?1 AND status = 'processing'`,
    );
    this.requeueStmt = c.prepare<never, [string, number, number | null]>(
      `UPDATE reports SET status = 'queued', started_at = NULL, not_before = ?3, attempts = CASE WHEN ?2 THEN max(0, attempts - 1) ELSE attempts END
       WHERE id = ?1 AND status = 'processing'`,
    );
  }

  /** Runs fn in one transaction (a savepoint when already inside one). */
  transaction<T>(fn: () => T): T {
    return this.db.$client.transaction(fn)();
  }

  insert(r: NewReport): void {
    this.insertStmt.run(r.id, r.accountId, r.engine, r.template, r.data, r.options, r.createdAt, r.requestId ?? null, r.mergeParts ?? null);
  }

  get(id: string, accountId: string): ReportSummary | undefined {
    return this.getStmt.get(id, accountId) ?? undefined;
  }

  /** The report a download link names, whoever owns it (the link's signature is the authority). */
  getForDownload(id: string): ReportSummary | undefined {
    return this.getAnyStmt.get(id) ?? undefined;
  }

  status(id: string): ReportStatus | undefined {
    return this.statusStmt.get(id)?.status;
  }

  list(q: ListQuery): ReportSummary[] {
    const status = q.status ?? null;
    return q.after
      ? this.nextPageStmt.all(q.accountId, status, q.after.createdAt, q.after.id, q.limit)
      : this.firstPageStmt.all(q.accountId, status, q.limit);
  }

  delete(id: string, accountId: string): ReportSummary | undefined {
    return this.deleteStmt.get(id, accountId) ?? undefined;
  }

  countUnfinished(accountId?: string): number {
    return (accountId === undefined ? this.countUnfinishedStmt.get() : this.countUnfinishedOfStmt.get(accountId))!.n;
  }

  claimNext(now: number): ClaimedReport | undefined {
    return withoutSync(this.db.$client, () => this.claimStmt.get(now) ?? undefined);
  }

  /** Records success, only if the report is still being processed (not deleted meanwhile). */
  markSucceeded(id: string, r: { sizeBytes: number; pageCount: number; finishedAt: number; expiresAt: number }): boolean {
    return this.succeededStmt.get(id, r.sizeBytes, r.pageCount, r.finishedAt, r.expiresAt) != null;
  }

  markFailed(id: string, code: string, message: string, finishedAt: number): void {
    this.failedStmt.run(id, code, message, finishedAt);
  }

  /**
   * Puts a report back in the queue; `refund` gives back the attempt when we interrupted it ourselves;
   * `notBefore` (ms since the epoch) holds it back for a retry's backoff.
   */
  requeue(id: string, refund: boolean, notBefore: number | null = null): void {
    this.requeueStmt.run(id, refund ? 1 : 0, notBefore);
  }

  /**
   * After a crash: reports left processing go back to the queue, unless they have used all their
   * attempts (a template that crashes the server every time must not do so forever).
   */
  recover(maxAttempts: number, now: number): { requeued: number; failed: number } {
    return this.db.$client.transaction(() => {
      const failed = this.db
        .update(reports)
        .set({
          status: "failed",
          errorCode: "render_interrupted",
          errorMessage: `rendering was interrupted ${maxAttempts} times (the service stopped while printing it)`,
          finishedAt: now,
          template: null,
          data: null,
          options: null,
        })
        .where(and(eq(reports.status, "processing"), sql`${reports.attempts} >= ${maxAttempts}`))
        .returning({ id: reports.id })
        .all().length;
      const requeued = this.db
        .update(reports)
        .set({ status: "queued", startedAt: null })
        .where(eq(reports.status, "processing"))
        .returning({ id: reports.id })
        .all().length;
      return { requeued, failed };
    })();
  }

  /** When the next report held back by a retry backoff becomes due, if any. */
  nextDueAt(now: number): number | undefined {
    return this.nextDueStmt.get(now)?.t ?? undefined;
  }

  /** Succeeded reports past their expiry: the ones whose files the retention job removes. */
  dueForExpiry(now: number, limit: number): { id: string }[] {
    return this.db
      .select({ id: reports.id })
      .from(reports)
      .where(and(eq(reports.status, "succeeded"), isNotNull(reports.expiresAt), lt(reports.expiresAt, now)))
      .limit(limit)
      .all();
  }

  markExpired(ids: string[]): void {
    if (ids.length)
      this.db
        .update(reports)
        .set({ status: "expired" })
        .where(and(inArray(reports.id, ids), eq(reports.status, "succeeded")))
        .run();
  }

  /** How many reports the account has in each status (the dashboard's overview). */
  countByStatus(accountId: string): Partial<Record<ReportStatus, number>> {
    const rows = this.db
      .select({ status: reports.status, n: sql<number>`count(*)` })
      .from(reports)
      .where(eq(reports.accountId, accountId))
      .groupBy(reports.status)
      .all();
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  /** The account's latest rendered reports with their start and finish times, newest first. */
  recentlyRendered(accountId: string, limit: number): { id: string; startedAt: number; finishedAt: number; pageCount: number | null }[] {
    return this.db.$client
      .query<{ id: string; startedAt: number; finishedAt: number; pageCount: number | null }, [string, number]>(
        `SELECT id, started_at AS startedAt, finished_at AS finishedAt, page_count AS pageCount FROM reports
         WHERE account_id = ?1 AND status IN ('succeeded', 'expired') AND started_at IS NOT NULL AND finished_at IS NOT NULL
         ORDER BY created_at DESC, id DESC LIMIT ?2`,
      )
      .all(accountId, limit);
  }

  /** Which of these ids still have a row (to find orphaned files). */
  existing(ids: string[]): Set<string> {
    if (ids.length === 0) return new Set();
    return new Set(
      this.db
        .select({ id: reports.id })
        .from(reports)
        .where(inArray(reports.id, ids))
        .all()
        .map((r) => r.id),
    );
  }
}
