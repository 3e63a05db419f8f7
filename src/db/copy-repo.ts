// SQL of `migrate-to`: reads a table a page at a time in primary-key order (the same text on SQLite, the
// source, and PostgreSQL, the target), and brings the target's rows up to date with the source's. Table
// and column names come only from COPIED_TABLES (the drizzle declaration), never from input.
//
// The ledger, migrate_to_copied, lives on the target only and is created by the first run: per copied
// row, the SHA-256 of the values migrate-to wrote. A rerun tells by it a row that changed on the target
// since (refused) from one that only changed in the source (updated).
import { type CopiedTable, copiedTablesOf, declaredTables } from "./copied-tables";
import * as schema from "./schema";
import { jsonList, type Sql } from "./sql";

export type { CopiedTable } from "./copied-tables";

/** Every declared table that holds state, in foreign-key order (db/copied-tables.ts). */
export const COPIED_TABLES: CopiedTable[] = copiedTablesOf(declaredTables(schema));

export type Row = Record<string, string | number | null>;
export type Key = string | number;

/** A serial id as ledger text: zero-padded, so that text order is number order. */
const ledgerKey = (t: CopiedTable, key: Key) => (t.serial ? String(key).padStart(20, "0") : String(key));

/** One change to the target: the row's new values (absent: delete it) and the ledger's entry. */
export interface Change {
  key: Key;
  /** The source's row to write (insert or update); undefined: the row is deleted. */
  row?: Row;
  /** Whether the row is on the target now (update rather than insert). */
  present?: boolean;
  /** The SHA-256 to record for the row; undefined: forget it. Ignored for derived tables (no ledger). */
  sha256?: string;
  /** Only the ledger changes (the row is already as the source has it, or gone on both sides). */
  ledgerOnly?: boolean;
}

export class CopyRepo {
  constructor(private readonly sql: Sql) {}

  /** Up to `limit` rows after `after` (exclusive) in key order; the first page with after = null. */
  page(t: CopiedTable, after: Key | null, limit: number): Promise<Row[]> {
    const cols = t.columns.join(", ");
    // Byte order on both engines (PostgreSQL would otherwise sort text by its locale), so that both
    // sides are read in the same order: matched row by row, and hashed alike by the verification.
    const key = this.sql.dialect === "postgres" && !t.serial ? `${t.key} COLLATE "C"` : t.key;
    return after === null
      ? this.sql.all<Row>(`SELECT ${cols} FROM ${t.name} ORDER BY ${key} LIMIT $1`, [limit])
      : this.sql.all<Row>(`SELECT ${cols} FROM ${t.name} WHERE ${key} > $1 ORDER BY ${key} LIMIT $2`, [after, limit]);
  }

  /** Target: creates the ledger unless there (and says whether it was); its keys sort in byte order like the tables' pages. */
  async ensureLedger(): Promise<{ existed: boolean }> {
    const found = await this.sql.get<{ t: string | null }>("SELECT to_regclass('migrate_to_copied')::text AS t");
    await this.sql.run(
      `CREATE TABLE IF NOT EXISTS migrate_to_copied (
         table_name TEXT NOT NULL, row_key TEXT COLLATE "C" NOT NULL, sha256 TEXT NOT NULL, PRIMARY KEY (table_name, row_key))`,
    );
    return { existed: !!found?.t };
  }

  /** Target: up to `limit` of `t`'s ledger entries after `after`, in the order page() reads its rows. */
  async ledgerPage(t: CopiedTable, after: Key | null, limit: number): Promise<{ key: Key; sha256: string }[]> {
    const rows = await this.sql.all<{ row_key: string; sha256: string }>(
      `SELECT row_key, sha256 FROM migrate_to_copied WHERE table_name = $1 AND row_key > $2 ORDER BY row_key LIMIT $3`,
      [t.name, after === null ? "" : ledgerKey(t, after), limit],
    );
    return rows.map((r) => ({ key: t.serial ? Number(r.row_key) : r.row_key, sha256: r.sha256 }));
  }

  /**
   * Target (PostgreSQL): applies `changes` (rows and their ledger entries) in one transaction, so an
   * interrupted run leaves each row and its entry both written or both not. A handful of statements per
   * batch, the rows as one JSON parameter that PostgreSQL turns into the table's row type: per-row
   * statements would make a large copy wait on a round trip per row.
   */
  async apply(t: CopiedTable, changes: Change[]): Promise<void> {
    const rows = (pick: (c: Change) => boolean) => JSON.stringify(changes.filter(pick).map((c) => c.row ?? { [t.key]: c.key }));
    const batch = `jsonb_populate_recordset(NULL::${t.name}, CAST($1 AS TEXT)::jsonb) j`;
    const cols = t.columns.join(", ");
    const set = t.columns
      .filter((c) => c !== t.key)
      .map((c) => `${c} = j.${c}`)
      .join(", ");
    const deleted = (c: Change) => !c.ledgerOnly && !c.row;
    const updated = (c: Change) => !c.ledgerOnly && !!c.row && !!c.present;
    const inserted = (c: Change) => !c.ledgerOnly && !!c.row && !c.present;
    const recorded = changes.filter((c) => c.sha256 !== undefined).map((c) => [ledgerKey(t, c.key), c.sha256]);
    const forgotten = changes.filter((c) => c.sha256 === undefined).map((c) => ledgerKey(t, c.key));
    await this.sql.tx(async () => {
      // Deletions first: a unique name (an asset's) they free may be taken by a row inserted next.
      if (changes.some(deleted))
        await this.sql.run(`DELETE FROM ${t.name} USING ${batch} WHERE ${t.name}.${t.key} = j.${t.key}`, [rows(deleted)]);
      if (changes.some(updated))
        await this.sql.run(`UPDATE ${t.name} SET ${set} FROM ${batch} WHERE ${t.name}.${t.key} = j.${t.key}`, [rows(updated)]);
      if (changes.some(inserted)) await this.sql.run(`INSERT INTO ${t.name} (${cols}) SELECT ${cols} FROM ${batch}`, [rows(inserted)]);
      if (t.derived) return;
      if (forgotten.length > 0) {
        await this.sql.run(`DELETE FROM migrate_to_copied WHERE table_name = $1 AND row_key IN ${jsonList(this.sql.dialect, "$2")}`, [
          t.name,
          JSON.stringify(forgotten),
        ]);
      }
      if (recorded.length > 0) {
        await this.sql.run(
          `INSERT INTO migrate_to_copied (table_name, row_key, sha256)
           SELECT $1, e->>0, e->>1 FROM jsonb_array_elements(CAST($2 AS TEXT)::jsonb) e
           ON CONFLICT (table_name, row_key) DO UPDATE SET sha256 = excluded.sha256`,
          [t.name, JSON.stringify(recorded)],
        );
      }
    });
  }

  async count(t: CopiedTable): Promise<number> {
    return (await this.sql.get<{ n: number }>(`SELECT count(*) AS n FROM ${t.name}`))!.n;
  }

  /** PostgreSQL: moves a serial column's sequence past the largest copied id. */
  async bumpSequence(t: CopiedTable): Promise<void> {
    if (this.sql.dialect !== "postgres" || !t.serial) return;
    await this.sql.get(
      `SELECT setval(pg_get_serial_sequence('${t.name}', '${t.key}'), GREATEST((SELECT max(${t.key}) FROM ${t.name}), 1))`,
    );
  }
}
