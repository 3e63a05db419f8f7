// SQL of backups: a consistent snapshot of the live database (VACUUM INTO reads one transaction's
// view while the service keeps writing), and which reports of that snapshot own a PDF.
import { Database } from "bun:sqlite";

/** Writes a compact, self-contained copy of `source` (WAL content included) to `dest`, which must not exist. */
export function snapshotDatabase(source: string, dest: string): void {
  const db = new Database(source, { readonly: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.query("VACUUM INTO ?").run(dest);
  } finally {
    db.close();
  }
}

export interface SnapshotSummary {
  schemaVersion: number;
  reports: number;
  /** Reports whose PDF belongs in the backup (succeeded in the snapshot). */
  withPdf: string[];
  /** The asset files the snapshot's rows name (<account>/<sha256> under the data dir's assets folder). */
  assetFiles: string[];
}

export function summarizeSnapshot(file: string): SnapshotSummary {
  const db = new Database(file, { readonly: true });
  try {
    return {
      schemaVersion: db.query<{ v: number }, []>("SELECT max(version) AS v FROM schema_migrations").get()?.v ?? 0,
      reports: db.query<{ n: number }, []>("SELECT count(*) AS n FROM reports").get()!.n,
      withPdf: db
        .query<{ id: string }, []>("SELECT id FROM reports WHERE status = 'succeeded'")
        .all()
        .map((r) => r.id),
      assetFiles: db
        .query<{ a: string; s: string }, []>("SELECT DISTINCT account_id AS a, sha256 AS s FROM assets")
        .all()
        .map((r) => `${r.a}/${r.s}`),
    };
  } finally {
    db.close();
  }
}
