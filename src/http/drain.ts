// The HTTP side of a graceful stop: keep-alive connections are retired by their clients, never closed
// under a request.
//
// Bun.serve's stop() closes every idle keep-alive connection at once (checked with Bun 1.4.5), and until
// then nothing told the clients to stop reusing them. A client, typically a proxy's connection pool, that
// sends its next request on such a connection at that moment gets a reset after sending: a proxy answers
// 502, and a POST's client cannot know whether it was taken (issue 49's rolling upgrade;
// tests/process/drain-keep-alive.test.ts hammers that moment). HTTP/1.1 gives a server no race-free way
// to close an idle connection (RFC 9112, 9.6), so App.stop() first stops accepting connections, then
// settles: every answer carries `Connection: close` (Bun closes that connection after it, the client
// does not send on it again), until no request is in progress and none has arrived or been answered for
// QUIET_MS (at most SETTLE_MAX_MS). Only then does Bun close the rest, which by then has been idle: an
// answer sent before the settle (a long poll released at the end of the drain) leaves its connection
// open for reuse, and a client that reuses it at once is answered with the close instead of cut.
//
// Not `Connection: close` from SIGTERM on, for the whole drain period: a load balancer slow to take the
// instance out would then open a new connection per request, and those still being opened when the
// listener closes are reset by the kernel (measured: a few resets in 14 stops under clients that never
// stop sending, none with the close from the settle on).
import type { AnyElysia } from "elysia";
import { withHeader } from "./request-context";

/** Nothing for this long: the clients have stopped sending here, what is still open is idle. */
const QUIET_MS = 250;
/** Settling never delays a stop by more than this (clients that keep opening connections while Bun still listens). */
const SETTLE_MAX_MS = 2_000;

export class HttpDrain {
  /** performance.now() at the last request's arrival or answer. */
  private lastActivity = Number.NEGATIVE_INFINITY;
  private inProgress = 0;
  /** From settle() on: every answer closes its connection. */
  private closing = false;

  /** `draining`: true from SIGTERM on (App.drain()). */
  constructor(private readonly draining: () => boolean) {}

  /** Notes each request's arrival and answer and, once settling, closes the connection after the answer. Wraps the root app. */
  wrap<A extends AnyElysia>(app: A): A {
    const done = () => {
      this.inProgress--;
      this.lastActivity = performance.now();
    };
    const answer = (res: Response) => {
      done();
      return this.closing ? withHeader(res, "connection", "close") : res;
    };
    const failed = (e: unknown): never => {
      done();
      throw e;
    };
    return app.wrap((fn) => (request: Request): Response | Promise<Response> => {
      this.inProgress++;
      this.lastActivity = performance.now();
      let res: Response | Promise<Response>;
      try {
        res = (fn as unknown as (r: Request) => Response | Promise<Response>)(request);
      } catch (e) {
        return failed(e);
      }
      return res instanceof Promise ? res.then(answer, failed) : answer(res);
    }) as A;
  }

  /**
   * From now on answers say `Connection: close`; resolves once no request is in progress and none has
   * arrived or been answered for QUIET_MS, or after SETTLE_MAX_MS. Only after a drain: a stop without
   * one (a CLI command, a failed start, a test) has no load balancer to wait for.
   */
  async settle(): Promise<void> {
    if (!this.draining()) return;
    this.closing = true;
    const end = performance.now() + SETTLE_MAX_MS;
    for (;;) {
      const now = performance.now();
      const quietAt = this.inProgress > 0 ? now + QUIET_MS : this.lastActivity + QUIET_MS;
      const wait = Math.min(quietAt, end) - now;
      if (wait <= 0) return;
      await Bun.sleep(this.inProgress > 0 ? Math.min(wait, 25) : wait);
    }
  }
}
