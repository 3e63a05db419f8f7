// The HTTP side of a graceful stop: keep-alive connections are retired by their clients, never closed
// under a request.
//
// Bun.serve's stop() closes every idle keep-alive connection at once (checked with Bun 1.4.5), and until
// then nothing told the clients to stop reusing them. A client, typically a proxy's connection pool, that
// sends its next request on such a connection at that moment gets a reset after sending: a proxy answers
// 502, and a POST's client cannot know whether it was taken (issue 49: 1 request in 2,278 of a rolling
// upgrade; tests/process/drain-keep-alive.test.ts hammers that moment). HTTP/1.1 gives a server no
// race-free way to close an idle connection (RFC 9112, 9.6), so the server stops inviting reuse first:
// - from SIGTERM on (the drain), every answer carries `Connection: close`: Bun closes that connection
//   after the answer and the client does not send on it again;
// - once the listener is closed, App.stop() waits (settle) until no request has arrived for QUIET_MS
//   (at most SETTLE_MAX_MS) before Bun closes the rest: by then each connection a client was still
//   using has carried its last request, and what Bun closes has been idle all along.
import type { AnyElysia } from "elysia";
import { withHeader } from "./request-context";

/** No request for this long: the clients have stopped sending here, what is still open is idle. */
const QUIET_MS = 250;
/** Settling never delays a stop by more than this (clients that keep opening connections while Bun still listens). */
const SETTLE_MAX_MS = 2_000;

export class HttpDrain {
  /** performance.now() at the last request's arrival. */
  private lastArrival = Number.NEGATIVE_INFINITY;

  /** `draining`: true from SIGTERM on (App.drain()). */
  constructor(private readonly draining: () => boolean) {}

  /** Notes each request's arrival and, while draining, closes the connection after its answer. Wraps the root app. */
  wrap<A extends AnyElysia>(app: A): A {
    const closing = (res: Response) => (this.draining() ? withHeader(res, "connection", "close") : res);
    return app.wrap((fn) => (request: Request): Response | Promise<Response> => {
      this.lastArrival = performance.now();
      const res = (fn as unknown as (r: Request) => Response | Promise<Response>)(request);
      return res instanceof Promise ? res.then(closing) : closing(res);
    }) as A;
  }

  /**
   * Resolves once no request has arrived for QUIET_MS, or after SETTLE_MAX_MS. Only while draining: a stop
   * without a drain (a CLI command, a failed start) told no client to go and has nothing to wait for.
   */
  async settle(): Promise<void> {
    if (!this.draining()) return;
    const end = performance.now() + SETTLE_MAX_MS;
    for (;;) {
      const now = performance.now();
      const wait = Math.min(this.lastArrival + QUIET_MS, end) - now;
      if (wait <= 0) return;
      await Bun.sleep(wait);
    }
  }
}
