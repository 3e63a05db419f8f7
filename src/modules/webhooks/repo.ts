// SQL for webhooks: account secrets, the webhook of each report, deliveries (the durable delivery
// queue) and the log of their attempts. Deliveries are created by the reports_finished_webhook
// trigger of migration 0004, in the transaction that records a report's final status.
import type { Db } from "../../db/client";
import type { DeliveryStatus, WebhookEvent } from "../../db/schema";

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
  private readonly secretStmt;
  private readonly dueStmt;
  private readonly nextDueStmt;
  private readonly attachStmt;
  private readonly webhookOfStmt;
  private readonly deliveriesStmt;
  private readonly attemptsStmt;
  private readonly insertAttemptStmt;
  private readonly updateDeliveryStmt;

  constructor(private readonly db: Db) {
    const c = db.$client;
    this.secretStmt = c.prepare<SecretRow, [string]>(
      "SELECT secret, created_at AS createdAt, previous_secret AS previousSecret, previous_expires_at AS previousExpiresAt FROM webhook_secrets WHERE account_id = ?",
    );
    this.dueStmt = c.prepare<DueDelivery, [number, number]>(
      `SELECT d.id, d.report_id AS reportId, r.account_id AS accountId, d.event, w.url, w.link_origin AS linkOrigin, d.attempts, d.created_at AS createdAt
       FROM webhook_deliveries d JOIN reports r ON r.id = d.report_id JOIN report_webhooks w ON w.report_id = d.report_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= ?1 ORDER BY d.next_attempt_at LIMIT ?2`,
    );
    this.nextDueStmt = c.prepare<{ at: number | null }, []>(
      "SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending'",
    );
    this.attachStmt = c.prepare<unknown, [string, string, string]>(
      "INSERT INTO report_webhooks (report_id, url, link_origin) VALUES (?, ?, ?)",
    );
    this.webhookOfStmt = c.prepare<{ url: string }, [string]>("SELECT url FROM report_webhooks WHERE report_id = ?");
    this.deliveriesStmt = c.prepare<DeliveryRow, [string]>(
      `SELECT id, event, status, attempts, created_at AS createdAt, next_attempt_at AS nextAttemptAt, finished_at AS finishedAt, last_error AS lastError
       FROM webhook_deliveries WHERE report_id = ? ORDER BY created_at, id`,
    );
    this.attemptsStmt = c.prepare<AttemptRow, [string]>(
      `SELECT a.delivery_id AS deliveryId, a.started_at AS startedAt, a.duration_ms AS durationMs, a.response_status AS responseStatus, a.error
       FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.report_id = ? ORDER BY a.id`,
    );
    this.insertAttemptStmt = c.prepare<unknown, [string, number, number, number | null, string | null]>(
      "INSERT INTO webhook_attempts (delivery_id, started_at, duration_ms, response_status, error) VALUES (?, ?, ?, ?, ?)",
    );
    this.updateDeliveryStmt = c.prepare<unknown, [string, string, number | null, number | null, string | null]>(
      `UPDATE webhook_deliveries SET status = ?2, attempts = attempts + 1, next_attempt_at = ?3, finished_at = ?4, last_error = ?5
       WHERE id = ?1 AND status = 'pending'`,
    );
  }

  secret(accountId: string): SecretRow | undefined {
    return this.secretStmt.get(accountId) ?? undefined;
  }

  /** Stores the account's first secret; keeps an existing one (two first calls at once agree). */
  insertSecret(accountId: string, secret: string, now: number): void {
    this.db.$client.run(
      "INSERT INTO webhook_secrets (account_id, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (account_id) DO NOTHING",
      [accountId, secret, now],
    );
  }

  /** Replaces the secret; the old one keeps signing until previousExpiresAt. */
  rotateSecret(accountId: string, secret: string, now: number, previousExpiresAt: number): void {
    this.db.$client.run(
      `INSERT INTO webhook_secrets (account_id, secret, created_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (account_id) DO UPDATE SET previous_secret = secret, previous_expires_at = ?4, secret = ?2, created_at = ?3`,
      [accountId, secret, now, previousExpiresAt],
    );
  }

  /** Records the webhook a report was submitted with (call inside the report's insert transaction). */
  attach(reportId: string, url: string, linkOrigin: string): void {
    this.attachStmt.run(reportId, url, linkOrigin);
  }

  webhookUrl(reportId: string): string | undefined {
    return this.webhookOfStmt.get(reportId)?.url;
  }

  /** Pending deliveries whose next attempt is due, oldest first. */
  due(now: number, limit: number): DueDelivery[] {
    return this.dueStmt.all(now, limit);
  }

  /** When the earliest pending delivery is due, or null when none is pending. */
  nextDueAt(): number | null {
    return this.nextDueStmt.get()?.at ?? null;
  }

  deliveries(reportId: string): { deliveries: DeliveryRow[]; attempts: AttemptRow[] } {
    return { deliveries: this.deliveriesStmt.all(reportId), attempts: this.attemptsStmt.all(reportId) };
  }

  /** Logs an attempt and moves its delivery on, in one transaction. */
  recordAttempt(a: AttemptRow, outcome: AttemptOutcome): void {
    this.db.$client.transaction(() => {
      this.insertAttemptStmt.run(a.deliveryId, a.startedAt, a.durationMs, a.responseStatus, a.error);
      const finishedAt = outcome.status === "pending" ? null : a.startedAt + a.durationMs;
      this.updateDeliveryStmt.run(
        a.deliveryId,
        outcome.status,
        outcome.status === "pending" ? outcome.nextAttemptAt : null,
        finishedAt,
        a.error ?? (a.responseStatus && (a.responseStatus < 200 || a.responseStatus > 299) ? `answered ${a.responseStatus}` : null),
      );
    })();
  }
}
