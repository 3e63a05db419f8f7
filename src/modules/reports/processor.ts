// The report processor: takes queued reports in order and renders them (EJS sandbox, then Chromium).
// It runs a few lanes at once so templating and file work overlap with printing, and it is woken the
// moment a report is queued rather than polling.
// A storage fault (full or read-only disk) never escapes a lane: the report goes back to the queue
// (or, after its attempts, ends failed with storage_full / storage_error) and the lanes pause until
// the disk takes writes again. What cannot even be re-queued is kept here and re-queued then.
// Each claim holds a lease that a heartbeat renews while the report renders; every outcome is
// fenced by the claim's attempt number (queue.ts), so a report another instance took over after our
// lease ran out is left to that instance.

import { join } from "node:path";
import { isDatabaseUnreachable } from "../../db/errors";
import { writeDurably } from "../../lib/durable-write";
import { REPORT_FAILURES, type ReportFailureCode } from "../../lib/error-codes";
import { RenderError } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import type { PasswordSeal } from "../../lib/seal";
import { asStorageRenderError, type StorageFault, type StorageMonitor, storageFailureCode, storageFault } from "../../lib/storage";
import { checkPdfLimits } from "../../render/pdf-limits";
import type { RenderPool } from "../../render/pool";
import { isEmptyPlan, type PostPlan } from "../../render/post-process";
import type { TemplatingPool } from "../../render/templating";
import { fenceOf, type PdfStore, StoreUnavailableError } from "../files/pdf-store";
import type { ServiceMetrics } from "../health/metrics";
import type { ReportEvents } from "./events";
import { hasPostOptions, type StoredPostOptions, storedPlan } from "./post-options";
import { isEncryptedPdf, type PostRunner } from "./post-runner";
import { type ClaimedReport, LEASE_MS, REAP_EVERY_MS, type ReportQueue } from "./queue";
import type { ReportsRepo } from "./repo";
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
  /**
   * Runs post-processing (qpdf) and merges; opens sealed PDF passwords; holds what they write to the
   * largest PDF a report may produce (attachments and merges grow it). The App always gives it.
   */
  post?: { runner: PostRunner; seal: PasswordSeal; reports: ReportsRepo };
  /** Puts reports a crash left `processing` back in the queue; run before the first claim (retried on a storage fault). */
  resume?: () => Promise<void>;
  /** How long a claim is leased; a heartbeat renews the leases of reports in flight every leaseMs / 3. */
  leaseMs?: number;
  /** With PostgreSQL: the reaper that re-queues dead instances' reports, run every `reapEveryMs`. */
  reap?: () => Promise<void>;
  reapEveryMs?: number;
  /** An idle lane looks at the queue at least this often even without a wake-up (a missed NOTIFY). */
  pollMs?: number;
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
  /** Reports being rendered here, with the attempt (fence) of our claim. */
  private readonly inFlight = new Map<string, number>();
  /** Reports left `processing` because even re-queueing them failed (disk full): re-queued on recovery. */
  private readonly stranded = new Map<string, number>();
  private timers: ReturnType<typeof setInterval>[] = [];

  constructor(
    private readonly repo: ReportQueue,
    private readonly files: PdfStore,
    private readonly templating: TemplatingPool,
    private readonly pool: RenderPool,
    private readonly events: ReportEvents,
    private readonly opts: ProcessorOptions,
  ) {
    events.onQueued(this.notify);
  }

  start(): void {
    this.running = true;
    for (let i = 0; i < this.opts.lanes; i++) this.lanes.push(this.lane());
    const lease = this.leaseMs;
    this.timers.push(setInterval(() => this.heartbeat(), lease / 3));
    const reap = this.opts.reap;
    if (reap)
      this.timers.push(
        setInterval(
          () => void reap().catch((e) => this.opts.logger.warn("queue reaper failed", { error: e })),
          this.opts.reapEveryMs ?? REAP_EVERY_MS,
        ),
      );
  }

  private get leaseMs(): number {
    return this.opts.leaseMs ?? LEASE_MS;
  }

  /** Renews the leases of the reports in flight (one statement for all of them). */
  private heartbeat(): void {
    if (this.inFlight.size === 0) return;
    this.repo.heartbeat(Date.now() + this.leaseMs).catch((e: unknown) => {
      // A missed beat is harmless until the lease runs out; then the fence stops us from recording.
      this.opts.logger.warn("lease heartbeat failed", { error: e });
    });
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
    for (const t of this.timers) clearInterval(t);
    // Best effort: what cannot be written now is `processing` and re-queued by the next start (or the reaper).
    for (const [id, attempt] of this.inFlight) await this.safely(() => this.repo.requeue(id, attempt, true));
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
      await Promise.race([this.files.recovered(), this.idle()]);
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
      await Promise.race([Promise.all([this.pool.whenUsable(), this.templating.whenUsable()]), this.idle()]);
      return;
    }
    const now = Date.now();
    const [job] = await this.repo.claim(now, this.leaseMs, 1);
    if (!job) {
      // Sleep until woken, or until a report held back by a retry backoff is due (or the poll comes round).
      const due = await this.repo.nextDueAt(now);
      const poll = this.opts.pollMs;
      const wait = due === undefined ? poll : Math.min(due - now, poll ?? Number.MAX_SAFE_INTEGER);
      await this.idle(wait);
      return;
    }
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

  /**
   * Writes the PDF into the report's file (created by reserve()) and flushes it (fsync) before the
   * success is recorded. Synchronous: ~0.2 ms for an invoice here, less than the three round trips to
   * libuv's pool that fs.promises makes (open, sync, close: ~2 ms of this thread).
   */
  private storePdf(path: string, pdf: Uint8Array): void {
    try {
      writeDurably(path, pdf);
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
      const plan = this.planOf(job);
      if (job.mergeParts && plan) {
        const merged = await this.merge(job, plan, fence);
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
        reserved = this.files.reserve(job.id, fence);
        reserved.catch(() => {}); // awaited below, unless the report ends before
        const html = await templated;
        if (ejs) m?.templateSeconds.observe((performance.now() - t0) / 1000);
        if (!(await this.stillWanted(job))) return;
        const t1 = performance.now();
        const pdf = await this.pool.render({ html, options: resolvePdfOptions(job.options) }, fields);
        m?.renderSeconds.observe((performance.now() - t1) / 1000);
        out = checkPdfLimits(pdf, this.opts);
        if (!(await this.stillWanted(job))) return;
        await reserved;
        if (plan) {
          // With post-processing, the print goes to the work folder and qpdf writes the report's file.
          printedApart = true;
          const printed = this.post().runner.printPath(job.id);
          await Bun.write(printed, pdf);
          const stamp = await this.stampPath(job, plan);
          out = { pages: out.pages, bytes: await this.post().runner.apply(job.id, plan, printed, this.files.pathOf(job.id, fence), stamp) };
        } else this.storePdf(this.files.pathOf(job.id, fence), pdf);
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
      await this.files.commit(job.id, fence);
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
      if (!succeeded) await this.files.discard(job.id, fence).catch((e) => this.cleanupFailed(e));
      if (printedApart || job.mergeParts) this.safely(() => this.post().runner.cleanUp(job.id));
    }
  }

  /** The report's post-processing plan, or undefined when it has none (printed straight into its file). */
  private planOf(job: ClaimedReport): PostPlan | undefined {
    const stored = job.options ? (JSON.parse(job.options) as StoredPostOptions) : undefined;
    if (!hasPostOptions(stored) && !job.mergeParts) return undefined;
    if (!this.opts.post) throw new Error("this processor was made without post-processing");
    const plan = storedPlan(job.id, stored, this.opts.post.seal);
    if (!plan) throw new RenderError("passwords_unavailable", REPORT_FAILURES.passwords_unavailable);
    return isEmptyPlan(plan) && !job.mergeParts ? undefined : plan;
  }

  /** The stored PDF of the plan's stamp report, as a local file; fails the report when that report is gone. */
  private async stampPath(job: ClaimedReport, plan: PostPlan): Promise<string | undefined> {
    if (plan.stamp?.kind !== "report") return undefined;
    return (await this.usable(job, plan.stamp.reportId)).path;
  }

  /**
   * A report this one uses (a merge part, a stamp) as a local file: the stored file itself on the data
   * dir, a copy in the work folder from a bucket. It must still be there and unprotected: it may have
   * been deleted or expired since the request (and with a bucket, its protection is only seen here).
   */
  private async usable(job: ClaimedReport, id: string): Promise<{ pageCount: number; path: string }> {
    const r = await this.post().reports.getForDownload(id);
    const gone = () =>
      new RenderError("part_unavailable", `report ${id} was deleted or expired before this report was processed; submit it again`);
    if (r?.status !== "succeeded") throw gone();
    const fence = fenceOf(r);
    let path = this.files.pathOf(id, fence);
    if (this.files.kind !== "local") {
      const stored = await this.files.open(id, fence);
      if (!stored) throw gone();
      path = join(this.post().runner.workPath(job.id), `${id}.pdf`);
      await Bun.write(path, new Response(stored.body));
    } else if (!(await this.files.exists(id, fence))) throw gone();
    if (isEncryptedPdf(path))
      throw new RenderError(
        "part_unavailable",
        `report ${id} is password-protected: use an unprotected report, and protect the result with options.encryption`,
      );
    return { pageCount: r.pageCount ?? 0, path };
  }

  private post(): NonNullable<ProcessorOptions["post"]> {
    if (!this.opts.post) throw new Error("this processor was made without post-processing");
    return this.opts.post;
  }

  /** Joins the parts' PDFs into the report's file with the plan applied; undefined when the report is no longer wanted. */
  private async merge(job: ClaimedReport, plan: PostPlan, fence: string): Promise<{ pages: number; bytes: number } | undefined> {
    const ids = JSON.parse(job.mergeParts ?? "[]") as string[];
    const parts: { id: string; path: string }[] = [];
    const counts: number[] = [];
    for (const id of ids) {
      const u = await this.usable(job, id);
      parts.push({ id, path: u.path });
      counts.push(u.pageCount);
    }
    await this.files.reserve(job.id, fence);
    if (!(await this.stillWanted(job))) return undefined;
    const bytes = await this.post().runner.merge(
      job.id,
      parts,
      counts,
      plan,
      this.files.pathOf(job.id, fence),
      await this.stampPath(job, plan),
    );
    return { pages: counts.reduce((a, b) => a + b, 0), bytes };
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
      this.notify();
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
