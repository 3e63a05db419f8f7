// Keyset paging of the listings (templates, assets, audit events, signing identities): newest first by
// (created_at, id), a page resuming strictly after the last row of the previous one, so rows inserted
// meanwhile neither repeat nor shift a page. The cursor that carries the position is lib/cursor.ts's.
import type { Cursor } from "../lib/cursor";
import type { Sql } from "./sql";

export interface NewestFirstQuery {
  /** `SELECT <columns> FROM <table>`: the rows' shape. */
  select: string;
  /** The filter (`account_id = $1`), its parameters numbered from $1 in `params`. */
  where: string;
  params: readonly unknown[];
  /** Only rows after this position (the last row of the previous page). */
  after?: Cursor;
  /** At most this many rows; every row when absent. */
  limit?: number;
}

/** The rows of `q`, newest first; their text is one statement per shape, so SQLite prepares it once. */
export function newestFirst<T>(sql: Sql, q: NewestFirstQuery): Promise<T[]> {
  const params = [...q.params];
  let text = `${q.select} WHERE (${q.where})`;
  if (q.after) {
    const at = params.push(q.after.createdAt);
    const id = params.push(q.after.id);
    text += ` AND (created_at < $${at} OR (created_at = $${at} AND id < $${id}))`;
  }
  text += " ORDER BY created_at DESC, id DESC";
  if (q.limit !== undefined) text += ` LIMIT $${params.push(q.limit)}`;
  return sql.all<T>(text, params);
}
