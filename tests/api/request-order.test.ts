// The order of apiGuard's checks (src/http/auth.ts, the route rules of src/http/route-access.ts): authentication, then the
// route's scope, then a submission's daily quota, and only then the body. A refused call never learns
// whether its body was well-formed. And an empty body is no body on every route, whatever Content-Type
// says: many clients send Content-Type: application/json on every request, DELETEs included.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ALL_SCOPES, ROUTE_ACCESS } from "../../src/app/modules";
import { concrete, mintKey } from "../helpers/access";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
});
afterAll(() => t.close());

const scoped = Object.entries(ROUTE_ACCESS).filter(([r, a]) => r.split(" ")[1]!.startsWith("/api/v1/") && a !== "public");
const withBody = scoped.filter(([r]) => /^(POST|PATCH|DELETE) /.test(r));

/** A raw request over loopback, with exactly these headers and body. */
const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
  fetch(t.baseUrl + path, { method, headers, body });

describe("scope before body: a key lacking the route's scope gets 403, whatever body it sent", () => {
  for (const [route, needed] of withBody) {
    const [method, path] = route.split(" ") as [string, string];
    test(`${route}: malformed JSON, a wrong media type and an oversized declaration all answer 403`, async () => {
      const lacking = await mintKey(t, { scopes: ALL_SCOPES.filter((s) => s !== needed), name: `without ${needed}` });
      for (const [headers, body] of [
        [{ "content-type": "application/json" }, "{not json"],
        [{ "content-type": "text/plain" }, "hello"],
        [{ "content-type": "application/json", "content-length": String(64 * 1024 ** 2) }, undefined],
      ] as const) {
        const res = await send(method, concrete(path), { "x-api-key": lacking.value, ...headers }, body);
        const answer = (await res.json()) as { error: string; details?: { required_scope?: string } };
        expect({ route, headers, status: res.status, error: answer.error }).toEqual({ route, headers, status: 403, error: "forbidden" });
        expect(answer.details?.required_scope).toBe(needed as string);
      }
    });
  }

  test("without a key: 401 before anything else, malformed body or not", async () => {
    const res = await send("POST", "/api/v1/generate-pdf-async", { "content-type": "application/json" }, "{not json");
    expect(res.status).toBe(401);
    expect(await res.text()).toBe('{"error":"unauthorized"}');
  });
});

describe("quota before body", () => {
  test("a key that used up its quota gets 429 quota_exceeded for a malformed submission, and for a merge", async () => {
    const k = await mintKey(t, { maxReportsPerDay: 1, name: "one a day" });
    const ok = await t.request("POST", "/api/v1/generate-pdf-async", { key: k.value, body: { engine: "raw", html_template: "<p>1</p>" } });
    expect(ok.status).toBe(202);
    for (const path of ["/api/v1/generate-pdf-async", "/api/v1/reports/merge"]) {
      const res = await send("POST", path, { "x-api-key": k.value, "content-type": "application/json" }, "{not json");
      expect(res.status).toBe(429);
      expect(((await res.json()) as { error: string }).error).toBe("quota_exceeded");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });

  test("an Idempotency-Key retry of the day's last report is still answered with its report", async () => {
    const k = await mintKey(t, { maxReportsPerDay: 1, name: "retrying" });
    const req = { key: k.value, body: { engine: "raw", html_template: "<p>last</p>" }, headers: { "idempotency-key": "last-of-the-day" } };
    const first = await t.request("POST", "/api/v1/generate-pdf-async", req);
    expect(first.status).toBe(202);
    const again = await t.request("POST", "/api/v1/generate-pdf-async", req);
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    // A new request with a new Idempotency-Key is counted at its insert, and refused there.
    const other = await t.request("POST", "/api/v1/generate-pdf-async", { ...req, headers: { "idempotency-key": "another" } });
    expect(other.status).toBe(429);
  });

  test("reads are never refused for the quota", async () => {
    const k = await mintKey(t, { maxReportsPerDay: 1, name: "reader too" });
    await t.request("POST", "/api/v1/generate-pdf-async", { key: k.value, body: { engine: "raw", html_template: "<p>1</p>" } });
    expect((await t.request("GET", "/api/v1/reports", { key: k.value })).status).toBe(200);
  });
});

describe("an empty body is no body", () => {
  for (const [route] of scoped.filter(([r]) => !r.startsWith("GET "))) {
    const [method, path] = route.split(" ") as [string, string];
    test(`${route} with Content-Type: application/json and no body: never 400 invalid_json or 415`, async () => {
      const variants: Record<string, string>[] = [
        { "content-type": "application/json" },
        { "content-type": "application/json", "content-length": "0" },
        {},
      ];
      for (const headers of variants) {
        const res = await send(method, concrete(path), { "x-api-key": t.key, ...headers });
        const answer = (await res.json()) as { error?: string };
        expect({ route, headers, error: answer.error }).not.toEqual({ route, headers, error: "invalid_json" });
        expect({ route, headers, status: res.status }).not.toEqual({ route, headers, status: 415 });
        expect(res.status).toBeLessThan(500);
      }
    });
  }

  test("DELETE /reports/{id} and /templates/{id} with the header and no body act as without it", async () => {
    const made = await t.request("POST", "/api/v1/templates", { body: { name: "to delete", engine: "raw", html_template: "<p>x</p>" } });
    const templateId = ((await made.json()) as { template_id: string }).template_id;
    const del = await send("DELETE", `/api/v1/templates/${templateId}`, { "x-api-key": t.key, "content-type": "application/json" });
    expect(del.status).toBe(200);
    const sub = await t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "raw", html_template: "<p>x</p>" } });
    const reportId = ((await sub.json()) as { report_id: string }).report_id;
    const delReport = await send("DELETE", `/api/v1/reports/${reportId}`, { "x-api-key": t.key, "content-type": "application/json" });
    expect(delReport.status).toBe(200);
  });

  test("a route that needs fields answers 422 naming them", async () => {
    for (const [path, field] of [
      ["/api/v1/generate-pdf-async", "html_template"],
      ["/api/v1/templates", "name"],
      ["/api/v1/access-keys", "name"],
      ["/api/v1/reports/merge", "report_ids"],
    ] as const) {
      const res = await send("POST", path, { "x-api-key": t.key, "content-type": "application/json" });
      expect({ path, status: res.status }).toEqual({ path, status: 422 });
      expect(JSON.stringify(await res.json())).toContain(field);
    }
  });

  test("a route whose fields are all optional works with no body at all", async () => {
    const k = await mintKey(t, { name: "rotate me" });
    const res = await send("POST", `/api/v1/access-keys/${k.id}/rotate`, { "x-api-key": t.key });
    expect(res.status).toBe(200);
    expect((await send("POST", "/api/v1/webhook-secret/rotate", { "x-api-key": t.key })).status).toBe(200);
  });
});
