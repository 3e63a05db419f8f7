// HttpDrain: answers keep their connection until the stop settles; from then they say Connection: close,
// and settle() waits until no request is in progress and none has arrived or been answered for QUIET_MS
// (250 ms), never longer than SETTLE_MAX_MS (2 s), and not at all without a drain.
import { expect, test } from "bun:test";
import { Elysia } from "elysia";
import { HttpDrain } from "../../src/http/drain";

function drained(draining: boolean) {
  const drain = new HttpDrain(() => draining);
  let release = () => {};
  const app = drain.wrap(
    new Elysia().get("/", () => "ok").get("/slow", () => new Promise<string>((resolve) => (release = () => resolve("late")))),
  );
  return {
    drain,
    hit: (path = "/") => app.handle(new Request(`http://localhost${path}`)),
    release: () => release(),
  };
}

test("without a drain, settle() returns at once and answers keep their connection", async () => {
  const { drain, hit } = drained(false);
  const t0 = performance.now();
  await drain.settle();
  expect(performance.now() - t0).toBeLessThan(200);
  expect((await hit()).headers.get("connection")).toBeNull();
});

test("draining: Connection: close once settling; settle() waits 250 ms from the last request", async () => {
  const { drain, hit } = drained(true);
  // The drain period itself keeps connections: a load balancer still sending reuses its pool.
  expect((await hit()).headers.get("connection")).toBeNull();
  const settled = drain.settle();
  const sent = performance.now();
  expect((await hit()).headers.get("connection")).toBe("close");
  await settled;
  expect(performance.now() - sent).toBeGreaterThanOrEqual(249);
  // Quiet already: nothing more to wait for.
  const t0 = performance.now();
  await drain.settle();
  expect(performance.now() - t0).toBeLessThan(200);
});

test("draining: a request in progress holds settle() until 250 ms after its answer", async () => {
  const { drain, hit, release } = drained(true);
  const slow = hit("/slow");
  await Bun.sleep(400); // longer than QUIET_MS: only the request in progress holds the settle now
  let settledAt = 0;
  const settled = drain.settle().then(() => {
    settledAt = performance.now();
  });
  await Bun.sleep(400);
  expect(settledAt).toBe(0);
  const answeredAt = performance.now();
  release();
  expect((await slow).headers.get("connection")).toBe("close");
  await settled;
  expect(settledAt - answeredAt).toBeGreaterThanOrEqual(249);
});

test("draining under a steady stream of requests: settle() gives up after 2 s", async () => {
  const { drain, hit } = drained(true);
  let sending = true;
  const stream = (async () => {
    while (sending) {
      await hit();
      await Bun.sleep(50);
    }
  })();
  const t0 = performance.now();
  await drain.settle();
  const waited = performance.now() - t0;
  sending = false;
  await stream;
  expect(waited).toBeGreaterThanOrEqual(1999);
  // Generous: a busy machine may wake the sleep late, but it must not wait for the stream to end.
  expect(waited).toBeLessThan(10_000);
});
