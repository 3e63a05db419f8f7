// Daily quotas over real HTTP: max_reports_per_day submissions per UTC day, then 429 quota_exceeded
// with Retry-After = seconds to the next UTC midnight; concurrent submissions never pass it; the
// quota is settable; each report records the key that submitted it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mintKey } from "../helpers/access";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
});
afterAll(() => t.close());

const submit = (key: string) =>
  t.request("POST", "/api/v1/generate-pdf-async", { key, body: { engine: "raw", html_template: "<p>quota</p>" } });
const secondsToMidnight = () => {
  const now = Date.now();
  return Math.ceil((Math.floor(now / 86_400_000 + 1) * 86_400_000 - now) / 1000);
};

test("beyond max_reports_per_day: 429 quota_exceeded with Retry-After until the next UTC midnight; nothing is queued", async () => {
  const k = await mintKey(t, { maxReportsPerDay: 2 });
  expect((await submit(k.value)).status).toBe(202);
  expect((await submit(k.value)).status).toBe(202);
  const res = await submit(k.value);
  expect(res.status).toBe(429);
  const body = (await res.json()) as { error: string; message: string };
  expect(body.error).toBe("quota_exceeded");
  expect(body.message).toContain("2 reports per UTC day");
  const retry = Number(res.headers.get("retry-after"));
  expect(Math.abs(retry - secondsToMidnight())).toBeLessThanOrEqual(2);
  const mine = t.app.services.backend.db!.$client.query("SELECT count(*) AS n FROM reports WHERE key_id = ?").get(k.id) as { n: number };
  expect(mine.n).toBe(2);
  // Other keys of the account are not affected; reads still work for this one.
  expect((await submit(t.key)).status).toBe(202);
  expect((await t.request("GET", "/api/v1/reports", { key: k.value })).status).toBe(200);
});

test("concurrent submissions never pass the quota", async () => {
  const k = await mintKey(t, { maxReportsPerDay: 5 });
  const statuses = await Promise.all(Array.from({ length: 12 }, () => submit(k.value).then((r) => r.status)));
  expect(statuses.filter((s) => s === 202)).toHaveLength(5);
  expect(statuses.filter((s) => s === 429)).toHaveLength(7);
});

test("a refused submission does not count (a 422 leaves the quota unused)", async () => {
  const k = await mintKey(t, { maxReportsPerDay: 1 });
  const bad = await t.request("POST", "/api/v1/generate-pdf-async", { key: k.value, body: { engine: "raw" } });
  expect(bad.status).toBe(422);
  expect((await submit(k.value)).status).toBe(202);
});

test("PATCH sets and removes the quota; GET /access-keys shows it; 0 and fractions are 422", async () => {
  const k = await mintKey(t, { maxReportsPerDay: 1 });
  expect((await submit(k.value)).status).toBe(202);
  expect((await submit(k.value)).status).toBe(429);
  const raised = await t.request("PATCH", `/api/v1/access-keys/${k.id}`, { body: { max_reports_per_day: 2 } });
  expect(raised.status).toBe(200);
  expect(((await raised.json()) as { data: { max_reports_per_day: number } }).data.max_reports_per_day).toBe(2);
  expect((await submit(k.value)).status).toBe(202); // counts what was submitted today: 2 of 2 now
  expect((await submit(k.value)).status).toBe(429);
  expect((await t.request("PATCH", `/api/v1/access-keys/${k.id}`, { body: { max_reports_per_day: null } })).status).toBe(200);
  expect((await submit(k.value)).status).toBe(202);
  const list = (await (await t.request("GET", "/api/v1/access-keys")).json()) as {
    data: { id: string; max_reports_per_day: number | null }[];
  };
  expect(list.data.find((x) => x.id === k.id)!.max_reports_per_day).toBeNull();
  for (const bad of [0, 1.5, -3])
    expect((await t.request("PATCH", `/api/v1/access-keys/${k.id}`, { body: { max_reports_per_day: bad } })).status).toBe(422);
  expect((await t.request("PATCH", "/api/v1/access-keys/abcdefghijkm", { body: { max_reports_per_day: 3 } })).status).toBe(404);
});

test("a quota given at creation over the API is kept and enforced", async () => {
  const res = await t.request("POST", "/api/v1/access-keys", { body: { name: "limited", max_reports_per_day: 1 } });
  expect(res.status).toBe(201);
  const created = (await res.json()) as { data: string; max_reports_per_day: number };
  expect(created.max_reports_per_day).toBe(1);
  expect((await submit(created.data)).status).toBe(202);
  expect((await submit(created.data)).status).toBe(429);
});

test("each report records the key that submitted it, kept after the key is deleted", async () => {
  const k = await mintKey(t);
  const { report_id } = (await (await submit(k.value)).json()) as { report_id: string };
  await t.app.services.keys.delete(k.id);
  const row = t.app.services.backend.db!.$client.query("SELECT key_id FROM reports WHERE id = ?").get(report_id) as { key_id: string };
  expect(row.key_id).toBe(k.id);
});
