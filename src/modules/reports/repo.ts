// SQL for reports. The reports table doubles as the durable job queue (queue.ts holds the queue's SQL).

import { type NewestFirstQuery, newestFirst } from "../../db/newest-first";
import type { Engine, Report, ReportStatus } from "../../db/schema";
import { jsonList, type Sql } from "../../db/sql";

export interface NewReport {
  id: string;
  accountId: string;
  engine: Engine;
  template: string;
  data: string | null;
  options: string | null;
  createdAt: number;
  /** The submitting access key (null: the dashboard's playground before 0011, or none known). */
  keyId?: string | null;
  /** X-Request-Id of the submitting request, for the rendering's log lines. */
  requestId?: string | null;
  /** The ids a merged report joins, as a JSON array (template is then ""). */
  mergeParts?: string | null;
  /** The stored template and version the report was made from (template then holds that version's text). */
  templateId?: string | null;
  templateVersion?: number | null;
  /** What the PDF will conform to, as JSON (see ReportConformance); null for a plain PDF. */
  conformance?: string | null;
}

export interface ListQuery extends Omit<NewestFirstQuery, "where"> {
  status?: ReportStatus;
}

export type ReportSummary = Omit<
  Report,
  "template" | "data" | "options" | "requestId" | "mergeParts" | "notBefore" | "leaseOwner" | "leaseExpiresAt"
>;

/** Columns for reading a report without its (possibly large) input, named as in ReportSummary. */
const summary = `id, account_id AS "accountId", engine, status, attempts, error_code AS "errorCode", error_message AS "errorMessage",
  size_bytes AS "sizeBytes", page_count AS "pageCount", created_at AS "createdAt", started_at AS "startedAt", finished_at AS "finishedAt",
  expires_at AS "expiresAt", template_id AS "templateId", template_version AS "templateVersion", conformance,
  progress_done AS "progressDone", progress_total AS "progressTotal"`;

/** The columns a new report is inserted with, in the order of insertParams() ($1..$13, status and attempts literal). */
const INSERTED = `id, account_id, engine, status, template, data, options, attempts, created_at, request_id, merge_parts,
  template_id, template_version, key_id, conformance`;

function insertParams(r: NewReport): unknown[] {
  return [
    r.id,
    r.accountId,
    r.engine,
    r.template,
    r.data,
    r.options,
    r.createdAt,
    r.requestId ?? null,
    r.mergeParts ?? null,
    r.templateId ?? null,
    r.templateVersion ?? null,
    r.keyId ?? null,
    r.conformance ?? null,
  ];
}

export class ReportsRepo {
  constructor(private readonly sql: Sql) {}

  /** Runs fn in one transaction (joining the open one, if any). */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.sql.tx(fn);
  }

  /** Inside transaction(): fn runs once the outermost transaction has ended (true: it committed). */
  afterTx(fn: (committed: boolean) => void): void {
    this.sql.afterTx(fn);
  }

  /**
   * Inserts a queued report. Should its request answer 503 without knowing whether the insert
   * committed, the report is withdrawn once that is known (db/undo.ts): a client told "nothing was
   * saved" never finds it. `counted` is the key's daily count (countReport) the transaction also took,
   * given back then.
   */
  async insert(r: NewReport, counted?: { keyId: string; day: number }): Promise<void> {
    this.sql.ifCommitUnknown(() => this.withdraw(r.id, counted && `${counted.keyId}/${counted.day}`));
    await this.sql.run(
      `INSERT INTO reports (${INSERTED}) VALUES ($1, $2, $3, 'queued', $4, $5, $6, 0, $7, $8, $9, $10, $11, $12, $13)`,
      insertParams(r),
    );
  }

  /**
   * A keyed submission, in the caller's transaction: inserted when the queue has room (fewer than
   * `caps.total` unfinished reports, fewer than `caps.account` of the account's) and the key's daily
   * quota allows (countReport), counted against the quota then; else nothing is written, and the
   * answer says which limit refused it (the queue's first, as before). PostgreSQL: one statement (the
   * counts, the quota's count and the insert as CTEs); SQLite: one statement each.
   * `claim` (PostgreSQL, modules/reports/slots.ts): the insert is also the report's claim by `owner`,
   * leased until `leaseExpiresAt` with attempt 1, as queue.claim() leaves a report, unless an older
   * report is due (those go first): "claimed" then, else it is queued.
   */
  async insertCounted(
    r: NewReport,
    quota: { keyId: string; day: number; max: number | null },
    caps: { total: number; account: number },
    claim?: { owner: string; leaseExpiresAt: number },
  ): Promise<"inserted" | "claimed" | "queue_full" | "account_queue_full" | "quota_exceeded"> {
    const refused = (open: { total: number; account: number }) =>
      open.total >= caps.total ? "queue_full" : open.account >= caps.account ? "account_queue_full" : undefined;
    if (this.sql.dialect === "sqlite") {
      const full = refused(await this.unfinishedCounts(r.accountId));
      if (full) return full;
      if (!(await this.countReport(quota.keyId, quota.day, quota.max))) return "quota_exceeded";
      await this.insert(r, quota);
      return "inserted";
    }
    this.sql.ifCommitUnknown(() => this.withdraw(r.id, `${quota.keyId}/${quota.day}`));
    const row = await this.sql.get<{ total: number; account: number; inserted: number; claimed: number }>(
      `WITH open AS (
         SELECT count(*) AS total, count(*) FILTER (WHERE account_id = $2) AS account FROM reports WHERE status IN ('queued', 'processing')),
       counted AS (
         INSERT INTO key_daily_counts (id, key_id, day, reports)
         SELECT CAST($14 AS TEXT), CAST($15 AS TEXT), CAST($16 AS INTEGER), 1 FROM open
         WHERE open.total < CAST($18 AS BIGINT) AND open.account < CAST($19 AS BIGINT)
         ON CONFLICT (id) DO UPDATE SET reports = key_daily_counts.reports + 1
         WHERE CAST($17 AS INTEGER) IS NULL OR key_daily_counts.reports < $17
         RETURNING reports),
       mine AS (
         SELECT CAST($20 AS TEXT) IS NOT NULL AND NOT EXISTS (
           SELECT 1 FROM reports WHERE status = 'queued' AND (not_before IS NULL OR not_before <= CAST($7 AS BIGINT))) AS claim),
       inserted AS (
         INSERT INTO reports (${INSERTED}, started_at, lease_owner, lease_expires_at)
         SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), CAST($3 AS TEXT), CASE WHEN mine.claim THEN 'processing' ELSE 'queued' END,
           CAST($4 AS TEXT), CAST($5 AS TEXT), CAST($6 AS TEXT), CASE WHEN mine.claim THEN 1 ELSE 0 END,
           CAST($7 AS BIGINT), CAST($8 AS TEXT), CAST($9 AS TEXT), CAST($10 AS TEXT), CAST($11 AS INTEGER), CAST($12 AS TEXT), CAST($13 AS TEXT),
           CASE WHEN mine.claim THEN CAST($7 AS BIGINT) END, CASE WHEN mine.claim THEN CAST($20 AS TEXT) END,
           CASE WHEN mine.claim THEN CAST($21 AS BIGINT) END
         FROM counted, mine RETURNING status)
       SELECT open.total, open.account, (SELECT count(*) FROM inserted) AS inserted,
         (SELECT count(*) FROM inserted WHERE status = 'processing') AS claimed FROM open`,
      [
        ...insertParams(r),
        `${quota.keyId}/${quota.day}`,
        quota.keyId,
        quota.day,
        quota.max,
        caps.total,
        caps.account,
        claim?.owner ?? null,
        claim?.leaseExpiresAt ?? null,
      ],
    );
    if (Number(row!.claimed) > 0) return "claimed";
    if (Number(row!.inserted) > 0) return "inserted";
    return refused({ total: Number(row!.total), account: Number(row!.account) }) ?? "quota_exceeded";
  }

  /** Removes a report whose insert its request gave up on, and gives its key's count back. */
  private withdraw(id: string, countId: string | undefined): Promise<boolean> {
    return this.sql.tx(async () => {
      if (!(await this.sql.run("DELETE FROM reports WHERE id = $1", [id]))) return false;
      if (countId) await this.sql.run("UPDATE key_daily_counts SET reports = reports - 1 WHERE id = $1 AND reports > 0", [countId]);
      return true;
    });
  }

  get(id: string, accountId: string): Promise<ReportSummary | undefined> {
    return this.sql.get<ReportSummary>(`SELECT ${summary} FROM reports WHERE id = $1 AND account_id = $2`, [id, accountId]);
  }

  /** The report a download link names, whoever owns it (the link's signature is the authority). */
  getForDownload(id: string): Promise<ReportSummary | undefined> {
    return this.sql.get<ReportSummary>(`SELECT ${summary} FROM reports WHERE id = $1`, [id]);
  }

  list(q: ListQuery): Promise<ReportSummary[]> {
    return newestFirst(this.sql, `SELECT ${summary} FROM reports`, { ...q, where: q.status ? { status: q.status } : undefined });
  }

  delete(id: string, accountId: string): Promise<ReportSummary | undefined> {
    return this.sql.get<ReportSummary>(`DELETE FROM reports WHERE id = $1 AND account_id = $2 RETURNING ${summary}`, [id, accountId]);
  }

  async countUnfinished(accountId?: string): Promise<number> {
    const row =
      accountId === undefined
        ? await this.sql.get<{ n: number }>("SELECT count(*) AS n FROM reports WHERE status IN ('queued', 'processing')")
        : await this.sql.get<{ n: number }>(
            "SELECT count(*) AS n FROM reports WHERE account_id = $1 AND status IN ('queued', 'processing')",
            [accountId],
          );
    return row!.n;
  }

  /**
   * The unfinished reports of the whole service and of one account, in one statement (a submission
   * checks both limits: one round trip instead of two, which counts with PostgreSQL).
   */
  async unfinishedCounts(accountId: string): Promise<{ total: number; account: number }> {
    const row = await this.sql.get<{ total: number | string; account: number | string | null }>(
      `SELECT count(*) AS total, sum(CASE WHEN account_id = $1 THEN 1 ELSE 0 END) AS account
       FROM reports WHERE status IN ('queued', 'processing')`,
      [accountId],
    );
    return { total: Number(row!.total), account: Number(row!.account ?? 0) };
  }

  /** Succeeded reports past their expiry: the ones whose files the retention job removes. */
  dueForExpiry(now: number, limit: number): Promise<{ id: string }[]> {
    return this.sql.all<{ id: string }>(
      "SELECT id FROM reports WHERE status = 'succeeded' AND expires_at IS NOT NULL AND expires_at < $1 ORDER BY expires_at LIMIT $2",
      [now, limit],
    );
  }

  /**
   * Notes on a succeeded report that its PDF is missing from the store (found by a download): the report
   * stays succeeded, its error says what happened. Fenced by the attempt whose PDF went missing, so a
   * report rendered again since is left alone. Returns whether the note was written.
   */
  async notePdfMissing(id: string, attempt: number, message: string): Promise<boolean> {
    return (
      (await this.sql.run(
        `UPDATE reports SET error_code = 'pdf_missing', error_message = $3 WHERE id = $1 AND attempts = $2 AND status = 'succeeded'`,
        [id, attempt, message],
      )) > 0
    );
  }

  async markExpired(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.run(`UPDATE reports SET status = 'expired' WHERE id IN ${jsonList(this.sql.dialect, "$1")} AND status = 'succeeded'`, [
      JSON.stringify(ids),
    ]);
  }

  /** How many reports the account has in each status (the dashboard's overview). */
  async countByStatus(accountId: string): Promise<Partial<Record<ReportStatus, number>>> {
    const rows = await this.sql.all<{ status: ReportStatus; n: number }>(
      "SELECT status, count(*) AS n FROM reports WHERE account_id = $1 GROUP BY status",
      [accountId],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  /** The account's latest rendered reports with their start and finish times, newest first. */
  recentlyRendered(
    accountId: string,
    limit: number,
  ): Promise<{ id: string; startedAt: number; finishedAt: number; pageCount: number | null }[]> {
    return this.sql.all(
      `SELECT id, started_at AS "startedAt", finished_at AS "finishedAt", page_count AS "pageCount" FROM reports
       WHERE account_id = $1 AND status IN ('succeeded', 'expired') AND started_at IS NOT NULL AND finished_at IS NOT NULL
       ORDER BY created_at DESC, id DESC LIMIT $2`,
      [accountId, limit],
    );
  }

  /** Which of these ids still have a row (to find orphaned files). */
  async existing(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.sql.all<{ id: string }>(`SELECT id FROM reports WHERE id IN ${jsonList(this.sql.dialect, "$1")}`, [
      JSON.stringify(ids),
    ]);
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Counts one more report for the key on `day` unless that would pass `max` (null: no quota).
   * One conditional upsert: concurrent submissions serialise on the counter row (SQLite's single
   * writer; PostgreSQL's row lock on conflict), so two can never both take the last slot. Call it in
   * the report's insert transaction, so a refused or failed insert does not count. Returns false when over.
   */
  async countReport(keyId: string, day: number, max: number | null): Promise<boolean> {
    const row = await this.sql.get<{ reports: number }>(
      `INSERT INTO key_daily_counts (id, key_id, day, reports) VALUES ($1, $2, $3, 1)
       ON CONFLICT (id) DO UPDATE SET reports = key_daily_counts.reports + 1
       WHERE CAST($4 AS INTEGER) IS NULL OR key_daily_counts.reports < $4
       RETURNING reports`,
      [`${keyId}/${day}`, keyId, day, max],
    );
    return row !== undefined;
  }

  /** Reports counted for the key on `day`. */
  async reportsOn(keyId: string, day: number): Promise<number> {
    return (
      (await this.sql.get<{ reports: number }>("SELECT reports FROM key_daily_counts WHERE id = $1", [`${keyId}/${day}`]))?.reports ?? 0
    );
  }

  /** Drops counter rows of days before `day` (the retention job). */
  deleteCountsBefore(day: number): Promise<number> {
    return this.sql.run("DELETE FROM key_daily_counts WHERE day < $1", [day]);
  }
}
