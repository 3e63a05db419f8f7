// Whether an error means the database could not be reached (as opposed to refusing a statement): the
// connection was refused, cut or timed out, or the server is shutting down or starting. Such a fault is
// the service's, never a report's: a report in flight is left to its lease, which the reaper takes back.
const CONNECTION_CODES = new Set([
  // postgres-js
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  // Node sockets
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now
  "57P01",
  "57P02",
  "57P03",
  // A request's deadline passed (db/postgres.ts), or the server refused a commit that came too late
  // for the request that made it (migration 0006's guard).
  "DATABASE_TIMEOUT",
  "RGL01",
]);

export const DATABASE_TIMEOUT = "DATABASE_TIMEOUT";

/** The error a request's database work ends with once its deadline has passed. */
export function databaseTimeout(): Error {
  return Object.assign(new Error("the database did not answer within the request's deadline"), { code: DATABASE_TIMEOUT });
}

export function isDatabaseUnreachable(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  // SQLSTATE class 08: connection exceptions.
  return CONNECTION_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code);
}
