// The retention job: expires finished reports past their retention and removes their PDFs, and
// removes PDFs no report owns any more. Idempotent: cron and `reportgen cleanup` both call it.
// On a full disk it still frees space: a storage fault ends the run early (logged, never thrown),
// and files past retention are removed even when their rows cannot be marked yet. An unreachable
// bucket ends the run the same way, before the rows are marked; the next run carries on.
import type { Logger } from "../lib/logger";
import { type StorageMonitor, storageFault } from "../lib/storage";
import { type PdfStore, StoreUnavailableError } from "../modules/files/pdf-store";
import type { ReportsRepo } from "../modules/reports/repo";

export interface CleanupResult {
  expired: number;
  orphansRemoved: number;
  /** Set when a storage fault (or "bucket": the file store unreachable) stopped the run; the next run carries on. */
  storageFault?: string;
}

const BATCH = 500;
/** Removals in flight at once: a bucket answers each in a round trip, a disk at once. */
const REMOVALS_AT_ONCE = 8;

async function removeAll(files: PdfStore, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += REMOVALS_AT_ONCE) {
    await Promise.all(ids.slice(i, i + REMOVALS_AT_ONCE).map((id) => files.remove(id)));
  }
}

export async function runCleanup(
  repo: ReportsRepo,
  files: PdfStore,
  logger: Logger,
  now = Date.now(),
  storage?: StorageMonitor,
): Promise<CleanupResult> {
  const result: CleanupResult = { expired: 0, orphansRemoved: 0 };
  try {
    for (;;) {
      const due = (await repo.dueForExpiry(now, BATCH)).map((r) => r.id);
      if (due.length === 0) break;
      // Files first, then rows: a removal that fails (an unreachable bucket) leaves the rows due, so
      // the next run tries again; marked first, their PDFs would be left behind for good. Meanwhile a
      // missing PDF already reads as expired (downloads check the file). On a full disk the files
      // still go (that frees space) when marking the rows fails: they are marked next run.
      await removeAll(files, due);
      await repo.markExpired(due);
      result.expired += due.length;
      if (due.length < BATCH) break;
    }
    for await (const stored of files.listIds()) {
      for (let i = 0; i < stored.length; i += BATCH) {
        const chunk = stored.slice(i, i + BATCH);
        const known = await repo.existing(chunk);
        const orphans = chunk.filter((id) => !known.has(id));
        await removeAll(files, orphans);
        result.orphansRemoved += orphans.length;
      }
    }
  } catch (e) {
    const fault = e instanceof StoreUnavailableError ? "bucket" : storageFault(e);
    if (!fault) throw e;
    if (fault !== "bucket") storage?.report(fault, e);
    result.storageFault = fault;
    logger.warn("cleanup stopped by a storage fault; the next run carries on", { fault, error: e, ...result });
    return result;
  }
  if (result.expired || result.orphansRemoved)
    logger.info("cleanup finished", { expired: result.expired, orphans_removed: result.orphansRemoved });
  return result;
}
