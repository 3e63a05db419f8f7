// SQL for destinations and for the queue of report deliveries. A delivery row is written with its
// report (in the insert transaction), waits until the reports_finished_deliveries trigger of migration
// 0018 makes it due (the PDF is durable), and is claimed by pushing its next attempt a lease ahead, so
// one instance makes each attempt; if that instance dies, the row is due again when the lease ends.

import { LeasedRows } from "../../db/leased-rows";
import { newestFirst } from "../../db/newest-first";
import type { DeliveryStatus, DestinationType } from "../../db/schema";
import { jsonList, type Sql } from "../../db/sql";

export interface DestinationRow {
  id: string;
  accountId: string;
  name: string;
  type: DestinationType;
  /** JSON of the settings that may be shown. */
  settings: string;
  sealedSecrets: string;
  createdAt: number;
  updatedAt: number;
}

export interface NewDelivery {
  id: string;
  reportId: string;
  position: number;
  destinationId: string;
  target: string;
  subject: string | null;
  body: string | null;
  linkOrigin: string;
  createdAt: number;
}

export interface DueDelivery extends NewDelivery {
  attempts: number;
}

export interface DeliveryRow {
  destinationId: string;
  status: DeliveryStatus;
  attempts: number;
  target: string;
  deliveredAt: number | null;
  lastError: string | null;
}

/** What an attempt leads to: delivered, another attempt at a time, or given up. */
export type DeliveryOutcome = { status: "delivered" } | { status: "pending"; nextAttemptAt: number } | { status: "failed" };

const columns = `id, account_id AS "accountId", name, type, settings, sealed_secrets AS "sealedSecrets", created_at AS "createdAt",
  updated_at AS "updatedAt"`;

export class DestinationsRepo {
  /** The queue's claim, release and due time (db/leased-rows.ts, shared with the other delivery queue). */
  readonly leased: LeasedRows;

  constructor(
    private readonly sql: Sql,
    /** This process's name in claims (see ReportQueue.owner). */
    owner = "",
  ) {
    this.leased = new LeasedRows(sql, "report_deliveries", owner);
  }

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.sql.tx(fn);
  }

  async insert(r: DestinationRow): Promise<void> {
    await this.sql.run(
      `INSERT INTO destinations (id, account_id, name, type, settings, sealed_secrets, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [r.id, r.accountId, r.name, r.type, r.settings, r.sealedSecrets, r.createdAt, r.updatedAt],
    );
  }

  async update(r: DestinationRow): Promise<boolean> {
    return (
      (await this.sql.run(
        "UPDATE destinations SET name = $3, settings = $4, sealed_secrets = $5, updated_at = $6 WHERE id = $1 AND account_id = $2",
        [r.id, r.accountId, r.name, r.settings, r.sealedSecrets, r.updatedAt],
      )) > 0
    );
  }

  /** The account's destination; undefined for an unknown id or another account's. */
  get(id: string, accountId: string): Promise<DestinationRow | undefined> {
    return this.sql.get<DestinationRow>(`SELECT ${columns} FROM destinations WHERE id = $1 AND account_id = $2`, [id, accountId]);
  }

  /** The account's destinations among `ids` (options.deliver's check). */
  async owned(accountId: string, ids: string[]): Promise<Set<string>> {
    const rows = await this.sql.all<{ id: string }>(
      `SELECT id FROM destinations WHERE account_id = $1 AND id IN ${jsonList(this.sql.dialect, "$2")}`,
      [accountId, JSON.stringify(ids)],
    );
    return new Set(rows.map((r) => r.id));
  }

  list(accountId: string): Promise<DestinationRow[]> {
    return newestFirst<DestinationRow>(this.sql, `SELECT ${columns} FROM destinations`, { accountId });
  }

  async delete(id: string, accountId: string): Promise<boolean> {
    return (await this.sql.run("DELETE FROM destinations WHERE id = $1 AND account_id = $2", [id, accountId])) > 0;
  }

  /** Queues a report's deliveries; call in the report's insert transaction. They wait for its success. */
  async attach(rows: NewDelivery[]): Promise<void> {
    for (const d of rows)
      await this.sql.run(
        `INSERT INTO report_deliveries (id, report_id, position, destination_id, target, subject, body, link_origin, status, attempts, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', 0, $9)`,
        [d.id, d.reportId, d.position, d.destinationId, d.target, d.subject, d.body, d.linkOrigin, d.createdAt],
      );
  }

  /** A report's deliveries in options.deliver's order (GET /reports/{id}). */
  deliveries(reportId: string): Promise<DeliveryRow[]> {
    return this.sql.all<DeliveryRow>(
      `SELECT destination_id AS "destinationId", status, attempts, target, delivered_at AS "deliveredAt", last_error AS "lastError"
       FROM report_deliveries WHERE report_id = $1 ORDER BY position`,
      [reportId],
    );
  }

  /** The deliveries of several reports (a page of the dashboard's list), by report id. */
  async deliveriesOf(reportIds: string[]): Promise<Map<string, DeliveryRow[]>> {
    const out = new Map<string, DeliveryRow[]>();
    if (reportIds.length === 0) return out;
    const rows = await this.sql.all<DeliveryRow & { reportId: string }>(
      `SELECT report_id AS "reportId", destination_id AS "destinationId", status, attempts, target, delivered_at AS "deliveredAt",
       last_error AS "lastError" FROM report_deliveries WHERE report_id IN ${jsonList(this.sql.dialect, "$1")} ORDER BY report_id, position`,
      [JSON.stringify(reportIds)],
    );
    for (const { reportId, ...r } of rows) (out.get(reportId) ?? out.set(reportId, []).get(reportId)!).push(r);
    return out;
  }

  /**
   * Takes up to `limit` due deliveries, oldest first, for `leaseMs`: until then no other worker (here or
   * on another instance) takes them. One statement that does not wait for its fsync (LeasedRows.claimRows):
   * that saves the main thread one sync of the log per delivery.
   */
  async claimDue(now: number, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    return this.leased.claimRows<DueDelivery>(
      now,
      limit,
      leaseMs,
      `id, report_id AS "reportId", position, destination_id AS "destinationId", target, subject, body,
       link_origin AS "linkOrigin", created_at AS "createdAt", attempts`,
    );
  }

  /** Records an attempt's outcome; false when the row is gone (its report deleted) or no longer pending. */
  async record(id: string, attempts: number, outcome: DeliveryOutcome, error: string | null, at: number): Promise<boolean> {
    return (
      (await this.sql.run(
        `UPDATE report_deliveries SET status = $2, attempts = $3, next_attempt_at = $4, delivered_at = $5, last_error = $6, claimed_by = NULL
         WHERE id = $1 AND status = 'pending'`,
        [
          id,
          outcome.status,
          attempts,
          outcome.status === "pending" ? outcome.nextAttemptAt : null,
          outcome.status === "delivered" ? at : null,
          outcome.status === "delivered" ? null : error,
        ],
      )) > 0
    );
  }
}
