// The report processor: takes queued reports in order and renders them (EJS sandbox, then Chromium).
// It runs a few lanes at once so templating and file work overlap with printing, and it is woken the
// moment a report is queued rather than polling.
import { REPORT_FAILURES } from "../../lib/error-codes";
import { renameSync, rmSync } from "node:fs";
import { RenderError } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import type { RenderPool } from "../../render/pool";
import type { TemplatingPool } from "../../render/templating";
import type { FileStore } from "../files/store";
import type { ReportEvents } from "./events";
import type { ClaimedReport, ReportsRepo } from "./repo";
import { resolvePdfOptions } from "./service";

export interface ProcessorOptions {
  lanes: number;
  maxAttempts: number;
  retentionMs: number;
  logger: Logger;
}

export class ReportProcessor {
  private wake?: () => void;
  private running = false;
  private lanes: Promise<void>[] = [];
  private readonly inFlight = new Set<string>();

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
    for (const id of this.inFlight) this.repo.requeue(id, true);
  }

  private async lane(): Promise<void> {
    while (this.running) {
      const job = this.repo.claimNext(Date.now());
      if (!job) {
        await new Promise<void>((resolve) => {
          const prev = this.wake;
          this.wake = () => {
            prev?.();
            resolve();
          };
        });
        continue;
      }
      this.inFlight.add(job.id);
      try {
        await this.process(job);
      } catch (e) {
        this.opts.logger.error("report processing crashed", { report_id: job.id, error: e });
        this.repo.markFailed(job.id, "internal_error", REPORT_FAILURES.internal_error, Date.now());
      } finally {
        this.inFlight.delete(job.id);
      }
    }
  }

  private async process(job: ClaimedReport): Promise<void> {
    const started = performance.now();
    const tmp = this.files.tempPathFor(job.id);
    try {
      const html = job.engine === "ejs" ? await this.templating.render(job.template ?? "", job.data ?? "{}") : (job.template ?? "");
      if (!this.stillWanted(job.id)) return;
      const out = await this.pool.render({ html, options: resolvePdfOptions(job.options), outFile: tmp });
      // From here to the commit nothing awaits: a concurrent DELETE runs either wholly before
      // (the row is gone, the PDF is dropped) or wholly after (it removes the stored file).
      if (!this.stillWanted(job.id)) return;
      renameSync(tmp, this.files.pathOf(job.id));
      const now = Date.now();
      this.repo.markSucceeded(job.id, { sizeBytes: out.bytes, pageCount: out.pages, finishedAt: now, expiresAt: now + this.opts.retentionMs });
      this.events.finished(job.id);
      this.opts.logger.debug("report rendered", { report_id: job.id, ms: Math.round(performance.now() - started), pages: out.pages });
    } catch (e) {
      // An unexpected exception is a bug, not an interruption: logged with its cause, failed as internal_error, not retried.
      if (!(e instanceof RenderError)) this.opts.logger.error("report processing failed unexpectedly", { report_id: job.id, error: e });
      const err = e instanceof RenderError ? e : new RenderError("internal_error", REPORT_FAILURES.internal_error);
      if (!this.running && err.code === "shutting_down") return; // stop() re-queues it
      if (err.retryable && job.attempts < this.opts.maxAttempts) {
        this.opts.logger.warn("report render interrupted; will retry", { report_id: job.id, code: err.code, attempt: job.attempts });
        this.repo.requeue(job.id, false);
        this.notify();
      } else {
        this.repo.markFailed(job.id, err.code, err.message, Date.now());
        this.events.finished(job.id);
      }
    } finally {
      rmSync(tmp, { force: true });
    }
  }

  private stillWanted(id: string): boolean {
    return this.repo.status(id) === "processing";
  }
}
