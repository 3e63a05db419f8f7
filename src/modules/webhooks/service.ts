// Webhooks as the reports module sees them: check a submitted URL, attach it to a new report, and
// read a report's delivery log. Secrets live in WebhookSecrets, sending in WebhookSender.

import { toWebhookJson } from "./model";
import type { WebhooksRepo } from "./repo";
import { checkWebhookUrl, type TargetPolicy } from "./target";

export class WebhooksService {
  constructor(
    private readonly repo: WebhooksRepo,
    private readonly policy: TargetPolicy,
  ) {}

  /** The normalised URL, or validation_failed (field webhook.url) when the network policy refuses it outright. */
  check(url: string): string {
    return checkWebhookUrl(url, this.policy);
  }

  /** Call in the transaction that inserts the report. */
  attach(reportId: string, url: string, linkOrigin: string): Promise<void> {
    return this.repo.attach(reportId, url, linkOrigin);
  }

  /** The report's webhook and every attempt made to deliver its event, for GET /reports/{id}. */
  async log(reportId: string) {
    const url = await this.repo.webhookUrl(reportId);
    return url ? toWebhookJson(url, await this.repo.deliveries(reportId)) : null;
  }
}
