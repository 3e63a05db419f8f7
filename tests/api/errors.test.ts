// The error contract: every error is JSON {error: <string code>, message: <string>} (401 is exactly
// {"error":"unauthorized"}), unknown routes are 404 route_not_found, and a server fault is a 500
// that leaks nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { expectError, fail, RAW, rawRequest, submit, UNAUTHORIZED } from "../helpers/scenario";

let t: TestApp;

describe("error bodies", () => {
  let failedId: string;
  let queuedId: string;
  beforeAll(async () => {
    t = await createTestApp({ config: { bodyLimit: 2000, accountQueueLimit: 3 } });
    queuedId = await submit(t);
    failedId = await submit(t);
    await fail(t, failedId, "template_error", "boom");
  });
  afterAll(() => t.close());

  const json = { "content-type": "application/json" };
  const cases: [string, () => Promise<Response>, number, string][] = [
    ["unknown route (GET)", () => t.request("GET", "/api/v1/nope"), 404, "route_not_found"],
    ["unknown route (DELETE)", () => t.request("DELETE", "/api/v1/nope/123"), 404, "route_not_found"],
    ["unknown route (POST, JSON)", () => t.request("POST", "/api/v1/nope", { body: {} }), 404, "route_not_found"],
    ["the bare prefix", () => t.request("GET", "/api/v1"), 404, "route_not_found"],
    ["wrong method on a known path", () => t.request("DELETE", "/api/v1/reports"), 404, "route_not_found"],
    ["unknown route outside /api/v1", () => t.request("GET", "/nope", { key: null }), 404, "route_not_found"],
    ["unknown report", () => t.request("GET", `/api/v1/reports/${crypto.randomUUID()}`), 404, "not_found"],
    ["unknown key id", () => t.request("DELETE", "/api/v1/access-keys/abcdefghijkm"), 404, "not_found"],
    [
      "malformed JSON",
      () => rawRequest(t, "POST", "/api/v1/generate-pdf-async", { headers: { ...json, "x-api-key": t.key }, body: "{" }),
      400,
      "invalid_json",
    ],
    ["bogus cursor", () => t.request("GET", "/api/v1/reports?cursor=nope"), 400, "invalid_cursor"],
    ["validation", () => t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "pdf" } }), 422, "validation_failed"],
    ["query validation", () => t.request("GET", "/api/v1/reports?status=done"), 422, "validation_failed"],
    [
      "service-level validation (ejs data)",
      () => t.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: "x", engine: "ejs" } }),
      422,
      "validation_failed",
    ],
    ["key name validation", () => t.request("POST", "/api/v1/access-keys", { body: { name: " " } }), 422, "validation_failed"],
    [
      "wrong content type",
      () =>
        rawRequest(t, "POST", "/api/v1/generate-pdf-async", { headers: { "content-type": "text/plain", "x-api-key": t.key }, body: "x" }),
      415,
      "unsupported_media_type",
    ],
    [
      "body too large",
      () =>
        t.request("POST", "/api/v1/generate-pdf-async", {
          body: JSON.stringify({ ...RAW, html_template: "x".repeat(3000) }),
          headers: { "content-length": "3040" },
        }),
      413,
      "payload_too_large",
    ],
    ["report failed", () => t.request("GET", `/api/v1/reports/${failedId}/download`), 409, "report_failed"],
    ["bad link", () => t.request("GET", `/files/${crypto.randomUUID()}?expires=1&signature=abc`, { key: null }), 403, "link_invalid"],
  ];

  for (const [label, call, status, code] of cases) {
    test(`${label} → ${status} ${code}`, async () => {
      const body = await expectError(await call(), status, code);
      for (const [k, v] of Object.entries(body)) {
        expect(["error", "message", "details"]).toContain(k);
        if (k !== "details") expect(typeof v).toBe("string");
      }
    });
  }

  test("route_not_found names the method and path and points to the docs", async () => {
    const body = await expectError(await t.request("GET", "/api/v1/nope"), 404, "route_not_found");
    expect(body.message).toContain("GET /api/v1/nope");
    expect(body.message).toContain("/api/v1/docs");
  });

  test("validation details are a list of {field, problem} strings", async () => {
    const body = await expectError(
      await t.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: 1, engine: 2 } }),
      422,
      "validation_failed",
    );
    expect(Array.isArray(body.details)).toBe(true);
    expect(body.details.length).toBeGreaterThan(0);
    for (const d of body.details) {
      expect(Object.keys(d).sort()).toEqual(["field", "problem"]);
      expect(typeof d.field).toBe("string");
      expect(typeof d.problem).toBe("string");
    }
  });

  test("the queue-full errors carry a Retry-After header", async () => {
    // accountQueueLimit is 3; one report is queued (the failed one no longer counts).
    expect(await t.app.services.repos.reports.countUnfinished()).toBe(1);
    void queuedId;
    await submit(t);
    await submit(t);
    const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: RAW });
    await expectError(res, 429, "account_queue_full");
    expect(res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
  });

  test("401 is exactly the specified body, nothing more", async () => {
    const res = await t.request("GET", "/api/v1/reports", { key: "nope" });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.text()).toBe(UNAUTHORIZED);
  });
});

describe("server faults", () => {
  test("an unexpected failure is a 500 internal_error that leaks no detail", async () => {
    const a = await createTestApp();
    try {
      // Warm the key cache, then pull the database out from under the app.
      expect((await a.request("GET", "/api/v1/reports")).status).toBe(200);
      a.app.services.backend.db!.$client.exec("DROP TABLE reports");
      const res = await a.request("GET", "/api/v1/reports");
      const body = await expectError(res, 500, "internal_error");
      expect(Object.keys(body).sort()).toEqual(["error", "message"]);
      expect(body.message).not.toMatch(/reports|sqlite|table|stack|at \//i);
    } finally {
      await a.close();
    }
  });
});
