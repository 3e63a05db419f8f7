// PostgreSQL going away under a running App, and coming back: requests get a 503 the client can retry
// (never a 500, nothing half-stored), /readyz says why, and the App reconnects by itself.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { usePostgres } from "../helpers/postgres";

const pg = usePostgres();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { databaseUrl: await pg().createDatabase() } });
}, 60_000);
afterAll(() => t?.close());

const RAW = { engine: "raw", html_template: "<p>outage</p>" };

test("database down: 503 database_unavailable with Retry-After and /readyz 503; back up: requests work again, nothing lost", async () => {
  const before = await t.request("POST", "/api/v1/generate-pdf-async", { body: RAW });
  expect(before.status).toBe(202);
  const { report_id } = (await before.json()) as { report_id: string };

  await pg().down("fast");
  try {
    const t0 = Date.now();
    const res = await t.request("GET", `/api/v1/reports/${report_id}`);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(((await res.json()) as { error: string }).error).toBe("database_unavailable");
    const submit = await t.request("POST", "/api/v1/generate-pdf-async", { body: RAW });
    expect(submit.status).toBe(503);
    expect(Date.now() - t0).toBeLessThan(15_000);
    const ready = await t.request("GET", "/readyz", { key: null });
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: { database: string } }).checks.database).toStartWith("not_writable");
  } finally {
    await pg().up();
  }

  // The pool reconnects on the next query; the key cache still holds the key.
  let again: Response | undefined;
  for (let i = 0; i < 50; i++) {
    again = await t.request("GET", `/api/v1/reports/${report_id}`);
    if (again.status === 200) break;
    await Bun.sleep(200);
  }
  expect(again?.status).toBe(200);
  expect(((await again!.json()) as { data: { status: string } }).data.status).toBe("queued");
  expect((await t.request("POST", "/api/v1/generate-pdf-async", { body: RAW })).status).toBe(202);
  // /readyz re-probes at most every 2 s.
  await Bun.sleep(2_100);
  const ready = await t.request("GET", "/readyz", { key: null });
  expect(((await ready.json()) as { checks: { database: string } }).checks.database).toBe("writable");
}, 60_000);
