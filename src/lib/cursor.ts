// The one cursor of every listing (reports, templates, assets, audit events): newest first by
// (created_at, id), carried between pages as base64url("<createdAt>.<id>"), opaque to clients. The SQL
// that resumes after it is db/newest-first.ts.
import { AppError } from "./errors";
import { UUID_RE } from "./ids";

export interface Cursor {
  createdAt: number;
  id: string;
}

const encode = (r: Cursor) => Buffer.from(`${r.createdAt}.${r.id}`).toString("base64url");

/** The position after which the next page starts; `what` names the listing in the 400's fix ("report"). */
export function decodeCursor(cursor: string, what: string): Cursor {
  const [createdAt, id, ...rest] = Buffer.from(cursor, "base64url").toString().split(".");
  if (rest.length > 0 || !createdAt || !/^\d{1,15}$/.test(createdAt) || !id || !UUID_RE.test(id))
    throw new AppError(
      "invalid_cursor",
      `cursor is not one this service issued: pass next_cursor from the previous page unchanged, or omit it to start from the newest ${what}`,
    );
  return { createdAt: Number(createdAt), id };
}

/** One page from `limit + 1` rows read: the first `limit`, and the cursor of the last when more follow. */
export function pageOf<T extends Cursor>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const more = rows.length > limit;
  if (more) rows.pop();
  const last = rows.at(-1);
  return { items: rows, nextCursor: more && last ? encode(last) : null };
}

/**
 * A page of a listing: the cursor decoded (a 400 naming `what` for one this service did not issue), then
 * `read` asked for one row more than `limit` after it, which tells whether another page follows.
 */
export async function readPage<T extends Cursor>(
  q: { cursor?: string; limit: number },
  what: string,
  read: (after: Cursor | undefined, limit: number) => Promise<T[]>,
): Promise<{ items: T[]; nextCursor: string | null }> {
  const after = q.cursor ? decodeCursor(q.cursor, what) : undefined;
  return pageOf(await read(after, q.limit + 1), q.limit);
}
