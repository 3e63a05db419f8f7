// Request bodies, read by us rather than by Bun, so every client gets a readable answer.
//
// Bun's own maxRequestBodySize answers a bare 413 and closes the socket while the client is still
// sending: Node's fetch then fails with EPIPE and never sees a status (measured with Bun 1.4.5). So Bun
// is given a larger "discard limit" and the real limit is enforced here while the body streams: past
// the limit nothing more is kept, the rest is read and thrown away (up to the discard limit), and
// only then is the 413 sent, with Connection: close. A client whose body is larger than even the
// discard limit is cut off by Bun, as before. Slow senders are bounded by a total body deadline.
import { AppError, retryLater } from "../lib/errors";

export interface BodyLimits {
  /** Largest body accepted (413 beyond). */
  limit: number;
  /** Largest body of a chunked report (options.chunk) on a route that takes one (RouteRule.chunked); never below `limit`. */
  chunkedLimit: number;
  /** How much of an over-limit body is read and discarded so the client can read the 413. */
  discardLimit: number;
  /** Time from the request's arrival until its body must be complete (408 beyond). */
  timeoutMs: number;
}

/**
 * Past the limit, a collection is asked for (concurrent, it does not stop the server) every 8 MB
 * thrown away. Each chunk is garbage at once, but the collector counts an ArrayBuffer's bytes late,
 * and with mimalloc's purging off (lib/allocator.ts) what it lets pile up stays resident. Measured
 * with three 38 MB bodies (tests/blackbox/body-limit.test.ts, growth of the server's peak RSS):
 * 29-79 MB without (one run in six failed that test), 18-43 MB over 13 runs with. A blocking
 * collection holds it to 18-27 MB but stops every request for 18-32 ms each time.
 */
const GC_EVERY = 8 * 1024 * 1024;

const arrivals = new WeakMap<Request, number>();

/** Marks when a request arrived: the body deadline counts from here. */
export const markArrival = (request: Request, now = performance.now()) => {
  if (!arrivals.has(request)) arrivals.set(request, now);
};

export const tooLarge = (limit: number, size?: number, hint = "") =>
  new AppError(
    "payload_too_large",
    `the request body is ${size === undefined ? "larger than" : `${size} bytes;`} the limit ${size === undefined ? "of" : "is"} ${limit} bytes. Send a smaller template or less data${hint}.`,
    undefined,
    { connection: "close" },
  );

const tooSlow = (timeoutMs: number) =>
  new AppError("request_timeout", `the request body did not arrive within ${Math.round(timeoutMs / 1000)} s; send it at once`, undefined, {
    connection: "close",
  });

/** Reads the whole body, keeping at most `limit` bytes; throws 413 (after discarding the rest) or 408. */
export async function readBody(request: Request, limits: BodyLimits): Promise<Uint8Array> {
  return (await readOversizeBody(request, limits)).bytes;
}

/**
 * A larger limit for some bodies (a chunked report's), asked for once, when the body passes the usual
 * limit: `take` gives a place among the few such bodies the server holds at once (its release), or
 * undefined when they are all taken.
 */
export interface Oversize {
  limit: number;
  take(): (() => void) | undefined;
}

/** Seconds a client waits before sending an oversized body again when the server holds enough of them. */
const OVERSIZE_RETRY_S = 5;

/**
 * Reads the whole body, keeping at most `limit` bytes, or, given `oversize`, a body that passes the limit
 * goes on being kept up to `oversize.limit` when it gets a place; without one it is read away and refused
 * with 503 server_busy. The caller calls `release` once it has let go of the bytes.
 */
export async function readOversizeBody(
  request: Request,
  limits: BodyLimits,
  oversize?: Oversize,
): Promise<{ bytes: Uint8Array; release: () => void }> {
  let keep = limits.limit;
  let release = () => {};
  let busy = false;
  let chunks: Uint8Array[] = [];
  try {
    const total = await consume(request, limits, (chunk, seen) => {
      if (oversize && seen > keep && keep === limits.limit && !busy) {
        const place = oversize.take();
        if (place) [release, keep] = [place, oversize.limit];
        else busy = true;
      }
      if (seen <= keep) chunks.push(chunk);
      else if (chunks.length) chunks = []; // over the limit: let go of what was kept, only count from here
    });
    if (busy)
      throw retryLater(
        "server_busy",
        `the request body is larger than ${limits.limit} bytes, and the server is reading as many such bodies as it holds at once; retry after Retry-After seconds`,
        OVERSIZE_RETRY_S,
      );
    if (total > keep) throw tooLarge(keep, total);
    return { bytes: Buffer.concat(chunks, total), release };
  } catch (e) {
    release();
    throw e;
  }
}

/**
 * Reads and discards a body nobody will use (a request refused before its body was read), so the
 * client, still sending, can read the answer. Never throws: the answer is already decided.
 */
export async function discardBody(request: Request, limits: BodyLimits): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > limits.discardLimit) return; // Bun refuses it anyway; reading would only waste time
  await consume(request, limits, () => {}).catch(() => {});
}

/** Streams the body through `onChunk`; returns its size, or throws 413 past the discard limit, 408 past the deadline. */
async function consume(request: Request, limits: BodyLimits, onChunk: (chunk: Uint8Array, seen: number) => void): Promise<number> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > limits.discardLimit) throw tooLarge(limits.limit, declared);
  if (!request.body) return 0;
  const reader = request.body.getReader();
  // One timer for the whole body (not a race per chunk: chunks must be taken as fast as they arrive, or
  // they queue up in memory): at the deadline it cancels the reader, which ends the loop below.
  let expired = false;
  const deadline = (arrivals.get(request) ?? performance.now()) + limits.timeoutMs;
  const timer = setTimeout(
    () => {
      expired = true;
      void reader.cancel().catch(() => {});
    },
    Math.max(0, deadline - performance.now()),
  );
  let seen = 0;
  let nextGc = limits.limit + GC_EVERY;
  try {
    for (;;) {
      const next = await reader.read();
      if (expired) throw tooSlow(limits.timeoutMs);
      if (next.done) return seen;
      seen += next.value.byteLength;
      onChunk(next.value, seen);
      if (seen >= nextGc) {
        nextGc += GC_EVERY;
        Bun.gc(false);
      }
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    if (expired) throw tooSlow(limits.timeoutMs);
    // Bun ends the stream with an error past maxRequestBodySize (our discard limit).
    throw tooLarge(limits.limit, seen > limits.limit ? seen : undefined);
  } finally {
    clearTimeout(timer);
  }
}
