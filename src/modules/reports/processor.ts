// The report processor: takes queued reports in order and renders them (EJS sandbox, then Chromium).
// It runs a few lanes at once so templating and file work overlap with printing, and it is woken the
// moment a report is queued rather than polling.
// A storage fault (full or read-only disk) never escapes a lane: the report goes back to the queue
// (or, after its attempts, ends failed with storage_full / storage_error) and the lanes pause until
// the disk takes writes again. What cannot even be re-queued is kept here and re-queued then.
import { REPORT_FAILURES, type ReportFailureCode } from "../../lib/error-codes";
import { writeDurably } from "../../lib/durable-write";
import { RenderError } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import { asStorageRenderError, storageFailureCode, storageFault, type StorageFault, type StorageMonitor } from "../../lib/storage";
import type { ServiceMetrics } from "../health/metrics";
import type { RenderPool } from "../../render/pool";
import { countPdfPages } from "../../render/print-pipeline";
import type { TemplatingPool } from "../../render/templating";
import type { FileStore } from "../files/store";
import type { ReportEvents } from "./events";
import type { ClaimedReport, ReportsRepo } from "./repo";
import { resolvePdfOptions } from "./service";

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
  retentionMs: number;
  logger: Logger;
  storage?: StorageMonitor;
  metrics?: ServiceMetrics;
  /** Puts reports a crash left `processing` back in the queue; run before the first claim (retried on a storage fault). */
  resume?: () => void;
}

/** While the disk is unusable, how often an idle lane looks again. */
const STORAGE_PAUSE_MS = 250;
/** After an unexpected error in a lane itself, how long before it carries on. */
const LANE_BACKOFF_MS = 1_000;

const STORAGE_CODES = new Set(["storage_full", "storage_error"]);

/** What ties a log line to its report and to the request that submitted it. */
const logFields = (job: ClaimedReport) => ({ report_id: job.id, ...(job.requestId ? { request_id: job.requestId } : {}) });

export class ReportProcessor {
  private wake?: () => void;
  private running = false;
  private lanes: Promise<void>[] = [];
  private readonly inFlight = new Set<string>();
  /** Reports left `processing` because even re-queueing them failed (disk full): re-queued on recovery. */
  private readonly stranded = new Set<string>();

  constructor(
    private readonly repo: ReportsRepo,
    private readonly files: FileStore,
    private readonly templating: TemplatingPool,
    private readonly pool: RenderPool,
    private readonly events: ReportEvents,
    private readonly opts: ProcessorOptions,
  ) {}

  start(): void {
    this.running = true;
    for (let i = 0; i < this.opts.lanes; i++) this.lanes.push(this.lane());
  }

  /** A report was queued: wake the idle lanes. */
  notify = (): void => {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  };

  get busy(): number {
    return this.inFlight.size;
  }

  /**
   * Stops taking reports and waits for those in flight; what is still rendering at the deadline
   * goes back to the queue with its attempt refunded, for the next start.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.running = false;
    this.notify();
    await Promise.race([Promise.all(this.lanes), Bun.sleep(timeoutMs)]);
    // Best effort: what cannot be written now is `processing` and re-queued by the next start.
    for (const id of this.inFlight) this.safely(() => this.repo.requeue(id, true));
  }

  private async lane(): Promise<void> {
    while (this.running) {
      try {
        await this.step();
      } catch (e) {
        // Never let a lane die: a dead lane is a silently smaller renderer, a rejected one kills the process.
        const fault = storageFault(e);
        if (fault) this.opts.storage?.report(fault, e);
        else this.opts.logger.error("report processor lane failed; continuing", { error: e });
        await Bun.sleep(fault ? STORAGE_PAUSE_MS : LANE_BACKOFF_MS);
      }
    }
  }

  private async step(): Promise<void> {
    if (this.opts.storage && !this.opts.storage.writable) {
      await Bun.sleep(STORAGE_PAUSE_MS);
      return;
    }
    if (this.opts.resume) {
      this.opts.resume();
      this.opts.resume = undefined;
    }
    for (const id of this.stranded) {
      this.repo.requeue(id, false);
      this.stranded.delete(id);
    }
    // While no Chromium or sandbox is usable, reports stay queued rather than waiting inside the pools.
    if (!this.pool.usable || !this.templating.usable) {
      await Promise.race([Promise.all([this.pool.whenUsable(), this.templating.whenUsable()]), this.idle()]);
      return;
    }
    const now = Date.now();
    const job = this.repo.claimNext(now);
    if (!job) {
      // Sleep until woken, or until a report held back by a retry backoff is due.
      const due = this.repo.nextDueAt(now);
      await this.idle(due === undefined ? undefined : due - now);
      return;
    }
    this.inFlight.add(job.id);
    const log = this.opts.logger.child(logFields(job));
    try {
      await this.process(job, log);
    } catch (e) {
      log.error("report processing crashed", { error: e });
      this.finish(job, log, "internal_error", REPORT_FAILURES.internal_error);
    } finally {
      this.inFlight.delete(job.id);
    }
  }

  /** Resolves on notify(), or after `ms` when given. */
  private idle(ms?: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(resolve, Math.max(0, ms));
      const prev = this.wake;
      this.wake = () => {
        prev?.();
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** The PDF against --max-pdf-size and --max-pages: a template fault (not retried) past either. */
  private checkLimits(pdf: Uint8Array): { pages: number; bytes: number } {
    const { maxPdfSize, maxPages } = this.opts;
    if (pdf.length > maxPdfSize) throw new RenderError("pdf_too_large", `the PDF is ${pdf.length} bytes; the limit is ${maxPdfSize}`);
    const pages = countPdfPages(pdf);
    if (pages > maxPages) throw new RenderError("too_many_pages", `the PDF has ${pages} pages; the limit is ${maxPages}`);
    return { pages, bytes: pdf.length };
  }

  /**
   * Writes the PDF into the report's file (created by reserve()) and flushes it (fsync) before the
   * success is recorded. Synchronous: ~0.2 ms for an invoice here, less than the three round trips to
   * libuv's pool that fs.promises makes (open, sync, close: ~2 ms of this thread).
   */
  private storePdf(id: string, pdf: Uint8Array): void {
    try {
      writeDurably(this.files.pathOf(id), pdf);
    } catch (e) {
      throw asStorageRenderError(e);
    }
  }

  private async process(job: ClaimedReport, log: Logger): Promise<void> {
    const started = performance.now();
    const fields = logFields(job);
    const m = this.opts.metrics;
    let succeeded = false;
    try {
      const t0 = performance.now();
      const ejs = job.engine === "ejs";
      const templated = ejs ? this.templating.render(job.template ?? "", job.data ?? "{}", fields) : Promise.resolve(job.template ?? "");
      templated.catch(() => {}); // awaited below, unless reserving the file fails first
      // Durable before it is recorded: the file's folder entry (fsync'ed while the report renders),
      // then the PDF's bytes (storePdf fsyncs them). The file is created while the sandbox renders,
      // not before: a creation took 0.4-0.6 ms of the main thread on this VM.
      const reserved = this.files.reserve(job.id);
      reserved.catch(() => {}); // awaited below, unless the report ends before
      const html = await templated;
      if (ejs) m?.templateSeconds.observe((performance.now() - t0) / 1000);
      if (!this.stillWanted(job.id)) return;
      const t1 = performance.now();
      const pdf = await this.pool.render({ html, options: resolvePdfOptions(job.options) }, fields);
      m?.renderSeconds.observe((performance.now() - t1) / 1000);
      const out = this.checkLimits(pdf);
      if (!this.stillWanted(job.id)) return;
      await reserved;
      this.storePdf(job.id, pdf);
      // Deleted (or re-queued) while it rendered: the finally below drops the file. Otherwise, from the
      // check to the commit only the folder's fsync is awaited: a DELETE meanwhile removes the row and
      // the file, and markSucceeded then finds no row.
      if (!this.stillWanted(job.id)) return;
      await reserved;
      const now = Date.now();
      if (
        !this.repo.markSucceeded(job.id, {
          sizeBytes: out.bytes,
          pageCount: out.pages,
          finishedAt: now,
          expiresAt: now + this.opts.retentionMs,
        })
      )
        return;
      succeeded = true;
      this.events.finished(job.id);
      m?.reportsSucceeded.inc();
      log.debug("report rendered", { ms: Math.round(performance.now() - started), pages: out.pages, bytes: out.bytes });
    } catch (e) {
      const fault =
        storageFault(e) ??
        (e instanceof RenderError && STORAGE_CODES.has(e.code) ? (e.code === "storage_full" ? "full" : "io") : undefined);
      if (fault) return this.storageFailed(job, log, fault, e);
      // An unexpected exception is a bug, not an interruption: logged with its cause, failed as internal_error, not retried.
      // The render worker reports its own unexpected exceptions as internal_error with their message:
      // that message is logged here, and the client gets only the generic one.
      const unexpected = !(e instanceof RenderError) || e.code === "internal_error";
      if (unexpected) log.error("report processing failed unexpectedly", { error: e });
      const err = unexpected ? new RenderError("internal_error", REPORT_FAILURES.internal_error) : e;
      if (!this.running && err.code === "shutting_down") return; // stop() re-queues it
      if (err.code === "renderer_unavailable") return this.requeue(job, log, { refund: true }); // it never reached a renderer
      if (err.retryable && job.attempts < this.opts.maxAttempts) {
        const delay = retryDelayMs(job.attempts);
        log.warn("report render interrupted; will retry", {
          code: err.code,
          attempt: job.attempts,
          error: err.message,
          retry_in_ms: delay,
        });
        m?.reportsRetried.inc({ cause: err.code });
        this.requeue(job, log, { notBefore: Date.now() + delay });
      } else {
        const message = err.retryable ? `${err.message} (gave up after ${job.attempts} attempts)` : err.message;
        log.info("report failed", { code: err.code, error: message, attempt: job.attempts });
        this.finish(job, log, err.code, message);
      }
    } finally {
      // No file without its success: whatever else happened, the reserved (maybe half-written) file goes.
      if (!succeeded) this.safely(() => this.files.remove(job.id));
    }
  }

  /**
   * The disk refused a write for this report. It goes back to the queue (the lanes pause until the
   * disk recovers, so waiting costs no attempts); a report that keeps failing once space is back
   * (its PDF alone does not fit) ends failed after its attempts.
   */
  private storageFailed(job: ClaimedReport, log: Logger, fault: StorageFault, cause: unknown): void {
    this.opts.storage?.report(fault, cause);
    if (job.attempts < this.opts.maxAttempts) {
      log.warn("report interrupted by a storage fault; re-queued until the disk takes writes again", {
        fault,
        attempt: job.attempts,
        error: cause,
      });
      this.opts.metrics?.reportsRetried.inc({ cause: storageFailureCode(fault) });
      return this.requeue(job, log);
    }
    const message =
      fault === "full"
        ? `the server's disk was full each of the ${job.attempts} times this report was rendered; submit it again once the operator has freed space`
        : `the server could not write to its disk (read-only or failing) each of the ${job.attempts} times this report was rendered; submit it again later`;
    this.finish(job, log, storageFailureCode(fault), message);
  }

  /** Back to the queue; `refund` gives the attempt back, `notBefore` holds it back for a retry's backoff. */
  private requeue(job: ClaimedReport, log: Logger, o: { refund?: boolean; notBefore?: number } = {}): void {
    try {
      this.repo.requeue(job.id, o.refund ?? false, o.notBefore ?? null);
      this.notify();
    } catch (e) {
      this.strand(job, log, e);
    }
  }

  private finish(job: ClaimedReport, log: Logger, code: ReportFailureCode, message: string): void {
    try {
      this.repo.markFailed(job.id, code, message, Date.now());
      this.opts.metrics?.reportsFailed.inc({ code });
      this.events.finished(job.id);
    } catch (e) {
      this.strand(job, log, e);
    }
  }

  /** Even the status update failed: the report stays `processing` and is re-queued once writes work. */
  private strand(job: ClaimedReport, log: Logger, e: unknown): void {
    const fault = storageFault(e);
    if (!fault) throw e;
    this.opts.storage?.report(fault, e);
    this.stranded.add(job.id);
    log.warn("could not record the report's state (storage fault); it is re-queued once the disk takes writes", { fault });
  }

  /** Runs a clean-up step whose failure must not hide the real outcome (e.g. rm on a read-only disk). */
  private safely(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      const fault = storageFault(e);
      if (fault) this.opts.storage?.report(fault, e);
      else this.opts.logger.warn("clean-up step failed", { error: e });
    }
  }

  private stillWanted(id: string): boolean {
    return this.repo.status(id) === "processing";
  }
}
