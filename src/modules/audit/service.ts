// The audit trail: any service records what it changed, who asked and from where. Call record() inside
// the transaction of the change (Sql.tx is ambient, so the insert joins it) to write both or neither.
import { readPage } from "../../lib/cursor";
import { uuidV7 } from "../../lib/ids";
import type { Actor, AuditEvent, AuditEventType } from "./model";
import type { AuditRepo } from "./repo";

export class AuditService {
  constructor(private readonly repo: AuditRepo) {}

  /**
   * Records one event. `target` names what was acted on (a key id, an account id); `detail` is a small
   * JSON object (never secrets: key values and webhook secrets stay out of the trail).
   */
  async record(
    actor: Actor,
    type: AuditEventType,
    target: string | null,
    detail?: Record<string, unknown>,
    now = Date.now(),
  ): Promise<void> {
    await this.repo.insert({
      id: uuidV7(now),
      accountId: actor.accountId,
      type,
      actor: actor.kind,
      actorKeyId: actor.kind === "key" ? actor.keyId : null,
      clientAddress: actor.kind === "cli" ? null : actor.address,
      target,
      detail: detail ? JSON.stringify(detail) : null,
      createdAt: now,
    });
  }

  /** A page of the account's events, newest first (cursor pages like GET /reports). */
  async list(accountId: string, q: { cursor?: string; limit?: number } = {}): Promise<{ items: AuditEvent[]; nextCursor: string | null }> {
    return readPage({ cursor: q.cursor, limit: q.limit ?? 50 }, "event", (after, limit) => this.repo.list(accountId, limit, after));
  }

  /** Deletes events older than `retentionMs` (the retention job). */
  purge(retentionMs: number, now = Date.now()): Promise<number> {
    return this.repo.deleteBefore(now - retentionMs);
  }
}
