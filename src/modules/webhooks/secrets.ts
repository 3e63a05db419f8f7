// Each account's webhook signing secret: created on first use, shown to the account through the API
// and the CLI (a receiver needs it to verify events), and rotated with a grace period.
import type { Actor } from "../audit/model";
import type { AuditService } from "../audit/service";
import type { WebhooksRepo } from "./repo";
import { newWebhookSecret } from "./signature";

/** After a rotation the previous secret keeps signing events (alongside the new one) this long. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;

export interface WebhookSecretInfo {
  secret: string;
  createdAt: number;
  /** Until when events also carry a signature made with the previous secret (null: no rotation pending). */
  previousValidUntil: number | null;
}

export class WebhookSecrets {
  constructor(
    private readonly repo: WebhooksRepo,
    private readonly audit: AuditService,
  ) {}

  /** The account's secret, created on first call. */
  async get(accountId: string, now = Date.now()): Promise<WebhookSecretInfo> {
    let row = await this.repo.secret(accountId);
    if (!row) {
      await this.repo.insertSecret(accountId, newWebhookSecret(), now);
      row = (await this.repo.secret(accountId))!;
    }
    return {
      secret: row.secret,
      createdAt: row.createdAt,
      previousValidUntil: row.previousExpiresAt && row.previousExpiresAt > now ? row.previousExpiresAt : null,
    };
  }

  /** A new secret; events are signed with both the new and the old one for ROTATION_GRACE_MS. */
  async rotate(accountId: string, actor: Actor, now = Date.now()): Promise<WebhookSecretInfo> {
    await this.repo.transaction(async () => {
      await this.repo.rotateSecret(accountId, newWebhookSecret(), now, now + ROTATION_GRACE_MS);
      await this.audit.record(actor, "webhook_secret.rotated", accountId, { grace_seconds: ROTATION_GRACE_MS / 1000 }, now);
    });
    return this.get(accountId, now);
  }

  /** The secrets an event is signed with now: the current one, and the previous one during its grace period. */
  async signing(accountId: string, now = Date.now()): Promise<string[]> {
    const info = await this.get(accountId, now);
    const row = (await this.repo.secret(accountId))!;
    return info.previousValidUntil && row.previousSecret ? [info.secret, row.previousSecret] : [info.secret];
  }
}
