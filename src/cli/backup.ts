// `reportgen backup --to DIR`: a consistent copy of the data dir (database and PDFs) while the service runs.
import type { Config } from "../config/settings";
import { runBackup } from "../jobs/backup";
import { UsageError } from "./args";

// The one command that does not open the app: it copies a data dir file by file, and opening the app
// would create (and migrate) a database in a folder that is not one, which the copy must refuse.
export function backup(config: Config, to: string | undefined): void {
  if (!to) throw new UsageError("backup needs --to DIR (a new or empty folder)");
  if (config.databaseUrl) {
    throw new UsageError(
      "with --database-url the state lives in PostgreSQL (and the PDFs in the file store): back it up with pg_dump or your database's own backups, and the bucket with its versioning or replication; `backup` copies a single-machine data dir",
    );
  }
  const pdfsIn = config.storageUrl || undefined;
  const r = runBackup(config.dataDir, to, { pdfsIn });
  if (pdfsIn) {
    console.error(
      `backed up ${r.reports} report(s) to ${r.dir} in ${r.ms} ms; their PDFs stay in ${pdfsIn} (keep copies with the bucket's versioning or replication)`,
    );
    return;
  }
  console.error(
    `backed up ${r.reports} report(s) and ${r.pdfs} PDF(s) (${(r.bytes / 1024 / 1024).toFixed(1)} MB) to ${r.dir} in ${r.ms} ms` +
      (r.pdfsGone ? `; ${r.pdfsGone} PDF(s) were deleted while copying (their reports read as expired after a restore)` : "") +
      `\nrestore: stop the service, then copy ${r.dir} into place as its --data-dir (see the README, "Backups")`,
  );
}
