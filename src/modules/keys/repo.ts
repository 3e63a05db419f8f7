// SQL for access keys.

import type { AccessKey } from "../../db/schema";
import type { Sql } from "../../db/sql";

export type KeyRow = Omit<AccessKey, "secretHash" | "secretCheck"> & { accountName: string };
export type KeySecret = Pick<AccessKey, "id" | "accountId" | "secretHash" | "secretCheck">;

const listed = `k.id, k.account_id AS "accountId", a.name AS "accountName", k.name, k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt"`;

export class KeysRepo {
  constructor(private readonly sql: Sql) {}

  async insert(row: AccessKey): Promise<void> {
    await this.sql.run(
      "INSERT INTO access_keys (id, account_id, name, secret_hash, created_at, last_used_at, secret_check) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      [row.id, row.accountId, row.name, row.secretHash, row.createdAt, row.lastUsedAt, row.secretCheck],
    );
  }

  /** The stored hash, check value and owner of a key id, or undefined. Asked for every first-seen key value. */
  findSecret(id: string): Promise<KeySecret | undefined> {
    return this.sql.get<KeySecret>(
      `SELECT id, account_id AS "accountId", secret_hash AS "secretHash", secret_check AS "secretCheck" FROM access_keys WHERE id = $1`,
      [id],
    );
  }

  /** Stores the check value of a key created before check values existed (on its first successful use). */
  async setCheck(id: string, check: string): Promise<void> {
    await this.sql.run("UPDATE access_keys SET secret_check = $2 WHERE id = $1", [id, check]);
  }

  /** The owning account of a key that still exists; cheap enough to ask on every request. */
  async accountOf(id: string): Promise<string | undefined> {
    return (await this.sql.get<{ accountId: string }>(`SELECT account_id AS "accountId" FROM access_keys WHERE id = $1`, [id]))?.accountId;
  }

  list(accountId?: string): Promise<KeyRow[]> {
    return this.sql.all<KeyRow>(
      `SELECT ${listed} FROM access_keys k JOIN accounts a ON a.id = k.account_id
       WHERE CAST($1 AS TEXT) IS NULL OR k.account_id = $1 ORDER BY k.created_at DESC, k.id DESC`,
      [accountId ?? null],
    );
  }

  /** Deletes a key; with accountId, only if it belongs to that account. Returns whether a row went. */
  async delete(id: string, accountId?: string): Promise<boolean> {
    return (
      (await this.sql.run("DELETE FROM access_keys WHERE id = $1 AND (CAST($2 AS TEXT) IS NULL OR account_id = $2)", [
        id,
        accountId ?? null,
      ])) > 0
    );
  }

  async touch(id: string, at: number): Promise<void> {
    await this.sql.run("UPDATE access_keys SET last_used_at = $2 WHERE id = $1", [id, at]);
  }
}
