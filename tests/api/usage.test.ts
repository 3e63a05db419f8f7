// GET /api/v1/usage on a real SQLite file: totals per day and per key against the reports table,
// the default range, from/to as dates or RFC 3339, account isolation, and every invalid query a 422
// that says how to fix it. (Both backends: tests/integration/repos-contract-usage.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { inlined } from "../helpers/openapi-check";
import { expectUnauthorized, expectValidation, seedUsage, submit, succeed } from "../helpers/scenario";

let t: TestApp;
let second: { id: string; value: string };
let other: string;
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

type Totals = { reports: { submitted: number; succeeded: number; failed: number }; pages: number; bytes: number; render_ms: number };
type Usage = { from: string; to: string; group_by: string; data: (Totals & Record<string, any>)[]; totals: Totals };

async function usage(query = "", key?: string): Promise<Usage> {
  const res = await t.request("GET", `/api/v1/usage${query}`, { key });
  expect(res.status).toBe(200);
  return (await res.json()) as Usage;
}

/** Today's totals of the account of the test key, straight from the reports table. */
async function fromReports(): Promise<Totals> {
  const r = (await t.app.services.backend.sql.get<Record<string, number>>(
    `SELECT count(*) AS submitted, sum(CASE WHEN status IN ('succeeded', 'expired') THEN 1 ELSE 0 END) AS succeeded,
       sum(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed,
       sum(CASE WHEN status IN ('succeeded', 'expired') THEN page_count ELSE 0 END) AS pages,
       sum(CASE WHEN status IN ('succeeded', 'expired') THEN size_bytes ELSE 0 END) AS bytes,
       sum(CASE WHEN status IN ('succeeded', 'expired') THEN finished_at - started_at ELSE 0 END) AS render_ms
     FROM reports r JOIN accounts a ON a.id = r.account_id WHERE a.name = 'acme'`,
  ))!;
  return {
    reports: { submitted: r.submitted!, succeeded: r.succeeded!, failed: r.failed! },
    pages: r.pages!,
    bytes: r.bytes!,
    render_ms: r.render_ms!,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  other = (await t.app.services.keys.createForAccount("other", "k")).value;
  second = await seedUsage(t);
  // Another account's report is never counted in acme's usage.
  await succeed(t, await submit(t, undefined, other), { pageCount: 7 });
});
afterAll(() => t.close());

describe("GET /usage", () => {
  test("without a key: the spec's 401", async () => {
    await expectUnauthorized(await t.request("GET", "/api/v1/usage", { key: null }));
  });

  test("group_by=day (the default): the last 30 days, zeros included; today and the totals match the reports table", async () => {
    const u = await usage();
    expect(u).toMatchObject({ from: daysAgo(29), to: today(), group_by: "day" });
    expect(u.data.map((d) => d.date)).toEqual(Array.from({ length: 30 }, (_, i) => daysAgo(29 - i)));
    const truth = await fromReports();
    expect(truth.reports).toEqual({ submitted: 5, succeeded: 3, failed: 1 });
    expect(truth.pages).toBe(10);
    const { date, ...last } = u.data.at(-1)!;
    expect(date).toBe(today());
    expect(last).toEqual(truth);
    expect(u.totals).toEqual(truth);
    expect(u.data.slice(0, -1).every((d) => d.reports.submitted === 0 && d.pages === 0)).toBe(true);
  });

  test("group_by=key: one entry per submitting key with its name, adding up to the totals", async () => {
    const u = await usage("?group_by=key");
    expect(u.group_by).toBe("key");
    const testKeyId = t.key.split("_")[1];
    expect(u.data.map((d) => [d.key_id, d.key_name, d.reports])).toEqual([
      [testKeyId, "test", { submitted: 3, succeeded: 2, failed: 1 }],
      [second.id, "second", { submitted: 2, succeeded: 1, failed: 0 }],
    ]);
    expect(u.data.map((d) => d.pages)).toEqual([5, 5]);
    expect(u.totals).toEqual(await fromReports());
    // The other account sees only its own key.
    const theirs = await usage("?group_by=key", other);
    expect(theirs.data.map((d) => [d.key_name, d.reports.submitted, d.pages])).toEqual([["k", 1, 7]]);
  });

  test("from/to: dates or RFC 3339 date-times (their UTC day), both days included", async () => {
    const u = await usage(`?from=${today()}T23:59:59Z&to=${today()}`);
    expect(u.data.map((d) => d.date)).toEqual([today()]);
    expect(u.totals).toEqual(await fromReports());
    // An offset moves the time to another UTC day: yesterday 23:30 at -02:00 is today 01:30 UTC.
    const shifted = await usage(`?from=${daysAgo(1)}T23:30:00-02:00&to=${today()}`);
    expect(shifted.from).toBe(today());
    const before = await usage(`?from=${daysAgo(400)}&to=${daysAgo(40)}`);
    expect(before.data.length).toBe(361);
    expect(before.totals.reports.submitted).toBe(0);
    expect((await usage(`?from=${daysAgo(365)}`)).data.length).toBe(366);
  });

  test("usage outlives a deleted report and a deleted key (its name then null)", async () => {
    const before = await usage("?group_by=key");
    const id = await submit(t, undefined, second.value);
    expect((await t.request("DELETE", `/api/v1/reports/${id}`)).status).toBeLessThan(300);
    expect((await t.request("DELETE", `/api/v1/access-keys/${second.id}`)).status).toBeLessThan(300);
    const after = await usage("?group_by=key");
    // Both keys now have 3 reports: found by id (ties are ordered by key id).
    expect(after.data.find((d) => d.key_id === second.id)).toMatchObject({
      key_id: second.id,
      key_name: null,
      reports: { submitted: 3, succeeded: 1, failed: 0 },
    });
    expect(after.totals.reports.submitted).toBe(before.totals.reports.submitted + 1);
  });

  const invalid: [string, string, string, RegExp][] = [
    ["from after to", `?from=${today()}&to=${daysAgo(1)}`, "from", /is after to.*swap them/],
    ["a range of 367 days", `?from=${daysAgo(366)}&to=${today()}`, "to", /spans 367 days; ask for at most 366/],
    ["an unknown group_by", "?group_by=month", "group_by", /query string is invalid/],
    ["no such calendar date", "?from=2026-02-30", "from", /must be a date \(YYYY-MM-DD, UTC\) or an RFC 3339 date-time/],
    ["a word", "?to=yesterday", "to", /got "yesterday"/],
    ["a date-time without its offset", "?from=2026-11-01T10:00:00", "from", /RFC 3339/],
  ];
  for (const [name, query, field, message] of invalid) {
    test(`422 for ${name}, naming ${field} and how to fix it`, async () => {
      const body = await expectValidation(await t.request("GET", `/api/v1/usage${query}`), field);
      expect(body.message).toMatch(message);
    });
  }

  test("the OpenAPI document describes the route with an example", async () => {
    const doc = inlined((await (await t.request("GET", "/api/v1/openapi.json", { key: null })).json()) as Record<string, any>);
    const op = doc.paths["/api/v1/usage"].get;
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(["from", "group_by", "to"]);
    const ok = op.responses["200"].content["application/json"].schema;
    expect(ok.examples[0].data[0].reports).toEqual({ submitted: 12, succeeded: 11, failed: 1 });
    expect(op.responses["422"]).toBeDefined();
  });
});
