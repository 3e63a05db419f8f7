// SQL for access keys.
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type AccessKey, accessKeys, accounts } from "../../db/schema";

export type KeyRow = Omit<AccessKey, "secretHash" | "secretCheck"> & { accountName: string };

const listed = {
  id: accessKeys.id,
  accountId: accessKeys.accountId,
  accountName: accounts.name,
  name: accessKeys.name,
  createdAt: accessKeys.createdAt,
  lastUsedAt: accessKeys.lastUsedAt,
};

export class KeysRepo {
  // The hot path of every request: one prepared statement, no ORM overhead.
  private readonly ownerOf;
  private readonly secretOf;

  constructor(private readonly db: Db) {
    this.ownerOf = db.$client.prepare<{ account_id: string }, [string]>("SELECT account_id FROM access_keys WHERE id = ?");
    this.secretOf = db.$client.prepare<Pick<AccessKey, "id" | "accountId" | "secretHash" | "secretCheck">, [string]>(
      "SELECT id, account_id AS accountId, secret_hash AS secretHash, secret_check AS secretCheck FROM access_keys WHERE id = ?",
    );
  }

  insert(row: AccessKey): void {
    this.db.insert(accessKeys).values(row).run();
  }

  /** The stored hash, check value and owner of a key id, or undefined. Asked for every first-seen key value: prepared. */
  findSecret(id: string): Pick<AccessKey, "id" | "accountId" | "secretHash" | "secretCheck"> | undefined {
    return this.secretOf.get(id) ?? undefined;
  }

  /** Stores the check value of a key created before check values existed (on its first successful use). */
  setCheck(id: string, check: string): void {
    this.db.update(accessKeys).set({ secretCheck: check }).where(eq(accessKeys.id, id)).run();
  }

  /** The owning account of a key that still exists; cheap enough to ask on every request. */
  accountOf(id: string): string | undefined {
    return this.ownerOf.get(id)?.account_id;
  }

  list(accountId?: string): KeyRow[] {
    const q = this.db.select(listed).from(accessKeys).innerJoin(accounts, eq(accounts.id, accessKeys.accountId));
    return (accountId ? q.where(eq(accessKeys.accountId, accountId)) : q).orderBy(desc(accessKeys.createdAt), desc(accessKeys.id)).all();
  }

  /** Deletes a key; with accountId, only if it belongs to that account. Returns whether a row went. */
  delete(id: string, accountId?: string): boolean {
    const where = accountId ? and(eq(accessKeys.id, id), eq(accessKeys.accountId, accountId)) : eq(accessKeys.id, id);
    return this.db.delete(accessKeys).where(where).returning({ id: accessKeys.id }).all().length > 0;
  }

  touch(id: string, at: number): void {
    this.db.update(accessKeys).set({ lastUsedAt: at }).where(eq(accessKeys.id, id)).run();
  }
}
