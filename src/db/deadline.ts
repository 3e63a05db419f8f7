// How long a request waits for PostgreSQL. A hung server (stopped, cut off by the network) answers
// nothing at all, while a busy one keeps answering, only late. So a request waits its deadline
// (--database-timeout) while the server answers nobody, and up to BUSY_WAIT_MS while it answers
// others: an outage is a 503 within the deadline, a slow moment on a loaded machine is not.
import { databaseTimeout } from "./errors";

/** The longest a request waits for a database that is answering, only slowly. */
export const BUSY_WAIT_MS = 10_000;

/** When the database last answered any statement, on any connection of this process. */
export class Liveness {
  lastAnswer = 0;

  answered(): void {
    this.lastAnswer = performance.now();
  }
}

/**
 * p, or a database_unavailable error once `ms` have passed since `from` with no answer from the
 * database to anyone in the last `ms`, or BUSY_WAIT_MS have passed in any case. onTimeout runs just
 * before the error; from then on p's own outcome is ignored.
 */
export function within<T>(p: PromiseLike<T>, ms: number, live: Liveness, onTimeout: () => void, from = performance.now()): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout>;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
    };
    const check = () => {
      const now = performance.now();
      if (now - live.lastAnswer < ms && now - from < BUSY_WAIT_MS) {
        // Again the moment the database will have been silent for `ms`, unless it answers meanwhile.
        timer = setTimeout(check, Math.max(1, Math.min(live.lastAnswer + ms - now, from + BUSY_WAIT_MS - now)));
        return;
      }
      settle(() => {
        onTimeout();
        reject(databaseTimeout());
      });
    };
    timer = setTimeout(check, Math.max(0, from + ms - performance.now()));
    p.then(
      (v) => settle(() => resolve(v)),
      (e) => settle(() => reject(e)),
    );
  });
}
