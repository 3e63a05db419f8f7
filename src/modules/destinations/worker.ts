// The delivery worker: sends each report's PDF to the destinations of its options.deliver, from the
// durable queue of report_deliveries (repo.ts). It runs beside the renderer, never in a render slot:
// an attempt reads the stored PDF back (the render is long over) and a slow destination holds only one
// of this worker's lanes. Every instance runs one; a claim leases a row to one of them.
//
// Guarantee: at-least-once, with the same object key (or file name) on every attempt, fixed when the
// report was accepted. An attempt is recorded only after it ends: if the process is killed mid-upload,
// the row is due again (at start-up on SQLite, when its lease ends on PostgreSQL) and the same object is
// written again. A refusal by the outbound policy is final; every other failure is retried with
// exponential backoff and jitter (the webhooks' retryDelay) until --delivery-retry-window is used up.
import { DueWorker, leasedQueue } from "../../jobs/due-worker";
import type { Logger } from "../../lib/logger";
import type { LinkSigner } from "../files/links";
import { fenceOf, type PdfStore, StoreUnavailableError } from "../files/pdf-store";
import { fileTypeOf } from "../reports/model";
import type { ReportsRepo } from "../reports/repo";
import { retryDelay } from "../webhooks/sender";
import type { DeliveryOutcome, DestinationsRepo, DueDelivery } from "./repo";
import type { DestinationsService } from "./service";
import { ship } from "./transports/ship";
import type { ShipResult } from "./transports/transport";

/** A claimed delivery is due again this long after its attempt's deadline, should its instance die mid-attempt. */
const CLAIM_MARGIN_MS = 30_000;

export interface DeliveryWorkerOptions {
  retryWindowMs: number;
  retryBaseMs: number;
  concurrency: number;
  logger: Logger;
  /** True when this process is the only worker (SQLite): claims left by a killed process are given back at start. */
  sole: boolean;
  /** Told, in the transaction that records it, when a delivery ends: the report.delivered and report.delivery_failed events. */
  onFinished?: (
    d: DueDelivery,
    end: { status: "delivered" | "failed"; attempts: number; error: string | null; at: number },
  ) => Promise<void>;
}

export class DeliveryWorker {
  private readonly loop: DueWorker<DueDelivery>;

  constructor(
    private readonly repo: DestinationsRepo,
    private readonly destinations: DestinationsService,
    private readonly reports: ReportsRepo,
    private readonly files: PdfStore,
    private readonly links: LinkSigner,
    private readonly opts: DeliveryWorkerOptions,
  ) {
    const leaseMs = destinations.shipping.timeoutMs + CLAIM_MARGIN_MS;
    this.loop = new DueWorker<DueDelivery>(
      leasedQueue(repo.leased, (now, limit) => repo.claimDue(now, limit, leaseMs), opts.sole),
      (d, signal) => this.attempt(d, signal),
      { name: "delivery", concurrency: opts.concurrency, logger: opts.logger },
    );
  }

  start(): void {
    this.loop.start();
  }

  /** A report finished: its deliveries may be due now. */
  notify = (): void => this.loop.notify();

  /** Deliveries being attempted on this instance now. */
  get busy(): number {
    return this.loop.busy;
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async attempt(d: DueDelivery, signal: AbortSignal): Promise<void> {
    const now = Date.now();
    const report = await this.reports.getForDownload(d.reportId);
    if (!report) return; // deleted meanwhile: its deliveries went with it
    const dest = await this.destinations.opened(d.destinationId, report.accountId);
    let result: ShipResult;
    if (!dest) result = { ok: false, error: "the destination was deleted", final: true };
    else {
      const bytes = await this.read(report);
      if (bytes instanceof Error) result = { ok: false, error: bytes.message, final: !(bytes instanceof StoreUnavailableError) };
      else
        result = await ship(
          dest,
          {
            target: d.target,
            bytes,
            contentType: fileTypeOf(report).contentType,
            subject: d.subject ?? `Report ${report.id}`,
            text: d.body ?? `Report ${report.id} is attached.`,
            link: () => this.links.link(d.linkOrigin, report.id).url,
          },
          { ...this.destinations.shipping, signal },
          `${d.id}@reportgen`,
        );
    }
    if (signal.aborted) return; // stopping: not recorded, attempted again after the restart
    const ended = Date.now();
    const attempts = d.attempts + 1;
    const outcome = this.outcomeOf(result, attempts, d.createdAt, ended);
    const error = result.ok ? null : result.error;
    // The end of a delivery and its webhook event commit together.
    const recorded = await this.repo.transaction(async () => {
      if (!(await this.repo.record(d.id, attempts, outcome, error, ended))) return false; // its report was deleted meanwhile
      if (outcome.status !== "pending") await this.opts.onFinished?.(d, { status: outcome.status, attempts, error, at: ended });
      return true;
    });
    if (!recorded) return;
    const fields = { report_id: d.reportId, destination_id: d.destinationId, target: d.target, attempt: attempts, error, ms: ended - now };
    const log = this.opts.logger;
    if (outcome.status === "pending")
      log.info("delivery attempt failed; will retry", { ...fields, next_attempt_at: new Date(outcome.nextAttemptAt).toISOString() });
    else if (outcome.status === "delivered") log.debug("report delivered", fields);
    else log.warn("delivery given up", fields);
  }

  /** The stored file's bytes, or why they cannot be read (StoreUnavailableError: retried). */
  private async read(report: { id: string; attempts: number; sizeBytes: number | null }): Promise<Uint8Array | Error> {
    try {
      const stored = await this.files.open(report.id, fenceOf(report), report.sizeBytes);
      if (!stored) return new Error("the report's PDF is no longer stored (deleted or expired)");
      return new Uint8Array(await new Response(stored.body).arrayBuffer());
    } catch (e) {
      if (e instanceof StoreUnavailableError) return e;
      throw e;
    }
  }

  private outcomeOf(r: ShipResult, attempts: number, createdAt: number, now: number): DeliveryOutcome {
    if (r.ok) return { status: "delivered" };
    if (r.final) return { status: "failed" };
    const next = now + retryDelay(attempts, this.opts.retryBaseMs);
    return next > createdAt + this.opts.retryWindowMs ? { status: "failed" } : { status: "pending", nextAttemptAt: next };
  }
}
