// What an operator reads: /livez, /readyz, /metrics (Prometheus text) and X-Request-Id on every answer.

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const raw = { engine: "raw", html_template: "<p>hi</p>" };

/** The value of one series in exposition text, e.g. series(text, 'reportgen_reports{status="queued"}'). */
function series(text: string, name: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

async function scrape(): Promise<string> {
  const res = await t.request("GET", "/metrics", { key: null });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return res.text();
}

describe("probes", () => {
  test("/livez answers 200 whenever the process answers", async () => {
    const res = await t.request("GET", "/livez", { key: null });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe("ok");
  });

  test("/readyz is 503 with the failing check while no renderer runs (API-only app), database and disk fine", async () => {
    const res = await t.request("GET", "/readyz", { key: null });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    const body = (await res.json()) as any;
    expect(body.status).toBe("not_ready");
    expect(body.checks.renderer).toBe("not_ready");
    expect(body.checks.database).toBe("writable");
    expect(body.checks.disk.state).toBe("ok");
    expect(body.checks.disk.free_bytes).toBeGreaterThan(body.checks.disk.min_free_bytes);
  });

  test("/readyz really writes: the probe row's time moves", async () => {
    const db = new Database(join(t.dir, "reportgen.db"), { readonly: true });
    const row = db.query<{ checked_at: number }, []>("SELECT checked_at FROM health_probe WHERE name = 'readyz'").get();
    db.close();
    expect(row?.checked_at).toBeGreaterThan(Date.now() - 60_000);
  });

  test("/healthz keeps its v1 shape", async () => {
    const res = await t.request("GET", "/healthz", { key: null });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: "degraded", renderer: "starting" });
  });
});

describe("X-Request-Id", () => {
  const cases: { name: string; sent?: string; kept: boolean }[] = [
    { name: "absent: a new UUID", kept: false },
    { name: "a UUID is kept", sent: "3f2b8c1e-7a4d-4c2a-9b1e-5d6f7a8b9c0d", kept: true },
    { name: "a trace-style id is kept", sent: "req_01HZX.abc:42-x", kept: true },
    { name: "too long is replaced", sent: "a".repeat(129), kept: false },
    { name: "unsafe characters are replaced", sent: 'abc"><script>', kept: false },
    { name: "spaces are replaced", sent: "a b", kept: false },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await t.request("GET", "/api/v1/reports", { headers: c.sent ? { "x-request-id": c.sent } : {} });
      expect(res.status).toBe(200);
      const id = res.headers.get("x-request-id");
      if (c.kept) expect(id).toBe(c.sent!);
      else expect(id).toMatch(UUID);
    });
  }

  test("every kind of answer carries one: 401 before routing, 404, 422, 202, the probes, a download", async () => {
    const answers = [
      await t.request("GET", "/api/v1/reports", { key: null }),
      await t.request("GET", "/api/v1/nope"),
      await t.request("GET", "/nope", { key: null }),
      await t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "raw" } }),
      await t.request("POST", "/api/v1/generate-pdf-async", { body: raw }),
      await t.request("GET", "/livez", { key: null }),
      await t.request("GET", "/metrics", { key: null }),
      await t.request("GET", "/files/x?expires=1&signature=x", { key: null }),
    ];
    expect(answers.map((r) => r.status)).toEqual([401, 404, 404, 422, 202, 200, 200, 403]);
    for (const r of answers) expect(r.headers.get("x-request-id")).toMatch(UUID);
    expect(new Set(answers.map((r) => r.headers.get("x-request-id"))).size).toBe(answers.length);
  });

  test("the submitting request's id is stored with the report (its rendering logs it)", async () => {
    const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: raw, headers: { "x-request-id": "submit-42" } });
    expect(res.status).toBe(202);
    const { report_id } = (await res.json()) as { report_id: string };
    const db = new Database(join(t.dir, "reportgen.db"), { readonly: true });
    const row = db.query<{ request_id: string }, [string]>("SELECT request_id FROM reports WHERE id = ?").get(report_id);
    db.close();
    expect(row?.request_id).toBe("submit-42");
  });
});

describe("/metrics", () => {
  test("reports by status, queue depth, restarts, build info; valid exposition lines", async () => {
    const before = await scrape();
    const queued = series(before, 'reportgen_reports{status="queued"}') ?? 0;
    expect((await t.request("POST", "/api/v1/generate-pdf-async", { body: raw })).status).toBe(202);
    const text = await scrape();
    expect(series(text, 'reportgen_reports{status="queued"}')).toBe(queued + 1);
    expect(series(text, "reportgen_queue_depth")).toBe(queued + 1);
    expect(series(text, "reportgen_reports_rendering")).toBe(0);
    expect(series(text, "reportgen_renderer_ready")).toBe(0);
    expect(series(text, 'reportgen_process_restarts_total{kind="chromium"}')).toBe(0);
    expect(series(text, 'reportgen_process_restarts_total{kind="sandbox"}')).toBe(0);
    expect(series(text, "reportgen_storage_ok")).toBe(1);
    expect(series(text, "reportgen_storage_free_bytes")).toBeGreaterThan(0);
    expect(text).toMatch(/^reportgen_build_info\{version="\d+\.\d+\.\d+"\} 1$/m);
    expect(text).toContain("# TYPE reportgen_template_duration_seconds histogram");
    expect(text).toContain("# TYPE reportgen_render_duration_seconds histogram");
    // Every line is a comment or `name{labels} value`.
    for (const line of text.trimEnd().split("\n"))
      expect(line).toMatch(/^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{[a-z_]+="[^"\n]*"(,[a-z_]+="[^"\n]*")*\})? [-+0-9.eInfa]+)$/);
  });

  test("HTTP requests are counted by route pattern (not the raw path) and status; 401s count as auth failures", async () => {
    const before = await scrape();
    const fails = series(before, "reportgen_auth_failures_total") ?? 0;
    const notFoundSeries = 'reportgen_http_requests_total{method="GET",route="/api/v1/reports/:reportID",status="404"}';
    const n404 = series(before, notFoundSeries) ?? 0;
    for (let i = 0; i < 3; i++) {
      expect((await t.request("GET", `/api/v1/reports/${crypto.randomUUID()}`)).status).toBe(404);
      expect((await t.request("GET", "/api/v1/reports", { key: "rg_wrong_key" })).status).toBe(401);
    }
    expect((await t.request("GET", `/api/v1/no/such/${crypto.randomUUID()}`)).status).toBe(404);
    const text = await scrape();
    expect(series(text, notFoundSeries)).toBe(n404 + 3);
    expect(series(text, "reportgen_auth_failures_total")).toBe(fails + 3);
    expect(series(text, 'reportgen_http_requests_total{method="GET",route="/api/v1/reports",status="401"}')).toBeGreaterThanOrEqual(3);
    expect(series(text, 'reportgen_http_requests_total{method="GET",route="(unmatched)",status="404"}')).toBeGreaterThanOrEqual(1);
    // No raw ids in label values: cardinality stays bounded.
    expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}/);
    expect(series(text, "reportgen_http_request_duration_seconds_count")).toBeGreaterThan(0);
  });
});

describe("/metrics behind --metrics-token", () => {
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await createTestApp({ config: { metricsToken: "s3cret-token-for-prometheus" } });
  });
  afterAll(() => guarded.close());

  test("without or with a wrong token: 401; with it: 200", async () => {
    expect((await guarded.request("GET", "/metrics", { key: null })).status).toBe(401);
    expect((await guarded.request("GET", "/metrics", { key: null, headers: { authorization: "Bearer nope" } })).status).toBe(401);
    const ok = await guarded.request("GET", "/metrics", { key: null, headers: { authorization: "Bearer s3cret-token-for-prometheus" } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("reportgen_queue_depth");
    // A wrong metrics token is not an API authentication failure.
    expect(guarded.app.metrics.authFailures.get()).toBe(0);
  });
});
