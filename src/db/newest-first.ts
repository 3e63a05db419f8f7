// Keyset paging of the account listings (reports, templates, assets, audit events, signing identities): an
// account's rows newest first by (created_at, id), a page resuming strictly after the last row of the
// previous one, so rows inserted meanwhile neither repeat nor shift a page. The cursor that carries the
// position between requests is lib/cursor.ts's.
import type { Cursor } from "../lib/cursor";
import type { Sql } from "./sql";

export interface NewestFirstQuery {
  accountId: string;
  /** Only rows after this position (the last row of the previous page). */
  after?: Cursor;
  /** At most this many rows; every row when absent. */
  limit?: number;
  /** Only rows whose columns equal these values (column names are the caller's code, never input). */
  where?: Record<string, string | number>;
}

/**
 * The account's rows of `select` (`SELECT <columns> FROM <table>`), newest first. The text is one
 * statement per shape (with or without a position, a limit), so SQLite prepares each once.
 */
export function newestFirst<T>(sql: Sql, select: string, q: NewestFirstQuery): Promise<T[]> {
  const params: unknown[] = [q.accountId];
  let text = `${select} WHERE account_id = $1`;
  for (const [column, value] of Object.entries(q.where ?? {})) text += ` AND ${column} = $${params.push(value)}`;
  if (q.after) {
    const at = params.push(q.after.createdAt);
    const id = params.push(q.after.id);
    text += ` AND (created_at < $${at} OR (created_at = $${at} AND id < $${id}))`;
  }
  text += " ORDER BY created_at DESC, id DESC";
  if (q.limit !== undefined) text += ` LIMIT $${params.push(q.limit)}`;
  return sql.all<T>(text, params);
}
