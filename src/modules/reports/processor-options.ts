// What the report processor is given, and its retry backoff.
import type { Logger } from "../../lib/logger";
import type { StorageMonitor } from "../../lib/storage";
import type { AssetInliner } from "../assets/resolver";
import type { ServiceMetrics } from "../health/metrics";
import type { PostDeps } from "./post-step";

/** Backoff before retry number n (1-based) of a report interrupted by an infrastructure fault. */
export function retryDelayMs(attempt: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, attempt - 1));
}

export interface ProcessorOptions {
  lanes: number;
  /** Largest page count and PDF size a report may have (--max-pages, --max-pdf-size). */
  maxPages: number;
  maxPdfSize: number;
  maxAttempts: number;
  /** Deadline of a whole chunked report (--report-timeout); each chunk also has the render deadline. */
  reportTimeoutMs: number;
  /** Chunks of one report printed at once (bounded by the pool's pages), and the most HTML they may hold together. */
  chunkParallel: number;
  chunkHtmlInFlight: number;
  chunkPartHtml: number;
  retentionMs: number;
  logger: Logger;
  /** Told of a disk fault (full, read-only): the lanes pause until the disk takes writes again. */
  storage: StorageMonitor;
  metrics: ServiceMetrics;
  /**
   * Runs post-processing and merges (the PDF pipeline, src/pdf/); opens sealed PDF passwords; holds what they write to the
   * largest PDF a report may produce (attachments and merges grow it).
   */
  post: PostDeps;
  /** Resolves the account's assets in the page, header and footer before printing. */
  assets: AssetInliner;
  /** Puts reports a crash left `processing` back in the queue; run before the first claim (retried on a storage fault). */
  resume?: () => Promise<void>;
  /** How long a claim is leased; a heartbeat renews the leases of reports in flight every leaseMs / 3. */
  leaseMs?: number;
  /**
   * The queue is looked at this often even without a wake-up (a missed NOTIFY), by one idle lane of
   * the instance at a time (lane-wakeups.ts).
   */
  pollMs?: number;
}
