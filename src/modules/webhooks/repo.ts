// SQL for webhooks: account secrets, the webhook of each report, deliveries (the durable delivery
// queue) and the log of their attempts. Deliveries are created by the reports_finished_webhook
// trigger of migration 0004, in the transaction that records a report's final status. A delivery is
// claimed by pushing its next attempt a lease ahead, so one instance sends each attempt; if it dies,
// the delivery is due again when the lease runs out.

import { randomBytes } from "node:crypto";
import { LeasedRows } from "../../db/leased-rows";
import type { DeliveryStatus, WebhookEvent } from "../../db/schema";
import { jsonList, type Sql } from "../../db/sql";

export interface SecretRow {
  secret: string;
  createdAt: number;
  previousSecret: string | null;
  previousExpiresAt: number | null;
}

export interface DueDelivery {
  id: string;
  reportId: string;
  accountId: string;
  event: WebhookEvent;
  url: string;
  linkOrigin: string;
  attempts: number;
  createdAt: number;
  /** A delivery's event: JSON {type, delivery} (queueDeliveryEvent), else null. */
  detail: string | null;
}

export interface DeliveryRow {
  id: string;
  event: WebhookEvent;
  status: DeliveryStatus;
  attempts: number;
  createdAt: number;
  nextAttemptAt: number | null;
  finishedAt: number | null;
  lastError: string | null;
  detail: string | null;
}

export interface AttemptRow {
  deliveryId: string;
  startedAt: number;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
}

/** What an attempt leads to: delivered, another attempt at a time, or given up. */
export type AttemptOutcome = { status: "delivered" } | { status: "pending"; nextAttemptAt: number } | { status: "failed" };

export class WebhooksRepo {
  /** The queue's claim, release and due time (db/leased-rows.ts, shared with the other delivery queue). */
  readonly leased: LeasedRows;

  constructor(
    private readonly sql: Sql,
    /** This process's name in claims (see ReportQueue.owner). */
    owner = "",
  ) {
    this.leased = new LeasedRows(sql, "webhook_deliveries", owner);
  }

  secret(accountId: string): Promise<SecretRow | undefined> {
    return this.sql.get<SecretRow>(
      `SELECT secret, created_at AS "createdAt", previous_secret AS "previousSecret", previous_expires_at AS "previousExpiresAt"
       FROM webhook_secrets WHERE account_id = $1`,
      [accountId],
    );
  }

  /** Stores the account's first secret; keeps an existing one (two first calls at once agree). */
  async insertSecret(accountId: string, secret: string, now: number): Promise<void> {
    await this.sql.run(
      "INSERT INTO webhook_secrets (account_id, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (account_id) DO NOTHING",
      [accountId, secret, now],
    );
  }

  /** Replaces the secret; the old one keeps signing until previousExpiresAt. */
  /** Runs fn in one transaction (joining the open one, if any): a rotation and its audit event. */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.sql.tx(fn);
  }

  async rotateSecret(accountId: string, secret: string, now: number, previousExpiresAt: number): Promise<void> {
    await this.sql.run(
      `INSERT INTO webhook_secrets (account_id, secret, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO UPDATE SET previous_secret = webhook_secrets.secret, previous_expires_at = $4, secret = $2, created_at = $3`,
      [accountId, secret, now, previousExpiresAt],
    );
  }

  /** Records the webhook a report was submitted with (call inside the report's insert transaction). */
  async attach(reportId: string, url: string, linkOrigin: string): Promise<void> {
    await this.sql.run("INSERT INTO report_webhooks (report_id, url, link_origin) VALUES ($1, $2, $3)", [reportId, url, linkOrigin]);
  }

  async webhookUrl(reportId: string): Promise<string | undefined> {
    return (await this.sql.get<{ url: string }>("SELECT url FROM report_webhooks WHERE report_id = $1", [reportId]))?.url;
  }

  /**
   * Queues a delivery's event for a report that has a webhook (none otherwise), in the transaction that
   * records the delivery's end. Stored under event report.succeeded (migration 0018 says why) with
   * `detail` {type, delivery}: the type receivers see, and the data added to the event's.
   */
  async queueDeliveryEvent(
    reportId: string,
    type: "report.delivered" | "report.delivery_failed",
    delivery: Record<string, unknown>,
    now: number,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO webhook_deliveries (id, report_id, event, status, attempts, created_at, next_attempt_at, detail)
       SELECT $2, report_id, 'report.succeeded', 'pending', 0, $3, $3, $4 FROM report_webhooks WHERE report_id = $1`,
      [reportId, `msg_${randomBytes(16).toString("hex")}`, now, JSON.stringify({ type, delivery })],
    );
  }

  /**
   * Takes up to `limit` pending deliveries whose next attempt is due, oldest first, for `leaseMs`: until
   * then no other sender (here or on another instance) takes them.
   */
  async claimDue(now: number, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    return this.sql.tx(async () => {
      const ids = await this.leased.claim(now, limit, leaseMs);
      if (ids.length === 0) return [];
      return this.sql.all<DueDelivery>(
        `SELECT d.id, d.report_id AS "reportId", r.account_id AS "accountId", d.event, w.url, w.link_origin AS "linkOrigin", d.attempts,
         d.created_at AS "createdAt", d.detail
         FROM webhook_deliveries d JOIN reports r ON r.id = d.report_id JOIN report_webhooks w ON w.report_id = d.report_id
         WHERE d.id IN ${jsonList(this.sql.dialect, "$1")} ORDER BY d.created_at, d.id`,
        [JSON.stringify(ids)],
      );
    });
  }

  async deliveries(reportId: string): Promise<{ deliveries: DeliveryRow[]; attempts: AttemptRow[] }> {
    const deliveries = await this.sql.all<DeliveryRow>(
      `SELECT id, event, status, attempts, created_at AS "createdAt", next_attempt_at AS "nextAttemptAt", finished_at AS "finishedAt",
       last_error AS "lastError", detail FROM webhook_deliveries WHERE report_id = $1 ORDER BY created_at, id`,
      [reportId],
    );
    const attempts = await this.sql.all<AttemptRow>(
      `SELECT a.delivery_id AS "deliveryId", a.started_at AS "startedAt", a.duration_ms AS "durationMs", a.response_status AS "responseStatus", a.error
       FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.report_id = $1 ORDER BY a.id`,
      [reportId],
    );
    return { deliveries, attempts };
  }

  /** Logs an attempt and moves its delivery on, in one transaction. */
  async recordAttempt(a: AttemptRow, outcome: AttemptOutcome): Promise<void> {
    await this.sql.tx(async () => {
      await this.sql.run(
        "INSERT INTO webhook_attempts (delivery_id, started_at, duration_ms, response_status, error) VALUES ($1, $2, $3, $4, $5)",
        [a.deliveryId, a.startedAt, a.durationMs, a.responseStatus, a.error],
      );
      const finishedAt = outcome.status === "pending" ? null : a.startedAt + a.durationMs;
      await this.sql.run(
        `UPDATE webhook_deliveries SET status = $2, attempts = attempts + 1, next_attempt_at = $3, finished_at = $4, last_error = $5,
         claimed_by = NULL WHERE id = $1 AND status = 'pending'`,
        [
          a.deliveryId,
          outcome.status,
          outcome.status === "pending" ? outcome.nextAttemptAt : null,
          finishedAt,
          a.error ?? (a.responseStatus && (a.responseStatus < 200 || a.responseStatus > 299) ? `answered ${a.responseStatus}` : null),
        ],
      );
    });
  }
}
