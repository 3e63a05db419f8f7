// SQL for access keys.

import type { AccessKey } from "../../db/schema";
import type { Sql } from "../../db/sql";

export type KeyRow = Pick<
  AccessKey,
  "id" | "accountId" | "name" | "createdAt" | "lastUsedAt" | "expiresAt" | "maxReportsPerDay" | "rotatedAt"
> & {
  accountName: string;
  /** Space-separated (keys/scopes.ts parseScopes). */
  scopes: string;
};

/** What authenticating a value of a key needs: its hashes and check values (current and, during a rotation's grace, previous) and its limits. */
export type KeySecret = Pick<
  AccessKey,
  | "id"
  | "accountId"
  | "secretHash"
  | "secretCheck"
  | "previousSecretHash"
  | "previousSecretCheck"
  | "previousValidUntil"
  | "expiresAt"
  | "maxReportsPerDay"
> & { scopes: string };

export type NewKey = Pick<
  AccessKey,
  "id" | "accountId" | "name" | "secretHash" | "secretCheck" | "createdAt" | "expiresAt" | "maxReportsPerDay"
> & {
  scopes: string;
};

const listed = `k.id, k.account_id AS "accountId", a.name AS "accountName", k.name, k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt",
  k.scopes, k.expires_at AS "expiresAt", k.max_reports_per_day AS "maxReportsPerDay", k.rotated_at AS "rotatedAt"`;
const secret = `id, account_id AS "accountId", secret_hash AS "secretHash", secret_check AS "secretCheck",
  previous_secret_hash AS "previousSecretHash", previous_secret_check AS "previousSecretCheck", previous_valid_until AS "previousValidUntil",
  scopes, expires_at AS "expiresAt", max_reports_per_day AS "maxReportsPerDay"`;

export class KeysRepo {
  constructor(private readonly sql: Sql) {}

  /** Runs fn in one transaction (joining the open one, if any): a key change and its audit event. */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.sql.tx(fn);
  }

  async insert(row: NewKey): Promise<void> {
    await this.sql.run(
      `INSERT INTO access_keys (id, account_id, name, secret_hash, created_at, last_used_at, secret_check, scopes, expires_at, max_reports_per_day)
       VALUES ($1, $2, $3, $4, $5, NULL, $6, $7, $8, $9)`,
      [row.id, row.accountId, row.name, row.secretHash, row.createdAt, row.secretCheck, row.scopes, row.expiresAt, row.maxReportsPerDay],
    );
  }

  /** Everything authentication needs about a key id, or undefined. Asked on every request (one indexed lookup). */
  findSecret(id: string): Promise<KeySecret | undefined> {
    return this.sql.get<KeySecret>(`SELECT ${secret} FROM access_keys WHERE id = $1`, [id]);
  }

  /** Stores the check value of a key created before check values existed (on its first successful use). */
  async setCheck(id: string, check: string): Promise<void> {
    await this.sql.run("UPDATE access_keys SET secret_check = $2 WHERE id = $1", [id, check]);
  }

  /**
   * A new secret for a key of the account; the current one becomes the previous, accepted until
   * `previousValidUntil`. Returns whether the key was there.
   */
  async rotate(
    id: string,
    accountId: string,
    s: { secretHash: string; secretCheck: string; previousValidUntil: number; at: number },
  ): Promise<boolean> {
    return (
      (await this.sql.run(
        `UPDATE access_keys SET previous_secret_hash = secret_hash, previous_secret_check = secret_check, previous_valid_until = $3,
         secret_hash = $4, secret_check = $5, rotated_at = $6 WHERE id = $1 AND account_id = $2`,
        [id, accountId, s.previousValidUntil, s.secretHash, s.secretCheck, s.at],
      )) > 0
    );
  }

  /** Ends every dashboard session signed in with the key (a rotation: a leaked value's sessions go too). */
  endSessions(id: string): Promise<number> {
    return this.sql.run("DELETE FROM dashboard_sessions WHERE key_id = $1", [id]);
  }

  /** Sets a key's daily quota (null: none). Returns whether the key was there. */
  async setQuota(id: string, accountId: string, maxReportsPerDay: number | null): Promise<boolean> {
    return (
      (await this.sql.run("UPDATE access_keys SET max_reports_per_day = $3 WHERE id = $1 AND account_id = $2", [
        id,
        accountId,
        maxReportsPerDay,
      ])) > 0
    );
  }

  get(id: string, accountId: string): Promise<KeyRow | undefined> {
    return this.sql.get<KeyRow>(
      `SELECT ${listed} FROM access_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = $1 AND k.account_id = $2`,
      [id, accountId],
    );
  }

  list(accountId?: string): Promise<KeyRow[]> {
    return this.sql.all<KeyRow>(
      `SELECT ${listed} FROM access_keys k JOIN accounts a ON a.id = k.account_id
       WHERE CAST($1 AS TEXT) IS NULL OR k.account_id = $1 ORDER BY k.created_at DESC, k.id DESC`,
      [accountId ?? null],
    );
  }

  /** Deletes a key; with accountId, only if it belongs to that account. Returns the owner of the row that went. */
  async delete(id: string, accountId?: string): Promise<string | undefined> {
    const row = await this.sql.get<{ accountId: string }>(
      `DELETE FROM access_keys WHERE id = $1 AND (CAST($2 AS TEXT) IS NULL OR account_id = $2) RETURNING account_id AS "accountId"`,
      [id, accountId ?? null],
    );
    return row?.accountId;
  }

  async touch(id: string, at: number): Promise<void> {
    await this.sql.run("UPDATE access_keys SET last_used_at = $2 WHERE id = $1", [id, at]);
  }
}
