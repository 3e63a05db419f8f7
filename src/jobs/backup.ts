// The backup job: a copy of a data dir that is itself a data dir, made while the service runs.
// The database is snapshotted first (VACUUM INTO: one consistent view), then the PDFs of the
// reports that snapshot calls succeeded are copied. A PDF is durable before its report is recorded
// succeeded, so every one of them exists, unless deleted (by a client or retention) since the
// snapshot: those are counted, and read as expired after a restore. The asset library's files that the
// snapshot's rows name are copied the same way. backup.json, written last,
// marks the backup complete. Restoring is copying the folder into place as the data dir.
import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { snapshotDatabase, summarizeSnapshot } from "../db/backup";
import { StartupError } from "../lib/errors";
import { VERSION } from "../version";

export interface BackupResult {
  dir: string;
  reports: number;
  pdfs: number;
  /** PDFs deleted between the snapshot and their copy. */
  pdfsGone: number;
  bytes: number;
  ms: number;
}

export const BACKUP_MANIFEST = "backup.json";
const DB_FILE = "reportgen.db";

function fsyncPath(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * `pdfsIn`: the s3:// storage URL when the PDFs live in a bucket. They are not copied then: the
 * snapshot still names them (by report id and attempt), they stay where they are, and the bucket's
 * own versioning or replication is what keeps copies of them (README, "Beyond one machine").
 */
export function runBackup(dataDir: string, to: string, opts: { pdfsIn?: string } = {}): BackupResult {
  const t0 = performance.now();
  const source = join(dataDir, DB_FILE);
  if (!existsSync(source)) throw new StartupError(`no database at ${source}: is --data-dir the service's data dir?`);
  if (existsSync(to) && readdirSync(to).length > 0) throw new StartupError(`${to} is not empty: back up into a new or empty folder`);
  mkdirSync(join(to, "reports"), { recursive: true, mode: 0o700 });

  const partial = join(to, `${DB_FILE}.partial`);
  snapshotDatabase(source, partial);
  fsyncPath(partial);
  const snap = summarizeSnapshot(partial);

  let pdfs = 0;
  let pdfsGone = 0;
  let bytes = 0;
  for (const id of opts.pdfsIn ? [] : snap.withPdf) {
    const from = join(dataDir, "reports", `${id}.pdf`);
    const dest = join(to, "reports", `${id}.pdf`);
    try {
      copyFileSync(from, dest);
    } catch (e) {
      if ((e as { code?: string }).code === "ENOENT") {
        pdfsGone++;
        continue;
      }
      throw e;
    }
    fsyncPath(dest);
    bytes += Bun.file(dest).size;
    pdfs++;
  }
  // The asset library's bytes (on one machine; with a bucket they stay there, like the PDFs).
  let assets = 0;
  for (const file of opts.pdfsIn ? [] : snap.assetFiles) {
    const dest = join(to, "assets", file);
    mkdirSync(dirname(dest), { recursive: true, mode: 0o700 });
    try {
      copyFileSync(join(dataDir, "assets", file), dest);
    } catch (e) {
      // Replaced or deleted since the snapshot: its row is gone from the live database too.
      if ((e as { code?: string }).code === "ENOENT") continue;
      throw e;
    }
    fsyncPath(dest);
    fsyncPath(dirname(dest));
    bytes += Bun.file(dest).size;
    assets++;
  }
  // Links signed before the backup keep working after a restore.
  const secret = join(dataDir, "link-secret");
  if (existsSync(secret)) {
    copyFileSync(secret, join(to, "link-secret"));
    fsyncPath(join(to, "link-secret"));
  }
  renameSync(partial, join(to, DB_FILE));
  const ms = Math.round(performance.now() - t0);
  const manifest = {
    reportgen: VERSION,
    created_at: new Date().toISOString(),
    schema_version: snap.schemaVersion,
    reports: snap.reports,
    pdfs,
    pdfs_gone: pdfsGone,
    ...(opts.pdfsIn ? { pdfs_in: opts.pdfsIn } : {}),
    assets,
    pdf_bytes: bytes,
  };
  writeFileSync(join(to, BACKUP_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  fsyncPath(join(to, BACKUP_MANIFEST));
  fsyncPath(join(to, "reports"));
  fsyncPath(to);
  return { dir: to, reports: snap.reports, pdfs, pdfsGone, bytes, ms };
}
