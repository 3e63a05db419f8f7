// The retention job as cron and `reportgen cleanup` run it: expired idempotency keys, audit events past
// --audit-retention and old quota counters, then expired
// reports and orphaned PDFs (jobs/cleanup.ts). With PostgreSQL it runs in one instance at a time (every
// instance's cron fires): the others find the job's lease taken and skip that round. With SQLite there
// is one process, and the job must run even on a read-only or full disk (it is what gives space back):
// no lease.
import type { Backend } from "../db/open";
import type { Logger } from "../lib/logger";
import { type StorageMonitor, storageFault } from "../lib/storage";
import type { AuditService } from "../modules/audit/service";
import type { PdfStore } from "../modules/files/pdf-store";
import type { IdempotencyService } from "../modules/idempotency/service";
import { utcDay } from "../modules/keys/options";
import type { ReportsRepo } from "../modules/reports/repo";
import { type CleanupResult, runCleanup } from "./cleanup";
import type { JobLeasesRepo } from "./leases-repo";

/** Longer than any cleanup run: a holder that died mid-run blocks the job this long at most. */
const LEASE_MS = 10 * 60_000;

export type RetentionResult = CleanupResult & { skipped?: boolean };

/** What the job needs of the App's services (app/services.ts). */
export interface RetentionDeps {
  backend: Pick<Backend, "kind" | "owner">;
  repos: { jobs: JobLeasesRepo; reports: ReportsRepo };
  idempotency: Pick<IdempotencyService, "purgeExpired">;
  audit: Pick<AuditService, "purge">;
  files: PdfStore;
  storage: StorageMonitor;
}

export async function runRetention(s: RetentionDeps, logger: Logger, auditRetentionMs: number): Promise<RetentionResult> {
  const jobs = s.backend.kind === "postgres" ? s.repos.jobs : undefined;
  const owner = s.backend.owner;
  if (jobs && !(await jobs.acquire("cleanup", owner, Date.now(), LEASE_MS))) return { expired: 0, orphansRemoved: 0, skipped: true };
  try {
    try {
      const purged = await s.idempotency.purgeExpired();
      if (purged) logger.debug("expired idempotency keys removed", { purged });
      const events = await s.audit.purge(auditRetentionMs);
      if (events) logger.debug("audit events past --audit-retention removed", { events });
      // Quota counters of days before yesterday can no longer matter (the quota is per UTC day).
      await s.repos.reports.deleteCountsBefore(utcDay(Date.now()) - 1);
    } catch (e) {
      // On a full disk the retention job below still runs: it is what gives space back.
      const fault = storageFault(e);
      if (!fault) throw e;
      s.storage.report(fault, e);
    }
    return await runCleanup(s.repos.reports, s.files, logger, Date.now(), s.storage);
  } finally {
    await jobs?.release("cleanup", owner).catch(() => {});
  }
}
