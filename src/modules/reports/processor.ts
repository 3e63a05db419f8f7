// The report processor: takes queued reports in order and renders them (EJS sandbox, then Chromium).
// It runs a few lanes at once so templating and file work overlap with printing, and it is woken the
// moment a report is queued rather than polling.
// A storage fault (full or read-only disk) never escapes a lane: the report goes back to the queue
// (or, after its attempts, ends failed with storage_full / storage_error) and the lanes pause until
// the disk takes writes again. What cannot even be re-queued is kept here and re-queued then.
// Each claim holds a lease (lease-keeper.ts); every outcome is fenced by the claim's attempt number
// (queue.ts), so a report another instance took over after our lease ran out is left to that instance.
import { isDatabaseUnreachable } from "../../db/errors";
import { REPORT_FAILURES, type ReportFailureCode } from "../../lib/error-codes";
import { RenderError } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import { asStorageRenderError, type StorageFault, storageFailureCode, storageFault } from "../../lib/storage";
import { checkPdfLimits } from "../../render/pdf-limits";
import type { RenderPool } from "../../render/pool";
import type { TemplatingPool } from "../../render/templating";
import { fenceOf, type PdfStore, StoreUnavailableError } from "../files/pdf-store";
import type { PdfSpool } from "../files/spool";
import type { ReportEvents } from "./events";
import { LaneWakeups } from "./lane-wakeups";
import { LeaseKeeper } from "./lease-keeper";
import { PostStep } from "./post-step";
import type { ProcessorOptions } from "./processor-options";
import { retryDelayMs } from "./processor-options";
import type { ClaimedReport, ReportQueue } from "./queue";
import { resolvePdfOptions } from "./service";

export { type ProcessorOptions, retryDelayMs } from "./processor-options";

/** While the disk is unusable, how often an idle lane looks again. */
const STORAGE_PAUSE_MS = 250;
/** After an unexpected error in a lane itself, how long before it carries on. */
const LANE_BACKOFF_MS = 1_000;

const STORAGE_CODES = new Set(["storage_full", "storage_error"]);

/** What ties a log line to its report and to the request that submitted it. */
const logFields = (job: ClaimedReport) => ({ report_id: job.id, ...(job.requestId ? { request_id: job.requestId } : {}) });

export class ReportProcessor {
  private readonly wakeups = new LaneWakeups();
  private running = false;
  private lanes: Promise<void>[] = [];
  /** Reports being rendered here, with the attempt (fence) of our claim. */
  private readonly inFlight = new Map<string, number>();
  /** Reports left `processing` because even re-queueing them failed (disk full): re-queued on recovery. */
  private readonly stranded = new Map<string, number>();
  /** Renews our claims' leases while they render; with PostgreSQL, reaps dead instances' claims. */
  private readonly leases: LeaseKeeper;
  /** Post-processing and merges (qpdf). */
  private readonly steps: PostStep;

  constructor(
    private readonly repo: ReportQueue,
    private readonly files: PdfStore,
    private readonly spool: PdfSpool,
    private readonly templating: TemplatingPool,
    private readonly pool: RenderPool,
    private readonly events: ReportEvents,
    private readonly opts: ProcessorOptions,
  ) {
    this.steps = new PostStep(opts.post, files, spool);
    this.leases = new LeaseKeeper(repo, opts, () => this.inFlight.size);
    events.onQueued(this.notify);
  }

  start(): void {
    this.running = true;
    for (let i = 0; i < this.opts.lanes; i++) this.lanes.push(this.lane());
    this.leases.start();
  }

  /** A report was queued: wake one idle lane (lane-wakeups.ts). */
  notify = (): void => this.wakeups.one();

  get busy(): number {
    return this.inFlight.size;
  }

  /**
   * Stops taking reports and waits for those in flight; what is still rendering at the deadline
   * goes back to the queue with its attempt refunded, for the next start.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.running = false;
    this.wakeups.all();
    await Promise.race([Promise.all(this.lanes), Bun.sleep(timeoutMs)]);
    this.leases.stop();
    // Best effort: what cannot be written now is `processing` and re-queued by the next start (or the reaper).
    for (const [id, attempt] of this.inFlight) await this.safely(() => this.repo.requeue(id, attempt, this.files.refundsInterrupted));
  }

  private async lane(): Promise<void> {
    while (this.running) {
      try {
        await this.step();
      } catch (e) {
        // Never let a lane die: a dead lane is a silently smaller renderer, a rejected one kills the process.
        const fault = storageFault(e);
        if (fault) this.opts.storage?.report(fault, e);
        else if (isDatabaseUnreachable(e)) this.opts.logger.warn("database unreachable; the processor retries in a moment", { error: e });
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
    if (!this.files.writable) {
      await this.wakeups.pause(this.files.recovered());
      return;
    }
    if (this.opts.resume) {
      const resume = this.opts.resume;
      this.opts.resume = undefined;
      try {
        await resume();
      } catch (e) {
        this.opts.resume = resume;
        throw e;
      }
    }
    for (const [id, attempt] of this.stranded) {
      await this.repo.requeue(id, attempt, false);
      this.stranded.delete(id);
    }
    // While no Chromium or sandbox is usable, reports stay queued rather than waiting inside the pools.
    if (!this.pool.usable || !this.templating.usable) {
      await this.wakeups.pause(Promise.all([this.pool.whenUsable(), this.templating.whenUsable()]));
      return;
    }
    const now = Date.now();
    const [job] = await this.repo.claim(now, this.leases.leaseMs, 1);
    if (!job) {
      // Sleep until woken, or until a report held back by a retry backoff is due (or the poll comes round).
      // With a poll (PostgreSQL), only the lane that will poll looks for a report held back by a retry's
      // backoff (one query less for every other lane going idle); the others wait for a wake-up.
      // Without one (SQLite), every idle lane keeps its own due time.
      const poll = this.opts.pollMs;
      if (poll !== undefined && this.wakeups.hasPoller) return void (await this.wakeups.wait(undefined, poll));
      const due = await this.repo.nextDueAt(now);
      await this.wakeups.wait(due === undefined ? undefined : due - now, poll);
      return;
    }
    // There may be more where this one came from: the next idle lane looks too.
    this.notify();
    this.inFlight.set(job.id, job.attempts);
    const log = this.opts.logger.child(logFields(job));
    try {
      await this.process(job, log);
    } catch (e) {
      if (isDatabaseUnreachable(e)) throw e; // the lane backs off; the lease brings the report back
      log.error("report processing crashed", { error: e });
      await this.finish(job, log, "internal_error", REPORT_FAILURES.internal_error);
    } finally {
      this.inFlight.delete(job.id);
    }
  }

  /** Writes the PDF where the store commits it from (the spool); a disk fault is the service's. */
  private storePdf(job: ClaimedReport, fence: string, pdf: Uint8Array): void {
    try {
      this.spool.writePrinted(job.id, fence, pdf);
    } catch (e) {
      throw asStorageRenderError(e);
    }
  }

  private async process(job: ClaimedReport, log: Logger): Promise<void> {
    const started = performance.now();
    const fields = logFields(job);
    // The claim's attempt: it fences the outcome in the database and names the attempt's PDF in the store.
    const fence = fenceOf(job);
    const m = this.opts.metrics;
    let succeeded = false;
    let reserved: Promise<void> = Promise.resolve();
    let out: { pages: number; bytes: number };
    let printedApart = false;
    try {
      const plan = this.steps.planOf(job);
      if (job.mergeParts && plan) {
        const merged = await this.steps.merge(job, plan, fence, () => this.stillWanted(job));
        if (!merged) return;
        out = merged;
      } else {
        const t0 = performance.now();
        const ejs = job.engine === "ejs";
        const templated = ejs ? this.templating.render(job.template ?? "", job.data ?? "{}", fields) : Promise.resolve(job.template ?? "");
        templated.catch(() => {}); // awaited below, unless reserving the file fails first
        // Durable before it is recorded: the file's folder entry (fsync'ed while the report renders),
        // then the PDF's bytes (storePdf fsyncs them). The file is created while the sandbox renders,
        // not before, so its synchronous creation is off the report's critical path.
        reserved = this.spool.reserve(job.id, fence);
        reserved.catch(() => {}); // awaited below, unless the report ends before
        const html = await templated;
        if (ejs) m?.templateSeconds.observe((performance.now() - t0) / 1000);
        if (!(await this.stillWanted(job))) return;
        const t1 = performance.now();
        const pdf = await this.pool.render({ html, options: resolvePdfOptions(job.options) }, fields);
        m?.renderSeconds.observe((performance.now() - t1) / 1000);
        out = checkPdfLimits(pdf, this.opts);
        // Before post-processing (qpdf: worth not starting for a deleted report); a plain PDF is only
        // written to its file, and the check before the commit below covers it (one query less per report).
        if (plan && !(await this.stillWanted(job))) return;
        await reserved;
        if (plan) {
          printedApart = true;
          out = { pages: out.pages, bytes: await this.steps.apply(job, plan, pdf, fence) };
        } else this.storePdf(job, fence, pdf);
      }
      if ((printedApart || job.mergeParts) && out.bytes > this.opts.maxPdfSize)
        throw new RenderError(
          "pdf_too_large",
          `the PDF is ${out.bytes} bytes with its post-processing; the limit is ${this.opts.maxPdfSize}`,
        );
      // Deleted (or re-queued) while it rendered: the finally below drops the file. Otherwise, from the
      // check to the commit only the folder's fsync (and, with a bucket, the upload) is awaited: a
      // DELETE meanwhile removes the row and the file, and the fenced success then finds no row.
      if (!(await this.stillWanted(job))) return;
      await reserved;
      // Stored where every instance reads it before the success is recorded.
      await this.files.commit(job.id, fence, this.spool.pathOf(job.id, fence));
      const now = Date.now();
      if (
        !(await this.repo.succeed({
          id: job.id,
          attempt: job.attempts,
          sizeBytes: out.bytes,
          pageCount: out.pages,
          finishedAt: now,
          expiresAt: now + this.opts.retentionMs,
        }))
      )
        return;
      succeeded = true;
      this.events.finished(job.id);
      m?.reportsSucceeded.inc();
      log.debug("report rendered", { ms: Math.round(performance.now() - started), pages: out.pages, bytes: out.bytes });
    } catch (e) {
      if (isDatabaseUnreachable(e)) {
        // Not the report's fault, and nothing can be recorded now: the claim's lease runs out and the
        // reaper (here or on another instance) puts it back in the queue once the database answers.
        log.warn("database unreachable while recording the report; it goes back to the queue when its lease runs out", { error: e });
        return;
      }
      if (e instanceof StoreUnavailableError) return await this.storeFailed(job, log, e);
      const fault =
        storageFault(e) ??
        (e instanceof RenderError && STORAGE_CODES.has(e.code) ? (e.code === "storage_full" ? "full" : "io") : undefined);
      if (fault) return await this.storageFailed(job, log, fault, e);
      // An unexpected exception is a bug, not an interruption: logged with its cause, failed as internal_error, not retried.
      // The render worker reports its own unexpected exceptions as internal_error with their message:
      // that message is logged here, and the client gets only the generic one.
      const unexpected = !(e instanceof RenderError) || e.code === "internal_error";
      if (unexpected) log.error("report processing failed unexpectedly", { error: e });
      const err = unexpected ? new RenderError("internal_error", REPORT_FAILURES.internal_error) : e;
      if (!this.running && err.code === "shutting_down") return; // stop() re-queues it
      if (err.code === "renderer_unavailable") return await this.requeue(job, log, { refund: true }); // it never reached a renderer
      if (err.retryable && job.attempts < this.opts.maxAttempts) {
        const delay = retryDelayMs(job.attempts);
        log.warn("report render interrupted; will retry", {
          code: err.code,
          attempt: job.attempts,
          error: err.message,
          retry_in_ms: delay,
        });
        m?.reportsRetried.inc({ cause: err.code });
        await this.requeue(job, log, { notBefore: Date.now() + delay });
      } else {
        const message = err.retryable ? `${err.message} (gave up after ${job.attempts} attempts)` : err.message;
        log.info("report failed", { code: err.code, error: message, attempt: job.attempts });
        await this.finish(job, log, err.code, message);
      }
    } finally {
      // No file without its success: whatever else happened, the reserved (maybe half-written) file goes,
      // and so does an upload whose success was not recorded (an attempt that lost its claim).
      if (!succeeded) await this.discard(job.id, fence);
      if (printedApart || job.mergeParts) this.safely(() => this.steps.cleanUp(job.id));
    }
  }

  /**
   * The disk refused a write for this report. It goes back to the queue (the lanes pause until the
   * disk recovers, so waiting costs no attempts); a report that keeps failing once space is back
   * (its PDF alone does not fit) ends failed after its attempts.
   */
  private async storageFailed(job: ClaimedReport, log: Logger, fault: StorageFault, cause: unknown): Promise<void> {
    this.opts.storage?.report(fault, cause);
    if (job.attempts < this.opts.maxAttempts) {
      log.warn("report interrupted by a storage fault; re-queued until the disk takes writes again", {
        fault,
        attempt: job.attempts,
        error: cause,
      });
      this.opts.metrics?.reportsRetried.inc({ cause: storageFailureCode(fault) });
      return await this.requeue(job, log);
    }
    const message =
      fault === "full"
        ? `the server's disk was full each of the ${job.attempts} times this report was rendered; submit it again once the operator has freed space`
        : `the server could not write to its disk (read-only or failing) each of the ${job.attempts} times this report was rendered; submit it again later`;
    await this.finish(job, log, storageFailureCode(fault), message);
  }

  /**
   * The file store refused the PDF: a service fault, never the template's. During an outage the report
   * goes back to the queue with its attempt refunded (the lanes wait for the store, so this costs no
   * attempts however long it lasts), unless its upload was abandoned unanswered; a store that works but
   * refused this PDF is retried with backoff like any interruption, and after the last attempt the
   * report ends storage_error.
   */
  private async storeFailed(job: ClaimedReport, log: Logger, e: StoreUnavailableError): Promise<void> {
    this.opts.metrics?.reportsRetried.inc({ cause: "storage_error" });
    if (e.outage && (e.settled || job.attempts < this.opts.maxAttempts)) {
      log.warn("report waits in the queue: the file store is unavailable", { attempt: job.attempts, error: e.message });
      // An upload abandoned at its deadline may still land under this attempt's key: that attempt is
      // spent, so that no later attempt writes the same key.
      await this.requeue(job, log, { refund: e.settled });
    } else if (job.attempts < this.opts.maxAttempts) {
      const delay = retryDelayMs(job.attempts);
      log.warn("the file store refused the report's PDF; will retry", { attempt: job.attempts, error: e.message, retry_in_ms: delay });
      await this.requeue(job, log, { notBefore: Date.now() + delay });
    } else
      await this.finish(
        job,
        log,
        "storage_error",
        `the file store refused this report's PDF each of the ${job.attempts} times it was rendered (${e.message}); submit it again later`,
      );
  }

  /** Back to the queue; `refund` gives the attempt back, `notBefore` holds it back for a retry's backoff. */
  private async requeue(job: ClaimedReport, log: Logger, o: { refund?: boolean; notBefore?: number } = {}): Promise<void> {
    try {
      await this.repo.requeue(job.id, job.attempts, o.refund ?? false, o.notBefore ?? null);
      // Held back by a retry's backoff: every lane looks again, so that the one that polls (or, without a
      // poll, each) counts its due time. Rare, and how every wake-up worked before lane-wakeups.ts.
      if (o.notBefore) this.wakeups.all();
      else this.notify();
    } catch (e) {
      this.strand(job, log, e);
    }
  }

  private async finish(job: ClaimedReport, log: Logger, code: ReportFailureCode, message: string): Promise<void> {
    try {
      // Fenced: nothing is recorded (nor counted) when another instance has taken the report over.
      if (!(await this.repo.fail(job.id, job.attempts, code, message, Date.now()))) return;
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
    this.stranded.set(job.id, job.attempts);
    log.warn("could not record the report's state (storage fault); it is re-queued once the disk takes writes", { fault });
  }

  /** Drops an attempt that did not succeed: its spool file and whatever of it reached the store. */
  private async discard(reportId: string, fence: string): Promise<void> {
    await this.safely(() => this.spool.drop(reportId, fence));
    await this.files.discard(reportId, fence).catch((e) => this.cleanupFailed(e));
  }

  /** Runs a clean-up step whose failure must not hide the real outcome (e.g. rm on a read-only disk). */
  private async safely(fn: () => unknown): Promise<void> {
    try {
      await fn();
    } catch (e) {
      this.cleanupFailed(e);
    }
  }

  private cleanupFailed(e: unknown): void {
    const fault = storageFault(e);
    if (fault) this.opts.storage?.report(fault, e);
    else this.opts.logger.warn("clean-up step failed", { error: e });
  }

  /** Our claim still holds the report: not deleted, not re-queued, not taken over after our lease ran out. */
  private stillWanted(job: ClaimedReport): Promise<boolean> {
    return this.repo.holds(job.id, job.attempts);
  }
}
