// SQL for the audit trail. Inserts join the caller's transaction (the Sql port's ambient tx), so an
// event is written with the change it records, or not at all.
import { newestFirst } from "../../db/newest-first";
import type { Sql } from "../../db/sql";
import type { Cursor } from "../../lib/cursor";
import type { AuditEvent } from "./model";

const columns = `id, account_id AS "accountId", type, actor, actor_key_id AS "actorKeyId", client_address AS "clientAddress",
  target, detail, created_at AS "createdAt"`;

export class AuditRepo {
  constructor(private readonly sql: Sql) {}

  async insert(e: AuditEvent): Promise<void> {
    await this.sql.run(
      `INSERT INTO audit_events (id, account_id, type, actor, actor_key_id, client_address, target, detail, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [e.id, e.accountId, e.type, e.actor, e.actorKeyId, e.clientAddress, e.target, e.detail, e.createdAt],
    );
  }

  /** The account's events, newest first, after a position (the last item of the previous page). */
  list(accountId: string, limit: number, after?: Cursor): Promise<AuditEvent[]> {
    return newestFirst<AuditEvent>(this.sql, `SELECT ${columns} FROM audit_events`, { accountId, after, limit });
  }

  /** Removes events older than `before` (the retention job); returns how many went. */
  deleteBefore(before: number): Promise<number> {
    return this.sql.run("DELETE FROM audit_events WHERE created_at < $1", [before]);
  }
}
