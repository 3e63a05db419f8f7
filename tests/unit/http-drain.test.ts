// HttpDrain.settle(): before the HTTP server closes its idle connections, it waits until requests have
// stopped arriving (QUIET_MS, 250 ms), never longer than SETTLE_MAX_MS (2 s), and not at all without a drain.
import { expect, test } from "bun:test";
import { Elysia } from "elysia";
import { HttpDrain } from "../../src/http/drain";

function drained(draining: boolean) {
  const drain = new HttpDrain(() => draining);
  const app = drain.wrap(new Elysia().get("/", () => "ok"));
  return { drain, hit: () => app.handle(new Request("http://localhost/")) };
}

test("without a drain, settle() returns at once and answers keep their connection", async () => {
  const { drain, hit } = drained(false);
  expect((await hit()).headers.get("connection")).toBeNull();
  const t0 = performance.now();
  await drain.settle();
  expect(performance.now() - t0).toBeLessThan(200);
});

test("draining: answers say Connection: close; settle() waits 250 ms from the last request", async () => {
  const { drain, hit } = drained(true);
  const sent = performance.now();
  expect((await hit()).headers.get("connection")).toBe("close");
  await drain.settle();
  expect(performance.now() - sent).toBeGreaterThanOrEqual(249);
  // Quiet already: nothing more to wait for.
  const t0 = performance.now();
  await drain.settle();
  expect(performance.now() - t0).toBeLessThan(200);
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
