// GET /api/v1/usage on PostgreSQL (a real PostgreSQL 15): the same API as on SQLite (tests/api/usage.test.ts),
// its totals per day and per key against the reports table, and the same numbers after a report is deleted.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { usePostgres } from "../helpers/postgres";
import { seedUsage, submit } from "../helpers/scenario";

const pg = usePostgres();
let t: TestApp;
let second: { id: string; value: string };

type Totals = { reports: { submitted: number; succeeded: number; failed: number }; pages: number; bytes: number; render_ms: number };

beforeAll(async () => {
  t = await createTestApp({ config: { databaseUrl: await pg().createDatabase() } });
  second = await seedUsage(t);
}, 60_000);
afterAll(() => t?.close());

/** The account's totals per key, straight from the reports table. */
async function fromReports(): Promise<Record<string, Totals>> {
  const rows = await t.app.services.backend.sql.all<Record<string, number> & { key_id: string }>(
    `SELECT r.key_id, count(*) AS submitted,
       CAST(sum(CASE WHEN status IN ('succeeded', 'expired') THEN 1 ELSE 0 END) AS BIGINT) AS succeeded,
       CAST(sum(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS BIGINT) AS failed,
       CAST(sum(CASE WHEN status IN ('succeeded', 'expired') THEN page_count ELSE 0 END) AS BIGINT) AS pages,
       CAST(sum(CASE WHEN status IN ('succeeded', 'expired') THEN size_bytes ELSE 0 END) AS BIGINT) AS bytes,
       CAST(sum(CASE WHEN status IN ('succeeded', 'expired') THEN finished_at - started_at ELSE 0 END) AS BIGINT) AS render_ms
     FROM reports r JOIN accounts a ON a.id = r.account_id WHERE a.name = 'acme' GROUP BY r.key_id`,
  );
  return Object.fromEntries(
    rows.map((r) => [
      r.key_id,
      {
        reports: { submitted: r.submitted!, succeeded: r.succeeded!, failed: r.failed! },
        pages: r.pages!,
        bytes: r.bytes!,
        render_ms: r.render_ms!,
      },
    ]),
  );
}

async function usage(query: string): Promise<{ data: (Totals & Record<string, any>)[]; totals: Totals }> {
  const res = await t.request("GET", `/api/v1/usage${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as never;
}

test("per key and per day, usage equals the reports table; a deleted report still counts", async () => {
  const truth = await fromReports();
  const byKey = await usage("?group_by=key");
  expect(Object.fromEntries(byKey.data.map(({ key_id, key_name: _, ...u }) => [key_id, u]))).toEqual(truth);
  expect(truth[second.id]!.reports).toEqual({ submitted: 2, succeeded: 1, failed: 0 });
  const byDay = await usage("");
  expect(byDay.data.length).toBe(30);
  const { date: _, ...today } = byDay.data.at(-1)!;
  expect(today).toEqual(byDay.totals);
  expect(byDay.totals.reports).toEqual({ submitted: 5, succeeded: 3, failed: 1 });
  expect(byDay.totals.pages).toBe(10);

  const id = await submit(t, undefined, second.value);
  expect((await t.request("DELETE", `/api/v1/reports/${id}`)).status).toBeLessThan(300);
  expect((await usage("")).totals.reports.submitted).toBe(6);
  expect((await fromReports())[second.id]!.reports.submitted).toBe(2);
});
