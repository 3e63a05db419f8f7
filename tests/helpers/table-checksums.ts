// Every table of a database summed up for comparison: its row count and, per column, a SHA-256 over
// that column's values in primary-key order (byte order on both engines). Two databases with equal
// summaries hold the same values in every row and column; a column that differs is named. The tables
// and columns are read from the SQLite install's own catalog, not from the declaration migrate-to
// copies by (db/copied-tables.ts), so a column the copy leaves out shows; so is the verification
// written independently of migrate-to's own (jobs/migrate-to.ts).
import { createHash } from "node:crypto";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { declaredTables, whyNotCopied } from "../../src/db/copied-tables";
import * as schema from "../../src/db/schema";
import type { Sql } from "../../src/db/sql";

export interface TableShape {
  name: string;
  key: string;
  /** An INTEGER key: ordered by value (text keys by their bytes). */
  numeric: boolean;
  columns: string[];
}

export interface TableSummary {
  rows: number;
  /** column name → SHA-256 of its values (JSON, one per row, in key order). */
  columns: Record<string, string>;
}

/** The tables and columns a SQLite install holds, but those the declaration leaves behind (notCopied). */
export async function sqliteShapes(sql: Sql): Promise<TableShape[]> {
  const left = new Set(
    declaredTables(schema)
      .filter((t) => whyNotCopied(t))
      .map((t) => getTableConfig(t).name),
  );
  const tables = await sql.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations' ORDER BY name",
  );
  const shapes: TableShape[] = [];
  for (const { name } of tables.filter((t) => !left.has(t.name))) {
    const cols = await sql.all<{ name: string; type: string; pk: number }>(`SELECT name, type, pk FROM pragma_table_info('${name}')`);
    const key = cols.find((c) => c.pk === 1)!;
    shapes.push({ name, key: key.name, numeric: key.type.toUpperCase() === "INTEGER", columns: cols.map((c) => c.name) });
  }
  return shapes;
}

export async function tableChecksums(sql: Sql, shapes: TableShape[]): Promise<Record<string, TableSummary>> {
  const out: Record<string, TableSummary> = {};
  for (const t of shapes) {
    const order = sql.dialect === "postgres" && !t.numeric ? `${t.key} COLLATE "C"` : t.key;
    const rows = await sql.all<Record<string, unknown>>(`SELECT ${t.columns.join(", ")} FROM ${t.name} ORDER BY ${order}`);
    const columns: Record<string, string> = {};
    for (const c of t.columns) {
      const h = createHash("sha256");
      for (const r of rows) h.update(`${JSON.stringify(r[c] ?? null)}\n`);
      columns[c] = h.digest("hex").slice(0, 16);
    }
    out[t.name] = { rows: rows.length, columns };
  }
  return out;
}
