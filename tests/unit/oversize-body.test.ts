// readOversizeBody (src/http/body.ts): a body past the limit is kept up to the larger limit only with a
// place among the oversized bodies held at once; without one it is read away and refused with 503.
// Real Requests with streamed bodies; the route's behaviour over HTTP: tests/api/generate-limits.test.ts.
import { describe, expect, test } from "bun:test";
import { readOversizeBody } from "../../src/http/body";
import { AppError } from "../../src/lib/errors";

const limits = { limit: 1000, chunkedLimit: 4000, discardLimit: 20_000, timeoutMs: 10_000 };
const post = (size: number) =>
  new Request("http://localhost/api/v1/generate-pdf-async", {
    method: "POST",
    body: new ReadableStream({
      start(c) {
        for (let i = 0; i < size; i += 300) c.enqueue(new Uint8Array(Math.min(300, size - i)).fill(0x20));
        c.close();
      },
    }),
  });

function places(free: number) {
  const taken = { now: 0, ever: 0 };
  return {
    taken,
    oversize: {
      limit: 4000,
      take: () => {
        if (taken.now >= free) return undefined;
        taken.now++;
        taken.ever++;
        return () => void taken.now--;
      },
    },
  };
}

describe("readOversizeBody", () => {
  test("within the limit: no place taken", async () => {
    const p = places(1);
    const { bytes, release } = await readOversizeBody(post(900), limits, p.oversize);
    release();
    expect(bytes.byteLength).toBe(900);
    expect(p.taken.ever).toBe(0);
  });

  test("past the limit with a place: kept whole, the place held until released", async () => {
    const p = places(1);
    const { bytes, release } = await readOversizeBody(post(3500), limits, p.oversize);
    expect(bytes.byteLength).toBe(3500);
    expect(p.taken.now).toBe(1);
    release();
    expect(p.taken.now).toBe(0);
  });

  test("past the larger limit: 413 naming it, the place given back", async () => {
    const p = places(1);
    const e = (await readOversizeBody(post(5000), limits, p.oversize).catch((x) => x)) as AppError;
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe("payload_too_large");
    expect(e.message).toContain("the limit is 4000 bytes");
    expect(p.taken).toEqual({ now: 0, ever: 1 });
  });

  test("past the limit with every place taken: read away, then 503 server_busy with Retry-After", async () => {
    const p = places(0);
    const request = post(3500);
    const e = (await readOversizeBody(request, limits, p.oversize).catch((x) => x)) as AppError;
    expect(e.code).toBe("server_busy");
    expect(e.headers?.["Retry-After"]).toBe("5");
    expect(request.bodyUsed).toBe(true);
  });
});
