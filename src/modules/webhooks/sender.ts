// The webhook delivery worker. Pending deliveries are rows in SQLite (created with the report's final
// status), so they survive restarts; the worker sends the due ones, a few at a time, and records each
// attempt. A 2xx answer delivers the event; any other answer, a timeout or a connection error is
// retried with exponential backoff and jitter until the retry window (default 24 h) is used up.
//
// Guarantee: at-least-once. Every attempt of one event carries the same webhook-id. An attempt is
// recorded only after it ends, so if reportgen stops or crashes while an attempt is in flight, the
// event is sent again after the restart (with the same webhook-id): a receiver that keeps the ids it
// has processed (as Standard Webhooks asks) acts on each event exactly once.
import { DueWorker, leasedQueue } from "../../jobs/due-worker";
import type { Logger } from "../../lib/logger";
import type { LinkSigner } from "../files/links";
import type { PdfStore } from "../files/pdf-store";
import type { ReportsRepo } from "../reports/repo";
import { buildEvent, freshDownload } from "./event";
import type { AttemptOutcome, DueDelivery, WebhooksRepo } from "./repo";
import type { WebhookSecrets } from "./secrets";
import { webhookHeaders } from "./signature";
import { type OutboundPolicy, type SendResult, sendWebhook } from "./target";

/** The longest wait between two attempts. */
export const MAX_RETRY_DELAY_MS = 3_600_000;
/** With nothing due, look for deliveries anyway this often (ones created by paths that send no wake-up). */
const IDLE_POLL_MS = 5_000;
/** A claimed delivery is due again this long after its attempt's timeout, should its instance die mid-attempt. */
const CLAIM_MARGIN_MS = 30_000;

export interface WebhookSenderOptions extends OutboundPolicy {
  /** Attempts in flight at once. */
  concurrency: number;
  logger: Logger;
  /** Name resolution, replaceable in tests. */
  lookup?: (hostname: string) => Promise<string[]>;
  /**
   * True when this process is the only sender (SQLite): claims left by an earlier, crashed process are
   * given back at start instead of when they run out. False with PostgreSQL (other senders are alive).
   */
  sole?: boolean;
}

/**
 * The wait before the attempt after `attempts` failed ones: base·2^(attempts−1), at most an hour,
 * with "equal jitter" (a random point in its upper half) so receivers coming back up are not hit by
 * every pending event at the same instant.
 */
export function retryDelay(attempts: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.min(40, attempts - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** What follows an attempt: delivered on 2xx; given up on a policy refusal or past the window; else retried. */
export function outcomeOf(
  r: SendResult,
  attempts: number,
  createdAt: number,
  now: number,
  opts: Pick<WebhookSenderOptions, "retryWindowMs" | "retryBaseMs">,
  random?: () => number,
): AttemptOutcome {
  if (r.status !== undefined && r.status >= 200 && r.status <= 299) return { status: "delivered" };
  if (r.refused) return { status: "failed" };
  const next = now + retryDelay(attempts, opts.retryBaseMs, random);
  return next > createdAt + opts.retryWindowMs ? { status: "failed" } : { status: "pending", nextAttemptAt: next };
}

export class WebhookSender {
  /** The leased queue's loop (jobs/due-worker.ts), shared with the delivery worker. */
  private readonly loop: DueWorker<DueDelivery>;

  constructor(
    private readonly repo: WebhooksRepo,
    private readonly reports: ReportsRepo,
    private readonly secrets: WebhookSecrets,
    private readonly files: PdfStore,
    private readonly links: LinkSigner,
    private readonly opts: WebhookSenderOptions,
  ) {
    // Claimed for longer than an attempt can take: no other sender (here or on another instance) takes them meanwhile.
    const leaseMs = opts.timeoutMs + CLAIM_MARGIN_MS;
    this.loop = new DueWorker<DueDelivery>(
      leasedQueue(repo.leased, (now, limit) => repo.claimDue(now, limit, leaseMs), opts.sole ?? false),
      (d, signal) => this.attempt(d, signal),
      { name: "webhook", concurrency: opts.concurrency, logger: opts.logger, idlePollMs: IDLE_POLL_MS },
    );
  }

  start(): void {
    this.loop.start();
  }

  /** A report finished (its delivery may be due now), or an attempt ended: look again at once. */
  notify = (): void => this.loop.notify();

  /**
   * Stops sending. Attempts still in flight are cut off: they are not recorded, so they are sent
   * again (same webhook-id) after the next start; their claims are given back at once.
   */
  stop(timeoutMs = 5_000): Promise<void> {
    return this.loop.stop(timeoutMs);
  }

  private async attempt(d: DueDelivery, signal: AbortSignal): Promise<void> {
    const log = this.opts.logger;
    const startedAt = Date.now();
    const report = await this.reports.getForDownload(d.reportId);
    if (!report) return; // deleted meanwhile: its deliveries went with it
    const body = JSON.stringify(
      buildEvent(d.event, report, await freshDownload(report, d.linkOrigin, this.files, this.links, startedAt), startedAt, d.detail),
    );
    const headers = webhookHeaders(await this.secrets.signing(d.accountId, startedAt), d.id, Math.floor(startedAt / 1000), body);
    const result = await sendWebhook(d.url, headers, body, {
      allowHosts: this.opts.allowHosts,
      timeoutMs: this.opts.timeoutMs,
      signal,
      lookup: this.opts.lookup,
    });
    if (signal.aborted) return; // stopping: not recorded, sent again after the restart
    const ended = Date.now();
    const attempts = d.attempts + 1;
    const outcome = outcomeOf(result, attempts, d.createdAt, ended, this.opts);
    try {
      await this.repo.recordAttempt(
        { deliveryId: d.id, startedAt, durationMs: ended - startedAt, responseStatus: result.status ?? null, error: result.error ?? null },
        outcome,
      );
    } catch (e) {
      // The report (and so the delivery) may have been deleted while the attempt was in flight.
      log.warn("webhook attempt not recorded", { webhook_id: d.id, error: (e as Error).message });
      return;
    }
    const fields = {
      webhook_id: d.id,
      report_id: d.reportId,
      event: d.event,
      attempt: attempts,
      status: result.status,
      error: result.error,
    };
    if (outcome.status === "delivered") log.debug("webhook delivered", fields);
    else if (outcome.status === "failed") log.warn("webhook given up", fields);
    else log.info("webhook attempt failed; will retry", { ...fields, next_attempt_at: new Date(outcome.nextAttemptAt).toISOString() });
  }
}
