// SQL of the asset library, the same text on SQLite and PostgreSQL. A row is a name's current bytes.
import { newestFirst } from "../../db/newest-first";
import type { Sql } from "../../db/sql";
import type { Cursor } from "../../lib/cursor";
import type { Asset } from "./model";

const cols = `id, account_id AS "accountId", name, type, size_bytes AS "sizeBytes", sha256, created_at AS "createdAt", updated_at AS "updatedAt"`;

export class AssetsRepo {
  constructor(private readonly sql: Sql) {}

  /** Runs fn in one transaction (joining the open one): a change and its audit event. */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.sql.tx(fn);
  }

  /**
   * Stores the name's bytes: inserts the row, or replaces the type, size and sha256 of the account's row
   * of that name (its id and created_at stay), in one statement, so two uploads of one name cannot both
   * insert. Returns the stored row: its id differs from `a.id` when it replaced one.
   */
  async upsert(a: Asset): Promise<Asset> {
    return (await this.sql.get<Asset>(
      `INSERT INTO assets (id, account_id, name, type, size_bytes, sha256, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (account_id, name) DO UPDATE SET type = excluded.type, size_bytes = excluded.size_bytes, sha256 = excluded.sha256,
         updated_at = excluded.updated_at
       RETURNING ${cols}`,
      [a.id, a.accountId, a.name, a.type, a.sizeBytes, a.sha256, a.createdAt, a.updatedAt],
    ))!;
  }

  get(id: string, accountId: string): Promise<Asset | undefined> {
    return this.sql.get<Asset>(`SELECT ${cols} FROM assets WHERE id = $1 AND account_id = $2`, [id, accountId]);
  }

  byName(accountId: string, name: string): Promise<Asset | undefined> {
    return this.sql.get<Asset>(`SELECT ${cols} FROM assets WHERE account_id = $1 AND name = $2`, [accountId, name]);
  }

  /** The account's assets of these names (those that exist). */
  async byNames(accountId: string, names: readonly string[]): Promise<Asset[]> {
    if (names.length === 0) return [];
    const marks = names.map((_, i) => `$${i + 2}`).join(", ");
    return this.sql.all<Asset>(`SELECT ${cols} FROM assets WHERE account_id = $1 AND name IN (${marks})`, [accountId, ...names]);
  }

  /** The account's assets, newest first, after the given position (the last item of the previous page). */
  list(q: { accountId: string; limit: number; after?: Cursor }): Promise<Asset[]> {
    return newestFirst<Asset>(this.sql, `SELECT ${cols} FROM assets`, q);
  }

  /** Bytes the account's assets hold, without the one named (which an upload is about to replace). */
  async totalBytes(accountId: string, exceptName?: string): Promise<number> {
    const r = await this.sql.get<{ n: number | string | null }>(
      "SELECT sum(size_bytes) AS n FROM assets WHERE account_id = $1 AND name <> $2",
      [accountId, exceptName ?? ""],
    );
    return Number(r?.n ?? 0);
  }

  /** Whether another row of the account still uses these bytes (then they stay in the store). */
  async shaInUse(accountId: string, sha256: string): Promise<boolean> {
    return (await this.sql.get("SELECT 1 AS used FROM assets WHERE account_id = $1 AND sha256 = $2", [accountId, sha256])) !== undefined;
  }

  /** Deletes the account's asset; returns the deleted row, or undefined when there was none. */
  async delete(id: string, accountId: string): Promise<Asset | undefined> {
    return this.sql.get<Asset>(`DELETE FROM assets WHERE id = $1 AND account_id = $2 RETURNING ${cols}`, [id, accountId]);
  }
}
