// POST /api/v1/generate-pdf-async under config variants: the body size limit, the input limits
// (template length, data depth, keys and size) and the queue caps (per account and in all). Each
// test runs its own app (withApp). Acceptance, validation and the body gates: generate.test.ts.
import { describe, expect, test } from "bun:test";
import type { Config } from "../../src/config/settings";
import { claim, EJS, expectError, expectValidation, RAW, rawRequest, submit, succeed, withApp } from "../helpers/scenario";

describe("size limits", () => {
  test("a body over bodyLimit (by Content-Length) → 413 payload_too_large; at the limit → accepted", async () => {
    await withApp({ bodyLimit: 1000 }, async (a) => {
      const over = JSON.stringify({ ...RAW, html_template: "x".repeat(1200) });
      const res = await a.request("POST", "/api/v1/generate-pdf-async", { body: over, headers: { "content-length": String(over.length) } });
      const body = await expectError(res, 413, "payload_too_large");
      expect(body.message).toContain("1000");
      expect(await a.app.services.repos.reports.countUnfinished()).toBe(0);

      const pad = 1000 - JSON.stringify({ ...RAW, html_template: "" }).length;
      const exact = JSON.stringify({ ...RAW, html_template: "y".repeat(pad) });
      expect(exact.length).toBe(1000);
      expect((await a.request("POST", "/api/v1/generate-pdf-async", { body: exact, headers: { "content-length": "1000" } })).status).toBe(
        202,
      );
    });
  });

  test("a chunked report's body may pass bodyLimit up to chunkedBodyLimit; no other body may", async () => {
    await withApp({ bodyLimit: 1000, chunkedBodyLimit: 4000 }, async (a) => {
      const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ n: i, text: "row text" }));
      const ledger = (n: number, options: Record<string, unknown>) =>
        JSON.stringify({ engine: "ejs", html_template: "<p><%= rows.length %></p>", data: { rows: rows(n) }, options });
      const chunked = ledger(100, { chunk: { array: "rows", size: 100 } });
      expect(chunked.length).toBeGreaterThan(2000);
      expect(chunked.length).toBeLessThan(4000);
      expect((await a.request("POST", "/api/v1/generate-pdf-async", { body: chunked })).status).toBe(202);

      const whole = await expectError(
        await a.request("POST", "/api/v1/generate-pdf-async", { body: ledger(100, {}) }),
        413,
        "payload_too_large",
      );
      expect(whole.message).toContain("the limit is 1000 bytes");
      expect(whole.message).toContain("options.chunk");
      expect(whole.message).toContain("4000");

      const tooBig = ledger(200, { chunk: { array: "rows", size: 100 } });
      const over = await expectError(
        await a.request("POST", "/api/v1/generate-pdf-async", { body: tooBig, headers: { "content-length": String(tooBig.length) } }),
        413,
        "payload_too_large",
      );
      expect(over.message).toContain("the limit is 4000 bytes");
      // Only the submission of reports takes the larger body.
      const template = await expectError(
        await a.request("POST", "/api/v1/templates", { body: { name: "big", html_template: "x".repeat(2000) } }),
        413,
        "payload_too_large",
      );
      expect(template.message).toContain("the limit is 1000 bytes");
      expect(await a.app.services.repos.reports.countUnfinished()).toBe(1);
    });
  });

  test("over a real socket, an oversized body with Content-Length → 413", async () => {
    await withApp(
      { bodyLimit: 1000 },
      async (a) => {
        const res = await fetch(`${a.baseUrl}/api/v1/generate-pdf-async`, {
          method: "POST",
          headers: { "x-api-key": a.key, "content-type": "application/json" },
          body: JSON.stringify({ ...RAW, html_template: "x".repeat(1200) }),
        });
        await expectError(res, 413, "payload_too_large");
        expect(await a.app.services.repos.reports.countUnfinished()).toBe(0);
      },
      { listen: true },
    );
  });

  test("over a real socket, an oversized chunked body (no Content-Length) → 413 too", async () => {
    await withApp(
      { bodyLimit: 1000 },
      async (a) => {
        const bytes = new TextEncoder().encode(JSON.stringify({ ...RAW, html_template: "x".repeat(1200) }));
        const stream = new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) });
        const res = await fetch(`${a.baseUrl}/api/v1/generate-pdf-async`, {
          method: "POST",
          headers: { "x-api-key": a.key, "content-type": "application/json" },
          body: stream,
          duplex: "half",
        } as RequestInit);
        expect({ status: res.status, body: await res.text() }).toMatchObject({ status: 413 });
        expect(await a.app.services.repos.reports.countUnfinished()).toBe(0);
      },
      { listen: true },
    );
  });

  test("html_template over templateMaxLength → 422 naming html_template; at the limit → 202", async () => {
    await withApp({ templateMaxLength: 10 }, async (a) => {
      await expectValidation(
        await a.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: "x".repeat(11), engine: "raw" } }),
        "html_template",
      );
      await expectValidation(
        await a.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: "x".repeat(11), engine: "ejs", data: {} } }),
        "html_template",
      );
      expect(
        (await a.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: "x".repeat(10), engine: "raw" } })).status,
      ).toBe(202);
    });
  });

  const dataLimits: [string, Partial<Config>, unknown, unknown, RegExp][] = [
    ["dataMaxDepth 3", { dataMaxDepth: 3 }, { a: { b: { c: {} } } }, { a: { b: { c: 1 } } }, /deeper than 3/],
    ["dataMaxDepth 3 through arrays", { dataMaxDepth: 3 }, { a: [[{}]] }, { a: [[1]] }, /deeper than 3/],
    ["dataMaxKeys 5", { dataMaxKeys: 5 }, { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 }, { a: 1, b: 2, c: 3, d: 4, e: 5 }, /more than 5 keys/],
    [
      "dataMaxKeys 5 counting nested keys and items",
      { dataMaxKeys: 5 },
      { a: { b: 1, c: [1, 2, 3] } },
      { a: { b: 1, c: [1, 2] } },
      /more than 5 keys/,
    ],
    ["dataMaxSize 50", { dataMaxSize: 50 }, { a: "y".repeat(60) }, { a: "y".repeat(40) }, /limit is 50/],
  ];
  for (const [label, config, tooBig, fits, message] of dataLimits) {
    test(`${label}: over → 422 naming the limit; within → 202`, async () => {
      await withApp(config, async (a) => {
        const res = await a.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: "x", engine: "ejs", data: tooBig } });
        const body = await expectValidation(res, "data");
        expect(body.message).toMatch(message);
        expect(await a.app.services.repos.reports.countUnfinished()).toBe(0);
        expect(
          (await a.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: "x", engine: "ejs", data: fits } })).status,
        ).toBe(202);
      });
    });
  }

  test("data limits do not apply to raw (data is ignored)", async () => {
    await withApp({ dataMaxDepth: 1, dataMaxKeys: 1, dataMaxSize: 10 }, async (a) => {
      const res = await a.request("POST", "/api/v1/generate-pdf-async", {
        body: { ...RAW, data: { a: { b: { c: "y".repeat(100) } }, d: 1 } },
      });
      expect(res.status).toBe(202);
    });
  });

  test("a hostile, deeply nested data object is refused cleanly (no stack overflow, no 500)", async () => {
    await withApp({ bodyLimit: 10 * 1024 * 1024 }, async (a) => {
      const depth = 5000;
      const json = `${'{"x":'.repeat(depth)}1${"}".repeat(depth)}`;
      const body = `{"html_template":"x","engine":"ejs","data":${json}}`;
      const res = await rawRequest(a, "POST", "/api/v1/generate-pdf-async", {
        headers: { "x-api-key": a.key, "content-type": "application/json" },
        body,
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      const parsed = (await res.json()) as { error: string };
      expect(typeof parsed.error).toBe("string");
    });
  });
});

describe("queue caps", () => {
  test("accountQueueLimit 2: the third unfinished report → 429 account_queue_full with Retry-After", async () => {
    await withApp({ accountQueueLimit: 2 }, async (a) => {
      const first = await submit(a);
      await submit(a);
      const res = await a.request("POST", "/api/v1/generate-pdf-async", { body: RAW });
      const body = await expectError(res, 429, "account_queue_full");
      expect(body.message).toContain("2");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await a.app.services.repos.reports.countUnfinished()).toBe(2);

      // Processing still counts as unfinished.
      const attempt = await claim(a, first);
      await expectError(await a.request("POST", "/api/v1/generate-pdf-async", { body: RAW }), 429, "account_queue_full");

      // Another account has its own budget.
      const other = (await a.app.services.keys.createForAccount("other", "k")).value;
      expect((await a.request("POST", "/api/v1/generate-pdf-async", { body: RAW, key: other })).status).toBe(202);

      // Once one finishes, there is room again.
      await Bun.write(a.app.services.spool.pathOf(first), "%PDF-1.4");
      const done = { id: first, attempt, sizeBytes: 8, pageCount: 1, finishedAt: Date.now(), expiresAt: Date.now() + 60_000 };
      expect(await a.app.services.repos.queue.succeed(done)).toBe(true);
      expect((await a.request("POST", "/api/v1/generate-pdf-async", { body: RAW })).status).toBe(202);
    });
  });

  test("queueLimit 2 (all accounts): the third → 503 queue_full with Retry-After", async () => {
    await withApp({ queueLimit: 2 }, async (a) => {
      const other = (await a.app.services.keys.createForAccount("other", "k")).value;
      const first = await submit(a);
      await submit(a, RAW, other);
      for (const key of [a.key, other]) {
        const res = await a.request("POST", "/api/v1/generate-pdf-async", { body: RAW, key });
        await expectError(res, 503, "queue_full");
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      }
      expect(await a.app.services.repos.reports.countUnfinished()).toBe(2);
      await succeed(a, first);
      expect((await a.request("POST", "/api/v1/generate-pdf-async", { body: RAW })).status).toBe(202);
    });
  });

  test("failed and deleted reports free their place", async () => {
    await withApp({ accountQueueLimit: 1 }, async (a) => {
      const id = await submit(a);
      await expectError(await a.request("POST", "/api/v1/generate-pdf-async", { body: RAW }), 429, "account_queue_full");
      expect((await a.request("DELETE", `/api/v1/reports/${id}`)).status).toBe(200);
      const id2 = await submit(a);
      const attempt = await claim(a, id2);
      await a.app.services.repos.queue.fail(id2, attempt, "x", "y", Date.now());
      expect((await a.request("POST", "/api/v1/generate-pdf-async", { body: EJS })).status).toBe(202);
    });
  });
});
