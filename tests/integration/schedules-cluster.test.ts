// A schedule's tick runs exactly once with two instances: two Apps on one real PostgreSQL database, and
// two Apps on one SQLite file. Both instances' tickers see every tick due and race to claim it (the test
// also makes them look at the same moments; the claims are counted through a spy on the repository:
// losers prove the race happened); each tick has one run and one report. A direct race of two connections on the same tick has exactly one winner.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SchedulesRepo } from "../../src/modules/schedules/repo";
import { createTestApp, type TestApp } from "../helpers/app";
import { usePostgres } from "../helpers/postgres";

const pg = usePostgres();

/** Every claim's outcome, from every instance in this process. */
const claims: boolean[] = [];
const realClaim = SchedulesRepo.prototype.claim;
beforeAll(() => {
  SchedulesRepo.prototype.claim = async function (this: SchedulesRepo, r) {
    const won = await realClaim.call(this, r);
    claims.push(won);
    return won;
  };
});
afterAll(() => {
  SchedulesRepo.prototype.claim = realClaim;
});

async function twoInstances(config: Record<string, unknown>): Promise<{ a: TestApp; b: TestApp; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "rg-sched-pair-"));
  const a = await createTestApp({ dir, config });
  const b = await createTestApp({ dir, config });
  return {
    a,
    b,
    close: async () => {
      await b.close();
      await a.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function exactlyOnce(a: TestApp, b: TestApp): Promise<void> {
  const tpl = (
    (await (await a.request("POST", "/api/v1/templates", { body: { name: "T", engine: "raw", html_template: "<p>x</p>" } })).json()) as any
  ).template_id;
  const c = await a.request("POST", "/api/v1/schedules", { body: { name: "every second", cron: "* * * * * *", template_id: tpl } });
  expect(c.status).toBe(201);
  const id = ((await c.json()) as any).data.id;
  claims.length = 0;
  const started = Date.now();
  // Besides their own timers, both instances look at the same moments: each tick is then claimed by
  // both at once, as on a cluster whose instances' clocks line up.
  while (Date.now() - started < 6_000) {
    await Promise.all([a.app.services.scheduleTicker.look(), b.app.services.scheduleTicker.look()]);
    await Bun.sleep(50);
  }
  // Paused through the other instance: both stop at once (they read the schedule on every look).
  expect((await b.request("PATCH", `/api/v1/schedules/${id}`, { body: { paused: true } })).status).toBe(200);
  const elapsed = (Date.now() - started) / 1000;
  await Bun.sleep(1_500);
  const runs = ((await (await b.request("GET", `/api/v1/schedules/${id}/runs?limit=100`)).json()) as any).data as any[];
  const ticks = runs.map((r) => r.scheduled_for);
  expect(new Set(ticks).size).toBe(ticks.length);
  expect(runs.every((r) => r.status === "submitted")).toBe(true);
  // One report per run: a losing claim made none.
  const reports = ((await (await a.request("GET", "/api/v1/reports?limit=100")).json()) as any).data as any[];
  expect(reports.filter((r) => r.template_id === tpl).length).toBe(runs.length);
  expect(new Set(runs.map((r) => r.report_id)).size).toBe(runs.length);
  // The ticks kept coming (a busy machine may skip one that was noticed late) ...
  expect(runs.length).toBeGreaterThanOrEqual(Math.floor(elapsed) - 2);
  // ... and the two instances did race for them.
  expect(claims.filter((w) => w).length).toBe(runs.length);
  expect(claims.filter((w) => !w).length).toBeGreaterThan(0);
  // How late each tick was claimed (a figure for the report, not a bound: the machine may be busy).
  const lags = runs.map((r) => Date.parse(r.created_at) - Date.parse(r.scheduled_for)).sort((x, y) => x - y);
  console.log(
    `${a.app.services.backend.kind}: ${runs.length} ticks in ${elapsed.toFixed(1)} s, ${claims.filter((w) => !w).length} claims lost to the other instance, claimed ${lags[Math.floor(lags.length / 2)]} ms after the tick (median), ${lags.at(-1)} ms at most`,
  );
}

/** Two connections claim the same tick at once, 50 times: one winner each time. */
async function directRace(a: TestApp, b: TestApp): Promise<void> {
  const tpl = (
    (await (await a.request("POST", "/api/v1/templates", { body: { name: "R", engine: "raw", html_template: "<p>r</p>" } })).json()) as any
  ).template_id;
  const c = await a.request("POST", "/api/v1/schedules", { body: { name: "race", cron: "0 0 1 1 *", template_id: tpl, paused: true } });
  const s = ((await c.json()) as any).data;
  const repos = [a, b].map((x) => new SchedulesRepo(x.app.services.backend.sql));
  const accountId = (await a.app.services.keys.accountId("acme")) as string;
  for (let i = 0; i < 50; i++) {
    const tick = Date.UTC(2030, 0, 1) + i * 1000;
    const won = await Promise.all(
      repos.map((r) =>
        r.claim({ id: crypto.randomUUID(), scheduleId: s.id, accountId, scheduledFor: tick, caughtUp: false, now: Date.now() }),
      ),
    );
    expect(won.filter(Boolean).length).toBe(1);
  }
}

describe("PostgreSQL: two instances", () => {
  let pair: Awaited<ReturnType<typeof twoInstances>>;
  beforeAll(async () => {
    pair = await twoInstances({ databaseUrl: await pg().createDatabase() });
  }, 120_000);
  afterAll(() => pair?.close(), 60_000);

  test("each tick runs once", () => exactlyOnce(pair.a, pair.b), 60_000);
  test("a direct race for one tick has one winner", () => directRace(pair.a, pair.b), 60_000);
});

describe("SQLite: two instances on one file", () => {
  let pair: Awaited<ReturnType<typeof twoInstances>>;
  beforeAll(async () => {
    pair = await twoInstances({});
  }, 60_000);
  afterAll(() => pair?.close(), 60_000);

  test("each tick runs once", () => exactlyOnce(pair.a, pair.b), 60_000);
  test("a direct race for one tick has one winner", () => directRace(pair.a, pair.b), 60_000);
});
