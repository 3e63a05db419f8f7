// The retention job: expires finished reports past their retention and removes their PDFs, and
// removes files no report owns any more. Idempotent: cron and `reportgen cleanup` both call it.
// On a full disk it still frees space: a storage fault ends the run early (logged, never thrown),
// and files past retention are removed even when their rows cannot be marked yet.
import type { Logger } from "../lib/logger";
import { type StorageMonitor, storageFault } from "../lib/storage";
import type { FileStore } from "../modules/files/store";
import type { ReportsRepo } from "../modules/reports/repo";

export interface CleanupResult {
  expired: number;
  orphansRemoved: number;
  /** Set when a storage fault stopped the run; the next run carries on. */
  storageFault?: string;
}

const BATCH = 500;

export function runCleanup(repo: ReportsRepo, files: FileStore, logger: Logger, now = Date.now(), storage?: StorageMonitor): CleanupResult {
  const result: CleanupResult = { expired: 0, orphansRemoved: 0 };
  try {
    for (;;) {
      const due = repo.dueForExpiry(now, BATCH).map((r) => r.id);
      if (due.length === 0) break;
      try {
        // Mark first: a link checked from now on is refused even before the file is gone.
        repo.markExpired(due);
      } catch (e) {
        if (!storageFault(e)) throw e;
        // The rows stay succeeded until the next run; a missing file already reads as expired.
        for (const id of due) files.removeSync(id);
        throw e;
      }
      for (const id of due) files.removeSync(id);
      result.expired += due.length;
      if (due.length < BATCH) break;
    }
    const onDisk = files.idsOnDisk();
    for (let i = 0; i < onDisk.length; i += BATCH) {
      const chunk = onDisk.slice(i, i + BATCH);
      const known = repo.existing(chunk);
      for (const id of chunk) {
        if (known.has(id)) continue;
        files.removeSync(id);
        result.orphansRemoved++;
      }
    }
  } catch (e) {
    const fault = storageFault(e);
    if (!fault) throw e;
    storage?.report(fault, e);
    result.storageFault = fault;
    logger.warn("cleanup stopped by a storage fault; the next run carries on", { fault, error: e, ...result });
    return result;
  }
  if (result.expired || result.orphansRemoved)
    logger.info("cleanup finished", { expired: result.expired, orphans_removed: result.orphansRemoved });
  return result;
}
