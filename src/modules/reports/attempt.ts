// One attempt at a report: the claim it runs under and its file in the spool. The one owner of the
// attempt's state: the processor (processor.ts) and the producers that make its PDF (producers.ts) read
// it and move it on only through these methods. Its spool file is reserved here and nowhere else, once
// per attempt, whoever asks first: reserving truncates the file on the data dir, so a second reservation
// would empty a PDF already written.
import type { Logger } from "../../lib/logger";
import { asStorageRenderError } from "../../lib/storage";
import { fenceOf } from "../files/pdf-store";
import type { PdfSpool } from "../files/spool";
import type { ClaimedReport, ReportQueue } from "./queue";

/** What ties a log line to its report and to the request that submitted it. */
export const logFields = (job: ClaimedReport) => ({ report_id: job.id, ...(job.requestId ? { request_id: job.requestId } : {}) });

/** A PDF's pages and bytes. */
export type PdfSize = { pages: number; bytes: number };

export class Attempt {
  /** The claim's attempt: it fences the outcome in the database and names the attempt's PDF in the store. */
  readonly fence: string;
  readonly started = performance.now();
  private reservation: Promise<void> | undefined;
  private postProcessing = false;
  private recorded = false;

  constructor(
    readonly job: ClaimedReport,
    readonly log: Logger,
    private readonly spool: PdfSpool,
    private readonly queue: Pick<ReportQueue, "holds">,
  ) {
    this.fence = fenceOf(job);
  }

  /** Our claim still holds the report: not deleted, not re-queued, not taken over after our lease ran out. */
  stillWanted(): Promise<boolean> {
    return this.queue.holds(this.job.id, this.job.attempts);
  }

  /**
   * Starts reserving the spool file (data dir: created, and its folder entry fsync'ed) unless that has
   * begun: a producer calls it when its first slow step is under way, so that the reservation runs
   * meanwhile. Writing the file (file(), writePrinted()) awaits it. A synchronous fault (the file cannot
   * be created) is thrown here.
   */
  reserve(): Promise<void> {
    if (!this.reservation) {
      this.reservation = this.spool.reserve(this.job.id, this.fence);
      this.reservation.catch(() => {}); // awaited where the file is written, unless the attempt ends before
    }
    return this.reservation;
  }

  /** The spool file, reserved: where the PDF pipeline writes the attempt's PDF, and the store commits it from. */
  async file(): Promise<string> {
    await this.reserve();
    return this.spool.pathOf(this.job.id, this.fence);
  }

  /** Writes Chromium's PDF into the reserved spool file as it is (no post-processing); a disk fault is the service's. */
  async writePrinted(pdf: Uint8Array): Promise<void> {
    await this.reserve();
    try {
      this.spool.writePrinted(this.job.id, this.fence, pdf);
    } catch (e) {
      throw asStorageRenderError(e);
    }
  }

  /** The PDF pipeline works for this attempt in its work folder, which is cleaned up after. */
  postProcess(): void {
    this.postProcessing = true;
  }

  get postProcessed(): boolean {
    return this.postProcessing;
  }

  /** Its fenced success is recorded: its file stays. */
  succeed(): void {
    this.recorded = true;
  }

  get succeeded(): boolean {
    return this.recorded;
  }

  /** Drops the spool file of an attempt that did not succeed (the store's discard() takes what reached it). */
  drop(): void {
    this.spool.drop(this.job.id, this.fence);
  }
}
