// Every copied table of a database summed up for comparison: its row count and, per column, a SHA-256
// over that column's values in primary-key order (byte order on both engines). Two databases with
// equal summaries hold the same values in every row and column; a column that differs is named.
// Written independently of migrate-to's own verification (jobs/migrate-to.ts), which it checks.
import { createHash } from "node:crypto";
import { COPIED_TABLES } from "../../src/db/copy-repo";
import type { Sql } from "../../src/db/sql";

export interface TableSummary {
  rows: number;
  /** column name → SHA-256 of its values (JSON, one per row, in key order). */
  columns: Record<string, string>;
}

export async function tableChecksums(sql: Sql): Promise<Record<string, TableSummary>> {
  const out: Record<string, TableSummary> = {};
  for (const t of COPIED_TABLES) {
    const order = sql.dialect === "postgres" && !t.serial ? `${t.key} COLLATE "C"` : t.key;
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
