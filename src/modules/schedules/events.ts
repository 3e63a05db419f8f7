// The schedule.run_failed webhook event: sent for a failed run of a schedule with a webhook, signed with
// the account's secret like report events (Standard Webhooks), retried with the same backoff and window
// (the webhook sender's outcomeOf), at least once: the pending state lives in the run's row, so a restart
// sends it again, with the same webhook-id (the run's id).
import type { Logger } from "../../lib/logger";
import { iso } from "../../lib/time";
import type { WebhookSecrets } from "../webhooks/secrets";
import { outcomeOf } from "../webhooks/sender";
import { webhookHeaders } from "../webhooks/signature";
import { type OutboundPolicy, sendWebhook } from "../webhooks/target";
import type { DueRunEvent, SchedulesRepo } from "./repo";

export interface RunEventsOptions extends OutboundPolicy {
  logger: Logger;
}

/** Attempts at once per instance. */
const AT_ONCE = 4;
/** A claimed event is due again this long after its attempt's timeout, should its instance die mid-attempt. */
const CLAIM_MARGIN_MS = 30_000;

/** The event's body (OpenAPI: webhooks.scheduleRunFailed). */
export function runFailedEvent(d: DueRunEvent, now: number) {
  return {
    type: "schedule.run_failed",
    timestamp: iso(now)!,
    data: { schedule_id: d.scheduleId, schedule_name: d.scheduleName, run_id: d.id, scheduled_for: iso(d.scheduledFor)!, error: d.error },
  };
}

export class RunFailedEvents {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();

  constructor(
    private readonly repo: SchedulesRepo,
    private readonly secrets: WebhookSecrets,
    private readonly opts: RunEventsOptions,
  ) {}

  /** Starts the attempts that are due (in the background), as many as there is room for. */
  async sendDue(now = Date.now()): Promise<void> {
    const room = AT_ONCE - this.inFlight.size;
    if (room <= 0 || this.abort.signal.aborted) return;
    for (const d of await this.repo.claimDueEvents(now, room, this.opts.timeoutMs + CLAIM_MARGIN_MS)) {
      const p = this.attempt(d)
        .catch((e: unknown) => this.opts.logger.error("schedule.run_failed event attempt crashed", { run_id: d.id, error: e }))
        .finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }
  }

  /** Cuts attempts off: they are not recorded, so they are sent again once their claim runs out. */
  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.all(this.inFlight);
  }

  private async attempt(d: DueRunEvent): Promise<void> {
    const startedAt = Date.now();
    const body = JSON.stringify(runFailedEvent(d, startedAt));
    const headers = webhookHeaders(await this.secrets.signing(d.accountId, startedAt), `msg_${d.id}`, Math.floor(startedAt / 1000), body);
    const result = await sendWebhook(d.webhookUrl, headers, body, {
      allowHosts: this.opts.allowHosts,
      timeoutMs: this.opts.timeoutMs,
      signal: this.abort.signal,
    });
    if (this.abort.signal.aborted) return;
    const outcome = outcomeOf(result, d.webhookAttempts + 1, d.createdAt, Date.now(), this.opts);
    await this.repo.eventAttempted(d.id, outcome);
    const fields = { run_id: d.id, schedule_id: d.scheduleId, status: result.status, error: result.error };
    if (outcome.status === "failed") this.opts.logger.warn("schedule.run_failed event given up", fields);
    else if (outcome.status === "pending") this.opts.logger.info("schedule.run_failed event attempt failed; will retry", fields);
  }
}
