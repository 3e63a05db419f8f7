// SQL for dashboard sessions.

import type { DashboardSession } from "../db/schema";
import type { Sql } from "../db/sql";

export type SessionWithKey = DashboardSession & { keyScopes: string; keyMaxReportsPerDay: number | null; keyExpiresAt: number | null };

export class SessionsRepo {
  constructor(private readonly sql: Sql) {}

  /** Runs fn in one transaction (joining the open one, if any): a session and its sign-in event. */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.sql.tx(fn);
  }

  async insert(r: DashboardSession): Promise<void> {
    await this.sql.run(
      "INSERT INTO dashboard_sessions (id_hash, key_id, account_id, csrf_token, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      [r.idHash, r.keyId, r.accountId, r.csrfToken, r.createdAt, r.lastSeenAt, r.expiresAt],
    );
  }

  /** A session with what its key allows now (scopes, quota, expiry): read on every use, so key changes apply at once. */
  get(idHash: string): Promise<SessionWithKey | undefined> {
    return this.sql.get<SessionWithKey>(
      `SELECT s.id_hash AS "idHash", s.key_id AS "keyId", s.account_id AS "accountId", s.csrf_token AS "csrfToken",
       s.created_at AS "createdAt", s.last_seen_at AS "lastSeenAt", s.expires_at AS "expiresAt",
       k.scopes AS "keyScopes", k.max_reports_per_day AS "keyMaxReportsPerDay", k.expires_at AS "keyExpiresAt"
       FROM dashboard_sessions s JOIN access_keys k ON k.id = s.key_id WHERE s.id_hash = $1`,
      [idHash],
    );
  }

  async touch(idHash: string, at: number): Promise<void> {
    await this.sql.run("UPDATE dashboard_sessions SET last_seen_at = $2 WHERE id_hash = $1", [idHash, at]);
  }

  async delete(idHash: string): Promise<void> {
    await this.sql.run("DELETE FROM dashboard_sessions WHERE id_hash = $1", [idHash]);
  }

  /** Removes sessions past their absolute expiry or idle since before `idleBefore`. */
  deleteExpired(now: number, idleBefore: number): Promise<number> {
    return this.sql.run("DELETE FROM dashboard_sessions WHERE expires_at < $1 OR last_seen_at < $2", [now, idleBefore]);
  }
}
