// SQL for Idempotency-Key records.
import type { Db } from "../../db/client";

export interface IdempotencyRow {
  fingerprint: string;
  response: string;
  createdAt: number;
}

export class IdempotencyRepo {
  private readonly findStmt;
  private readonly insertStmt;
  private readonly purgeStmt;

  constructor(private readonly db: Db) {
    const c = db.$client;
    this.findStmt = c.prepare<IdempotencyRow, [string, string, number]>(
      "SELECT fingerprint, response, created_at AS createdAt FROM idempotency_keys WHERE account_id = ?1 AND key_hash = ?2 AND created_at > ?3",
    );
    // A record past its lifetime may still be there (the cleanup job removes them): it is replaced.
    this.insertStmt = c.prepare<unknown, [string, string, string, string, number]>(
      `INSERT INTO idempotency_keys (account_id, key_hash, fingerprint, response, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (account_id, key_hash) DO UPDATE SET fingerprint = ?3, response = ?4, created_at = ?5`,
    );
    this.purgeStmt = c.prepare<unknown, [number]>("DELETE FROM idempotency_keys WHERE created_at <= ?");
  }

  /** The live record of a key (created after `since`), if any. */
  find(accountId: string, keyHash: string, since: number): IdempotencyRow | undefined {
    return this.findStmt.get(accountId, keyHash, since) ?? undefined;
  }

  insert(accountId: string, keyHash: string, fingerprint: string, response: string, now: number): void {
    this.insertStmt.run(accountId, keyHash, fingerprint, response, now);
  }

  /** Removes records created at or before `before`; returns how many. */
  purge(before: number): number {
    return this.purgeStmt.run(before).changes;
  }

  transaction<T>(fn: () => T): T {
    return this.db.$client.transaction(fn)();
  }
}
