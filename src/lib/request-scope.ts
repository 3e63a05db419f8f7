// Whether the code running now serves an HTTP request. A client is waiting on a request, so the
// database gives it a short deadline (db/postgres.ts: 503 database_unavailable within a second of an
// outage); background work (claims, leases, the reaper) has nobody waiting and keeps no deadline.
import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<true>();

/** Runs fn (and everything it awaits) as serving a request. */
export function servingRequest<T>(fn: () => T): T {
  return scope.run(true, fn);
}

export function inRequest(): boolean {
  return scope.getStore() === true;
}
