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
import type { Logger } from "../../lib/logger";
import { storageFault } from "../../lib/storage";
import type { PostPlan } from "../../pdf/plan";
import type { RenderPool } from "../../render/pool";
import type { TemplatingPool } from "../../render/templating";
import type { PdfStore } from "../files/pdf-store";
import type { PdfSpool } from "../files/spool";
import { Attempt, logFields, type PdfSize } from "./attempt";
import { ChunkedRenderer, chunkOf } from "./chunked";
import { storeEInvoiceXml } from "./e-invoice-xml";
import type { FinishedState, ReportEvents } from "./events";
import { type Handed, LaneWakeups } from "./lane-wakeups";
import { LeaseKeeper } from "./lease-keeper";
import { type Outcome, outcomeOf } from "./outcome";
import { PostStep } from "./post-step";
import type { ProcessorOptions } from "./processor-options";
import { ChunkedProducer, MergeProducer, type PdfProducer, PrintProducer } from "./producers";
import type { ClaimedReport, ReportQueue } from "./queue";
import type { HeldSlot } from "./slots";

export { type ProcessorOptions, retryDelayMs } from "./processor-options";

/** While the disk is unusable, how often an idle lane looks again. */
const STORAGE_PAUSE_MS = 250;
/** After an unexpected error in a lane itself, how long before it carries on. */
const LANE_BACKOFF_MS = 1_000;

export class ReportProcessor {
  private readonly wakeups = new LaneWakeups();
  /** When the next report held back by a retry's backoff is due, as last read (or set by our own requeue). */
  private dueAt: number | undefined;
  private running = false;
  private lanes: Promise<void>[] = [];
  /** Reports being rendered here, with the attempt (fence) of our claim. */
  private readonly inFlight = new Map<string, number>();
  /** Render slots held for submissions here whose inserts are claiming their reports (holdSlot()). */
  private held = 0;
  /** Reports left `processing` because even re-queueing them failed (disk full): re-queued on recovery. */
  private readonly stranded = new Map<string, number>();
  /** Renews our claims' leases while they render. */
  private readonly leases: LeaseKeeper;
  /** The post step: a report's plan, the reports it uses, the PDF pipeline (src/pdf/). */
  private readonly postStep: PostStep;
  /** What makes an attempt's PDF in its spool file (producers.ts): a print, a merge, or chunks (chunked.ts). */
  private readonly producers: { print: PdfProducer; merge: PdfProducer; chunked: PdfProducer };

  constructor(
    private readonly repo: ReportQueue,
    private readonly files: PdfStore,
    private readonly spool: PdfSpool,
    private readonly templating: TemplatingPool,
    private readonly pool: RenderPool,
    private readonly events: ReportEvents,
    private readonly opts: ProcessorOptions,
  ) {
    const post = new PostStep(opts.post, files);
    this.postStep = post;
    const chunks = new ChunkedRenderer(repo, templating, pool, opts.post.pipeline, {
      ...opts,
      parallel: Math.min(opts.chunkParallel, pool.capacity),
      htmlInFlight: opts.chunkHtmlInFlight,
      partHtml: opts.chunkPartHtml,
    });
    this.producers = {
      print: new PrintProducer(templating, pool, post, opts),
      merge: new MergeProducer(post, opts),
      chunked: new ChunkedProducer(chunks, post, opts),
    };
    this.leases = new LeaseKeeper(repo, opts, () => [...this.inFlight.keys()]);
    events.onQueued(this.notify);
  }

  start(): void {
    this.running = true;
    for (let i = 0; i < this.opts.lanes; i++) this.lanes.push(this.lane());
    this.leases.start();
  }

  /** A report was queued: wake one idle lane (lane-wakeups.ts). */
  notify = (): void => this.wakeups.one();

  /**
   * PostgreSQL: a render slot for a submission here, when a print slot of the pool and an idle lane are
   * free and nothing keeps the lanes from a report (see step()); its insert then claims the report, and
   * the held lane renders it: one statement less, and no NOTIFY sending every instance to claim it.
   */
  holdSlot(): HeldSlot | undefined {
    if (!this.running || this.opts.pollMs === undefined || this.inFlight.size + this.held >= this.pool.capacity) return undefined;
    if (this.opts.resume || this.stranded.size > 0 || !this.files.writable || !this.opts.storage.writable) return undefined;
    if (!this.pool.usable || !this.templating.usable) return undefined;
    const give = this.wakeups.hold();
    if (!give) return undefined;
    this.held++;
    let open = true;
    const end = (handed: ClaimedReport | "released") => {
      if (!open) return;
      open = false;
      this.held--;
      give(handed);
    };
    return { owner: this.repo.owner, leaseMs: this.leases.leaseMs, take: end, release: () => end("released") };
  }

  get busy(): number {
    return this.inFlight.size;
  }

  /**
   * Takes no more reports, and hands back at once those claimed here that no sandbox or Chromium has
   * started on (another instance takes them at once, not after their lease). What renders goes on.
   * Returns how many were handed back.
   */
  quiesce(): number {
    this.running = false;
    this.wakeups.all();
    return this.templating.handBackWaiting() + this.pool.handBackWaiting();
  }

  /**
   * Stops taking reports and waits for those in flight; what is still rendering at the deadline
   * goes back to the queue with its attempt refunded, for the next start.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.quiesce();
    await Promise.race([Promise.all(this.lanes), Bun.sleep(timeoutMs)]);
    this.leases.stop();
    // Best effort: what cannot be written now is `processing` and re-queued by the next start (or the reaper).
    for (const [id, attempt] of this.inFlight) await this.safely(() => this.repo.requeue(id, attempt, this.files.refundsInterrupted));
  }

  private async lane(): Promise<void> {
    let afterReport = false;
    while (this.running) {
      try {
        afterReport = (await this.step(afterReport)) === true;
      } catch (e) {
        afterReport = false;
        // Never let a lane die: a dead lane is a silently smaller renderer, a rejected one kills the process.
        const fault = storageFault(e);
        if (fault) this.opts.storage.report(fault, e);
        else if (isDatabaseUnreachable(e)) this.opts.logger.warn("database unreachable; the processor retries in a moment", { error: e });
        else this.opts.logger.error("report processor lane failed; continuing", { error: e });
        await Bun.sleep(fault ? STORAGE_PAUSE_MS : LANE_BACKOFF_MS);
      }
    }
  }

  /**
   * One turn of a lane. `afterReport`: the lane's last turn processed a report (on PostgreSQL it then
   * goes idle without a claim unless a wake-up was missed meanwhile).
   */
  private async step(afterReport: boolean): Promise<boolean | undefined> {
    if (!this.opts.storage.writable) {
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
    const poll = this.opts.pollMs;
    // With a poll (PostgreSQL), a lane that has just finished a report goes idle without another claim,
    // unless a wake-up found no idle lane meanwhile: every queued report wakes a lane by NOTIFY, and a
    // NOTIFY missed altogether is the poll's. That claim found nothing almost every time.
    if (afterReport && poll !== undefined && !this.wakeups.takeMissed()) {
      const due = this.dueAt !== undefined && this.dueAt > now ? this.dueAt - now : undefined;
      return this.handed(await this.wakeups.wait(this.wakeups.hasPoller ? undefined : due, poll));
    }
    // An empty claim also says when a report held back by a retry's backoff is due (PostgreSQL: in the
    // same statement).
    const { job, nextDueAt: due } = await this.repo.claimNext(now, this.leases.leaseMs);
    if (!job) {
      // Sleep until woken, or until a report held back by a retry backoff is due (or the poll comes round).
      // With a poll (PostgreSQL), only the lane that will poll waits for a report held back by a retry's
      // backoff; the others wait for a wake-up. Without one (SQLite), every idle lane keeps its own due time.
      if (poll !== undefined && this.wakeups.hasPoller) return this.handed(await this.wakeups.wait(undefined, poll));
      this.dueAt = due;
      return this.handed(await this.wakeups.wait(due === undefined ? undefined : due - now, poll));
    }
    return this.run(job);
  }

  /**
   * What ended an idle lane's wait: a wake-up (the next turn claims), a report a submission here claimed
   * for it (rendered now), or a hold that brought none (idle again without a claim, like after a report).
   */
  private async handed(h: Handed): Promise<boolean | undefined> {
    if (h === undefined) return undefined;
    if (h === "released") return true;
    return this.run(h);
  }

  /** Renders a report this instance claimed (by a claim, or by a submission's insert). */
  private async run(job: ClaimedReport): Promise<boolean> {
    // Claimed as the instance began to shut down: handed back at once, untouched.
    if (!this.running) {
      await this.repo.requeue(job.id, job.attempts, true);
      return false;
    }
    // There may be more where this one came from: the next idle lane looks too (on PostgreSQL, only
    // when the claim saw more due; a NOTIFY for each later one wakes a lane anyway).
    if (job.more !== false) this.notify();
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
    return true;
  }

  /**
   * One attempt at a report, as named steps: produce (a print, a merge or chunks: producers.ts) → store
   * → record. The attempt (attempt.ts) owns its state and its spool file. Each step returns undefined
   * when the report is no longer wanted (deleted, re-queued, taken over): the attempt then ends without
   * an outcome. A failure anywhere is classified once (outcome.ts) and applied.
   */
  private async process(job: ClaimedReport, log: Logger): Promise<void> {
    const a = new Attempt(job, log, this.spool, this.repo);
    const xml = storeEInvoiceXml(this.files, a);
    try {
      const plan = this.postStep.planOf(job);
      const out = await this.producerOf(job, plan).produce(a, plan);
      if (out && (await this.store(a, xml))) await this.record(a, out);
    } catch (e) {
      await this.settle(a, outcomeOf(e, { attempts: job.attempts, maxAttempts: this.opts.maxAttempts, running: this.running }));
    } finally {
      // No file without its success: whatever else happened, the reserved (maybe half-written) file goes,
      // and so does an upload whose success was not recorded (an attempt that lost its claim). The XML's
      // write is waited for first: one still under way would land after the discard.
      await xml?.catch(() => {});
      if (!a.succeeded) await this.discard(a);
      if (a.postProcessed) this.safely(() => this.postStep.cleanUp(job.id));
    }
  }

  /** A merge, a chunked report, or a printed one (the rest). */
  private producerOf(job: ClaimedReport, plan: PostPlan | undefined): PdfProducer {
    if (job.mergeParts && plan) return this.producers.merge;
    return chunkOf(job) ? this.producers.chunked : this.producers.print;
  }

  /** The spool file (and the XML) made durable where every instance reads it, unless the report is no longer wanted. */
  private async store(a: Attempt, xml: Promise<void> | undefined): Promise<boolean> {
    // Deleted (or re-queued) while it rendered: process() drops the file. Otherwise, from the check to
    // the commit only the folder's fsync (and, with a bucket, the upload) is awaited: a DELETE
    // meanwhile removes the row and the file, and the fenced success then finds no row.
    if (!(await a.stillWanted())) return false;
    await this.files.commit(a.job.id, a.fence, await a.file());
    await xml;
    return true;
  }

  /** The fenced success: nothing is recorded when another instance has taken the report over. */
  private async record(a: Attempt, size: PdfSize): Promise<void> {
    const now = Date.now();
    const { job } = a;
    const attempt = { id: job.id, attempt: job.attempts, sizeBytes: size.bytes, pageCount: size.pages, finishedAt: now };
    const expiresAt = now + this.opts.retentionMs;
    this.events.recordingHere(job.id);
    let held = false;
    try {
      held = await this.repo.succeed({ ...attempt, expiresAt });
    } finally {
      // The row as the fenced UPDATE left it, for long polls here. Not for a chunked report: its progress
      // columns moved while it rendered, and the poll reads them again.
      const state: FinishedState | undefined =
        job.startedAt === undefined || job.startedAt === null || chunkOf(job)
          ? undefined
          : {
              status: "succeeded",
              attempts: job.attempts,
              errorCode: null,
              errorMessage: null,
              sizeBytes: size.bytes,
              pageCount: size.pages,
              startedAt: job.startedAt,
              finishedAt: now,
              expiresAt,
            };
      this.events.recorded(job.id, held ? { hasWebhook: job.hasWebhook !== false && job.hasWebhook !== 0, state } : undefined);
    }
    if (!held) return;
    a.succeed();
    this.opts.metrics.reportsSucceeded.inc();
    a.log.debug("report rendered", { ms: Math.round(performance.now() - a.started), pages: size.pages, bytes: size.bytes });
  }

  /** Applies a failed attempt's outcome (outcome.ts): its log lines and counts, then the queue's write. */
  private async settle(a: Attempt, o: Outcome): Promise<void> {
    if (o.storage) this.opts.storage.report(o.storage.fault, o.storage.cause);
    if (o.retried) this.opts.metrics.reportsRetried.inc({ cause: o.retried });
    for (const n of o.notes) a.log[n.level](n.message, n.fields);
    if (o.kind === "requeue")
      await this.requeue(a.job, a.log, { refund: o.refund, ...(o.delayMs !== undefined && { notBefore: Date.now() + o.delayMs }) });
    else if (o.kind === "fail") await this.finish(a.job, a.log, o.code, o.message);
  }

  /** Back to the queue; `refund` gives the attempt back, `notBefore` holds it back for a retry's backoff. */
  private async requeue(job: ClaimedReport, log: Logger, o: { refund?: boolean; notBefore?: number } = {}): Promise<void> {
    try {
      await this.repo.requeue(job.id, job.attempts, o.refund ?? false, o.notBefore ?? null);
      // Held back by a retry's backoff: every lane looks again, so that the one that polls (or, without a
      // poll, each) counts its due time. Rare, and how every wake-up worked before lane-wakeups.ts.
      if (o.notBefore) {
        this.dueAt = Math.min(this.dueAt ?? o.notBefore, o.notBefore);
        this.wakeups.all();
      } else this.notify();
    } catch (e) {
      this.strand(job, log, e);
    }
  }

  private async finish(job: ClaimedReport, log: Logger, code: ReportFailureCode, message: string): Promise<void> {
    try {
      // Fenced: nothing is recorded (nor counted) when another instance has taken the report over.
      if (!(await this.repo.fail(job.id, job.attempts, code, message, Date.now()))) return;
      this.opts.metrics.reportsFailed.inc({ code });
      this.events.finished(job.id, false, job.hasWebhook !== false && job.hasWebhook !== 0);
    } catch (e) {
      this.strand(job, log, e);
    }
  }

  /** Even the status update failed: the report stays `processing` and is re-queued once writes work. */
  private strand(job: ClaimedReport, log: Logger, e: unknown): void {
    const fault = storageFault(e);
    if (!fault) throw e;
    this.opts.storage.report(fault, e);
    this.stranded.set(job.id, job.attempts);
    log.warn("could not record the report's state (storage fault); it is re-queued once the disk takes writes", { fault });
  }

  /** Drops an attempt that did not succeed: its spool file and whatever of it reached the store. */
  private async discard(a: Attempt): Promise<void> {
    await this.safely(() => a.drop());
    await this.files.discard(a.job.id, a.fence).catch((e) => this.cleanupFailed(e));
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
    if (fault) this.opts.storage.report(fault, e);
    else this.opts.logger.warn("clean-up step failed", { error: e });
  }
}
