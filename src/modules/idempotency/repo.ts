// SQL for Idempotency-Key records. The unique (account_id, key_hash) index is what makes a key run once,
// across instances too: see insert().
import type { Sql } from "../../db/sql";

export interface IdempotencyRow {
  fingerprint: string;
  response: string;
  createdAt: number;
}

export class IdempotencyRepo {
  constructor(private readonly sql: Sql) {}

  /** The live record of a key (created after `since`), if any. */
  find(accountId: string, keyHash: string, since: number): Promise<IdempotencyRow | undefined> {
    return this.sql.get<IdempotencyRow>(
      `SELECT fingerprint, response, created_at AS "createdAt" FROM idempotency_keys WHERE account_id = $1 AND key_hash = $2 AND created_at > $3`,
      [accountId, keyHash, since],
    );
  }

  /**
   * Stores a key's response; false when a live record of the key exists (another request with the same
   * key committed first): the caller's transaction must then roll back. A record past its lifetime
   * (created at or before `expiredBefore`, not yet purged) is replaced.
   */
  async insert(
    accountId: string,
    keyHash: string,
    fingerprint: string,
    response: string,
    now: number,
    expiredBefore: number,
  ): Promise<boolean> {
    // A request answered 503 must not be replayed as a success (db/undo.ts): this record goes too.
    this.sql.ifCommitUnknown(() =>
      this.sql.run("DELETE FROM idempotency_keys WHERE account_id = $1 AND key_hash = $2 AND created_at = $3 AND fingerprint = $4", [
        accountId,
        keyHash,
        now,
        fingerprint,
      ]),
    );
    const n = await this.sql.run(
      `INSERT INTO idempotency_keys (account_id, key_hash, fingerprint, response, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (account_id, key_hash) DO UPDATE SET fingerprint = excluded.fingerprint, response = excluded.response, created_at = excluded.created_at
       WHERE idempotency_keys.created_at <= $6`,
      [accountId, keyHash, fingerprint, response, now, expiredBefore],
    );
    return n > 0;
  }

  /** Removes records created at or before `before`; returns how many. */
  purge(before: number): Promise<number> {
    return this.sql.run("DELETE FROM idempotency_keys WHERE created_at <= $1", [before]);
  }

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.sql.tx(fn);
  }
}
