// The repository contract for usage (see repos-contract.test.ts), run against both backends, a real
// SQLite file and a real PostgreSQL 15: the daily roll-up that triggers keep must add up to exactly
// what the reports table says, per day and per key, through every path that changes a report's status
// (the queue's single and batched successes, failures, the reaper), keep counting deleted reports,
// and start from the reports already there when the migration runs.
import { describe, expect, test } from "bun:test";
import { migrations } from "../../migrations/index";
import { postgresMigrations } from "../../migrations/postgres/index";
import type { BackendWithRepos } from "../../src/app/repos";
import { migrate } from "../../src/db/migrate";
import { migratePostgres } from "../../src/db/migrate-postgres";
import type { Sql } from "../../src/db/sql";
import type { UsageTotals } from "../../src/modules/usage/repo";
import { BACKENDS, useBackends, uuid } from "./repos-contract-harness";

const { fresh } = useBackends();
const DAY = 86_400_000;
const D0 = 20_400; // 2025-11-08 in days since the epoch

/** Inserts a queued report with its submitting key, as a submission does (raw SQL: the trigger is under test, not the service). */
async function submit(sql: Sql, accountId: string, keyId: string | null, createdAt: number): Promise<string> {
  const id = uuid();
  await sql.run(
    `INSERT INTO reports (id, account_id, key_id, engine, status, template, attempts, created_at) VALUES ($1, $2, $3, 'raw', 'queued', '<p>x</p>', 0, $4)`,
    [id, accountId, keyId, createdAt],
  );
  return id;
}

type Truth = UsageTotals & { group: string | number };

/** The ground truth, straight from the reports table: per day or per key of one account. */
async function fromReports(sql: Sql, accountId: string, by: "day" | "key"): Promise<Truth[]> {
  const group = by === "day" ? "created_at / 86400000" : "coalesce(key_id, '')";
  const ok = "status IN ('succeeded', 'expired')";
  return sql.all<Truth>(
    `SELECT ${group} AS "group", count(*) AS submitted,
       CAST(sum(CASE WHEN ${ok} THEN 1 ELSE 0 END) AS BIGINT) AS succeeded,
       CAST(sum(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS BIGINT) AS failed,
       CAST(sum(CASE WHEN ${ok} THEN page_count ELSE 0 END) AS BIGINT) AS pages,
       CAST(sum(CASE WHEN ${ok} THEN size_bytes ELSE 0 END) AS BIGINT) AS bytes,
       CAST(sum(CASE WHEN ${ok} THEN finished_at - started_at ELSE 0 END) AS BIGINT) AS "renderMs"
     FROM reports WHERE account_id = $1 GROUP BY ${group} ORDER BY ${group}`,
    [accountId],
  );
}

async function rollup(b: BackendWithRepos, accountId: string, by: "day" | "key"): Promise<Truth[]> {
  if (by === "day") return (await b.repos.usage.byDay(accountId, 0, 100_000)).map(({ day, ...u }) => ({ group: day, ...u }));
  const rows = await b.repos.usage.byKey(accountId, 0, 100_000);
  return rows.map(({ keyId, ...u }) => ({ group: keyId, ...u })).sort((x, y) => String(x.group).localeCompare(String(y.group)));
}

for (const kind of BACKENDS) {
  describe(`repositories on ${kind}`, () => {
    test("usage: the roll-up equals the reports table per day and per key through every outcome path, and outlives deletion", async () => {
      const b = await fresh(kind);
      const { repos, sql } = b;
      const acme = await repos.accounts.ensure("acme");
      const beta = await repos.accounts.ensure("beta");
      // 18 reports of acme over three days and three keys (one not recorded), 2 of beta.
      const keys = ["kaaaaaaaaaaaa", "kbbbbbbbbbbbb", null];
      const acmeIds: string[] = [];
      for (let i = 0; i < 18; i++) acmeIds.push(await submit(sql, acme.id, keys[i % 3]!, (D0 + (i % 3)) * DAY + 1000 * i));
      for (let i = 0; i < 2; i++) await submit(sql, beta.id, "kcccccccccccc", D0 * DAY + i);
      const q = repos.queue;
      const start = D0 * DAY + 3 * DAY;
      const claimed = await q.claim(start, 60_000, 100);
      expect(claimed.length).toBe(20);
      // The claim's rows come back in no set order (PostgreSQL's UPDATE … RETURNING): the report that
      // succeeds alone, and is deleted below, is picked by id as one of acme's.
      const one = claimed.find((c) => c.id === acmeIds[0]);
      const rest = claimed.filter((c) => c !== one);
      // One success alone, six in one batch (one statement on PostgreSQL), four failures, two through the
      // reaper (out of attempts), the others left queued or processing.
      expect(
        await q.succeed({ id: one!.id, attempt: 1, sizeBytes: 1234, pageCount: 3, finishedAt: start + 777, expiresAt: start + DAY }),
      ).toBe(true);
      const batch = rest.slice(0, 6).map((c, i) => ({
        id: c.id,
        attempt: 1,
        sizeBytes: 1000 + i,
        pageCount: i + 1,
        finishedAt: start + 100 * (i + 1),
        expiresAt: start + DAY,
      }));
      expect((await q.succeedMany(batch)).length).toBe(6);
      for (const c of rest.slice(6, 10)) expect(await q.fail(c.id, 1, "template_error", "boom", start + 50)).toBe(true);
      for (const c of rest.slice(10, 13)) expect(await q.requeue(c.id, 1, true)).toBe(true);
      // The rest stays processing; two of them with a lease already run out are given up by the reaper.
      await sql.run("UPDATE reports SET lease_expires_at = $1 WHERE id IN ($2, $3)", [start - 1, rest[13]!.id, rest[14]!.id]);
      expect(await q.reap(1, start)).toEqual({ requeued: 0, failed: 2 });
      // An outcome that no longer holds (stale attempt) changes nothing.
      expect(await q.fail(one!.id, 1, "x", "y", start)).toBe(false);
      // Expiry (the retention job) is no new outcome.
      await repos.reports.markExpired([one!.id]);

      for (const by of ["day", "key"] as const) {
        for (const account of [acme.id, beta.id]) expect(await rollup(b, account, by)).toEqual(await fromReports(sql, account, by));
      }
      const totals = (await rollup(b, acme.id, "key")).reduce((n, u) => n + u.submitted, 0);
      expect(totals).toBe(18);
      const acmeByKey = await rollup(b, acme.id, "key");
      expect(acmeByKey.map((u) => u.group)).toEqual(["", "kaaaaaaaaaaaa", "kbbbbbbbbbbbb"]);
      expect(acmeByKey.every((u) => u.submitted === 6)).toBe(true);
      expect((await rollup(b, acme.id, "day")).reduce((n, u) => n + u.renderMs, 0)).toBeGreaterThan(0);

      // A deleted report leaves the reports table but stays in the usage of its day.
      const before = await rollup(b, acme.id, "day");
      expect(await repos.reports.delete(one!.id, acme.id)).toBeDefined();
      expect(await rollup(b, acme.id, "day")).toEqual(before);
      expect(await fromReports(sql, acme.id, "day")).not.toEqual(before);

      // Ranges: days outside are not counted.
      const d1 = await repos.usage.byDay(acme.id, D0 + 1, D0 + 1);
      expect(d1.map((u) => u.day)).toEqual([D0 + 1]);
      expect(d1[0]!.submitted).toBe(6);
      expect(await repos.usage.byKey(acme.id, D0 + 5, D0 + 9)).toEqual([]);
    });

    test("usage: the migration counts the reports already there, so the roll-up agrees from its first day", async () => {
      // Brought to the schema before usage, given reports, then migrated on.
      const raw = await fresh(kind, { migrate: false });
      if (raw.kind === "sqlite")
        migrate(
          raw.db!.$client,
          migrations.filter((m) => m.version < 12),
        );
      else
        await migratePostgres(
          raw.pg!,
          postgresMigrations.filter((m) => m.version < 4),
        );
      const acme = await raw.repos.accounts.ensure("acme");
      const ids = [];
      for (let i = 0; i < 4; i++) ids.push(await submit(raw.sql, acme.id, i < 2 ? "kaaaaaaaaaaaa" : null, D0 * DAY + i));
      const [c] = await raw.repos.queue.claim(D0 * DAY + 10, 60_000, 1);
      await raw.repos.queue.succeed({
        id: c!.id,
        attempt: 1,
        sizeBytes: 99,
        pageCount: 2,
        finishedAt: D0 * DAY + 60,
        expiresAt: D0 * DAY + DAY,
      });
      const [f] = await raw.repos.queue.claim(D0 * DAY + 10, 60_000, 1);
      await raw.repos.queue.fail(f!.id, 1, "template_error", "boom", D0 * DAY + 20);
      if (raw.kind === "sqlite") migrate(raw.db!.$client);
      else await migratePostgres(raw.pg!);
      for (const by of ["day", "key"] as const) expect(await rollup(raw, acme.id, by)).toEqual(await fromReports(raw.sql, acme.id, by));
      const [day] = await raw.repos.usage.byDay(acme.id, D0, D0);
      expect(day).toEqual({ day: D0, submitted: 4, succeeded: 1, failed: 1, pages: 2, bytes: 99, renderMs: 50 });
    });
  });
}
