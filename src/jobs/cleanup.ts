// The retention job: expires finished reports past their retention and removes their PDFs, and
// removes files no report owns any more. Idempotent: cron and `reportgen cleanup` both call it.
import type { Logger } from "../lib/logger";
import type { FileStore } from "../modules/files/store";
import type { ReportsRepo } from "../modules/reports/repo";

export interface CleanupResult {
  expired: number;
  orphansRemoved: number;
}

const BATCH = 500;

export function runCleanup(repo: ReportsRepo, files: FileStore, logger: Logger, now = Date.now()): CleanupResult {
  let expired = 0;
  for (;;) {
    const due = repo.dueForExpiry(now, BATCH).map((r) => r.id);
    if (due.length === 0) break;
    // Mark first: a link checked from now on is refused even before the file is gone.
    repo.markExpired(due);
    for (const id of due) files.remove(id);
    expired += due.length;
    if (due.length < BATCH) break;
  }
  let orphansRemoved = 0;
  const onDisk = files.listIds();
  for (let i = 0; i < onDisk.length; i += BATCH) {
    const chunk = onDisk.slice(i, i + BATCH);
    const known = repo.existing(chunk);
    for (const id of chunk) {
      if (known.has(id)) continue;
      files.remove(id);
      orphansRemoved++;
    }
  }
  if (expired || orphansRemoved) logger.info("cleanup finished", { expired, orphans_removed: orphansRemoved });
  return { expired, orphansRemoved };
}
