// One contract for the repositories, run against both backends: a real SQLite file in a temp data dir
// and a real PostgreSQL 15 (a fresh database per backend instance). The same tests, the same
// expectations: a behaviour cannot exist in one backend only. Migrations, accounts, keys, sessions,
// reports, webhooks, idempotency, job leases and health here; the queue: repos-contract-queue.test.ts.
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postgresMigrations } from "../../migrations/postgres/index";
import { openRepos } from "../../src/app/repos";
import { BACKENDS, done, newKey, newReport, useBackends, uuid } from "./repos-contract-harness";

const { pg, dirs, opened, fresh } = useBackends();

for (const kind of BACKENDS) {
  describe(`repositories on ${kind}`, () => {
    test("migrations: a second open applies nothing; every repository answers on an empty database", async () => {
      const a = await fresh(kind);
      expect(a.migrated.applied.length).toBeGreaterThan(0);
      const b = await fresh(kind, { dir: a.dir, url: a.url });
      expect(b.migrated.applied).toEqual([]);
      expect(b.migrated.version).toBe(a.migrated.version);
      expect(await b.repos.accounts.all()).toEqual([]);
      expect(await b.repos.reports.countUnfinished()).toBe(0);
      expect(await b.repos.health.reportsByStatus()).toEqual({});
    });

    test("accounts: ensure is idempotent and keeps the first id; timestamps come back as exact millisecond numbers", async () => {
      const { repos } = await fresh(kind);
      const at = 1_732_000_000_123;
      const a = await repos.accounts.ensure("acme", at);
      expect(await repos.accounts.ensure("acme", at + 5)).toEqual(a);
      expect(a).toEqual({ id: a.id, name: "acme", createdAt: at });
      expect(typeof a.createdAt).toBe("number");
      expect(await repos.accounts.findByName("nobody")).toBeUndefined();
      await repos.accounts.ensure("beta", at + 1);
      expect((await repos.accounts.all()).map((x) => x.name)).toEqual(["acme", "beta"]);
    });

    test("keys: insert, look up, list newest first (per account or all), touch, check value, delete (scoped)", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const beta = await repos.accounts.ensure("beta");
      const k1 = newKey(acme.id, { createdAt: 1000 });
      const k2 = newKey(acme.id, { createdAt: 2000 });
      const k3 = newKey(beta.id, { createdAt: 3000 });
      for (const k of [k1, k2, k3]) await repos.keys.insert(k);
      expect(await repos.keys.findSecret(k1.id)).toEqual({
        id: k1.id,
        accountId: acme.id,
        secretHash: k1.secretHash,
        secretCheck: null,
        previousSecretHash: null,
        previousSecretCheck: null,
        previousValidUntil: null,
        scopes: "reports:write reports:read",
        expiresAt: null,
        maxReportsPerDay: null,
      });
      expect(await repos.keys.findSecret("unknown")).toBeUndefined();
      expect((await repos.keys.list(acme.id)).map((k) => k.id)).toEqual([k2.id, k1.id]);
      expect((await repos.keys.list()).map((k) => [k.id, k.accountName])).toEqual([
        [k3.id, "beta"],
        [k2.id, "acme"],
        [k1.id, "acme"],
      ]);
      await repos.keys.touch(k1.id, 5555);
      await repos.keys.setCheck(k1.id, "chk");
      expect((await repos.keys.list(acme.id)).find((k) => k.id === k1.id)?.lastUsedAt).toBe(5555);
      expect((await repos.keys.findSecret(k1.id))?.secretCheck).toBe("chk");
      expect(await repos.keys.delete(k3.id, acme.id)).toBeUndefined(); // another account's key
      expect(await repos.keys.delete(k3.id)).toBe(beta.id);
      expect(await repos.keys.delete(k3.id)).toBeUndefined();
    });

    test("sessions: insert, read, touch, expire; deleting the key deletes its sessions", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const key = newKey(acme.id);
      await repos.keys.insert(key);
      const row = { idHash: "h1", keyId: key.id, accountId: acme.id, csrfToken: "c", createdAt: 10, lastSeenAt: 10, expiresAt: 1000 };
      await repos.sessions.insert(row);
      await repos.sessions.insert({ ...row, idHash: "h2", expiresAt: 5 });
      expect(await repos.sessions.get("h1")).toEqual({
        ...row,
        keyScopes: "reports:write reports:read",
        keyMaxReportsPerDay: null,
        keyExpiresAt: null,
      });
      await repos.sessions.touch("h1", 20);
      expect((await repos.sessions.get("h1"))?.lastSeenAt).toBe(20);
      expect(await repos.sessions.deleteExpired(10, 0)).toBe(1);
      expect(await repos.sessions.get("h2")).toBeUndefined();
      await repos.keys.delete(key.id);
      expect(await repos.sessions.get("h1")).toBeUndefined();
    });

    test("reports: insert, read, list pages (ties in the same millisecond), count, delete", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const other = await repos.accounts.ensure("other");
      const at = 1_732_000_000_000;
      const rows = Array.from({ length: 5 }, () => newReport(acme.id, { createdAt: at }));
      for (const r of rows) await repos.reports.insert(r);
      await repos.reports.insert(newReport(other.id));
      const one = await repos.reports.get(rows[0]!.id, acme.id);
      expect(one).toMatchObject({
        id: rows[0]!.id,
        accountId: acme.id,
        engine: "raw",
        status: "queued",
        attempts: 0,
        createdAt: at,
        startedAt: null,
      });
      expect(await repos.reports.get(rows[0]!.id, other.id)).toBeUndefined();
      expect((await repos.reports.getForDownload(rows[0]!.id))?.id).toBe(rows[0]!.id);
      const seen: string[] = [];
      let after: { createdAt: number; id: string } | undefined;
      for (;;) {
        const page = await repos.reports.list({ accountId: acme.id, limit: 2, after });
        seen.push(...page.map((r) => r.id));
        if (page.length < 2) break;
        after = { createdAt: page.at(-1)!.createdAt, id: page.at(-1)!.id };
      }
      expect(seen).toEqual(
        rows
          .map((r) => r.id)
          .sort()
          .reverse(),
      );
      expect(await repos.reports.list({ accountId: acme.id, limit: 10, status: "failed" })).toEqual([]);
      // A status and a position together: the page after the second report, queued ones only.
      const queued = await repos.reports.list({ accountId: acme.id, limit: 2, status: "queued", after: { createdAt: at, id: seen[1]! } });
      expect(queued.map((r) => r.id)).toEqual(seen.slice(2, 4));
      expect(await repos.reports.countUnfinished()).toBe(6);
      expect(await repos.reports.countUnfinished(acme.id)).toBe(5);
      // Both limits of a submission in one statement: the same figures, as numbers (PostgreSQL's bigint too).
      expect(await repos.reports.unfinishedCounts(acme.id)).toEqual({ total: 6, account: 5 });
      expect(await repos.reports.unfinishedCounts(uuid())).toEqual({ total: 6, account: 0 });
      expect(await repos.reports.countByStatus(acme.id)).toEqual({ queued: 5 });
      expect((await repos.reports.delete(rows[1]!.id, acme.id))?.id).toBe(rows[1]!.id);
      expect(await repos.reports.delete(rows[1]!.id, acme.id)).toBeUndefined();
      expect(await repos.reports.existing([rows[0]!.id, rows[1]!.id, uuid()])).toEqual(new Set([rows[0]!.id]));
    });

    test("a transaction that throws leaves nothing behind; one that returns commits all of it", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const r = newReport(acme.id);
      await expect(
        repos.reports.transaction(async () => {
          await repos.reports.insert(r);
          await repos.webhooks.attach(r.id, "https://example.com/hook", "https://rg");
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await repos.reports.getForDownload(r.id)).toBeUndefined();
      await repos.reports.transaction(async () => {
        await repos.reports.insert(r);
        await repos.webhooks.attach(r.id, "https://example.com/hook", "https://rg");
      });
      expect(await repos.webhooks.webhookUrl(r.id)).toBe("https://example.com/hook");
    });

    test("retention: due reports are listed and marked expired once", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const rows = Array.from({ length: 2 }, () => newReport(acme.id));
      for (const r of rows) await repos.reports.insert(r);
      const claimed = await repos.queue.claim(Date.now(), 10_000, 2);
      await repos.queue.succeedMany(claimed.map((c, i) => ({ ...done(c.id, c.attempts), expiresAt: i === 0 ? 100 : Date.now() + 60_000 })));
      const due = await repos.reports.dueForExpiry(Date.now(), 10);
      expect(due).toEqual([{ id: claimed[0]!.id }]);
      await repos.reports.markExpired(due.map((d) => d.id));
      expect(await repos.reports.dueForExpiry(Date.now(), 10)).toEqual([]);
      expect(await repos.reports.countByStatus(acme.id)).toEqual({ expired: 1, succeeded: 1 });
      expect((await repos.reports.recentlyRendered(acme.id, 10)).length).toBe(2);
    });

    test("webhooks: the final status queues one delivery; a claimed delivery is not handed out again until its lease runs out", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const r = newReport(acme.id);
      await repos.reports.transaction(async () => {
        await repos.reports.insert(r);
        await repos.webhooks.attach(r.id, "https://example.com/hook", "https://rg.example");
      });
      const [c] = await repos.queue.claim(Date.now(), 10_000);
      const t0 = Date.now();
      await repos.queue.fail(r.id, c!.attempts, "template_error", "boom", t0);
      const { deliveries } = await repos.webhooks.deliveries(r.id);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ event: "report.failed", status: "pending", attempts: 0, nextAttemptAt: t0 });
      const [d] = await repos.webhooks.claimDue(t0, 5, 30_000);
      expect(d).toMatchObject({ reportId: r.id, accountId: acme.id, url: "https://example.com/hook", linkOrigin: "https://rg.example" });
      expect(await repos.webhooks.claimDue(t0 + 1_000, 5, 30_000)).toEqual([]);
      expect((await repos.webhooks.claimDue(t0 + 31_000, 5, 30_000)).map((x) => x.id)).toEqual([d!.id]);
      await repos.webhooks.recordAttempt(
        { deliveryId: d!.id, startedAt: t0, durationMs: 12, responseStatus: 500, error: null },
        { status: "pending", nextAttemptAt: t0 + 5_000 },
      );
      await repos.webhooks.leased.release([d!.id], t0 + 1);
      const log = await repos.webhooks.deliveries(r.id);
      expect(log.deliveries[0]).toMatchObject({ attempts: 1, lastError: "answered 500", nextAttemptAt: t0 + 1 });
      expect(log.attempts).toEqual([{ deliveryId: d!.id, startedAt: t0, durationMs: 12, responseStatus: 500, error: null }]);
      expect(await repos.webhooks.leased.nextDueAt()).toBe(t0 + 1);
    });

    test("webhook secrets: the first insert wins; a rotation keeps the previous secret with its expiry", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      await repos.webhooks.insertSecret(acme.id, "whsec_a", 1);
      await repos.webhooks.insertSecret(acme.id, "whsec_b", 2);
      expect(await repos.webhooks.secret(acme.id)).toEqual({
        secret: "whsec_a",
        createdAt: 1,
        previousSecret: null,
        previousExpiresAt: null,
      });
      await repos.webhooks.rotateSecret(acme.id, "whsec_c", 10, 99);
      expect(await repos.webhooks.secret(acme.id)).toEqual({
        secret: "whsec_c",
        createdAt: 10,
        previousSecret: "whsec_a",
        previousExpiresAt: 99,
      });
    });

    test("idempotency: a live key cannot be stored twice (the unique index decides); an expired one is replaced; purge", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const idem = repos.idempotency;
      expect(await idem.insert(acme.id, "kh", "fp1", "resp1", 1000, 0)).toBe(true);
      expect(await idem.insert(acme.id, "kh", "fp2", "resp2", 1001, 0)).toBe(false);
      expect(await idem.find(acme.id, "kh", 0)).toEqual({ fingerprint: "fp1", response: "resp1", createdAt: 1000 });
      expect(await idem.insert(acme.id, "kh", "fp3", "resp3", 5000, 1000)).toBe(true);
      expect((await idem.find(acme.id, "kh", 0))?.fingerprint).toBe("fp3");
      expect(await idem.find(acme.id, "kh", 5000)).toBeUndefined();
      expect(await idem.purge(5000)).toBe(1);
    });

    test("job leases: one holder at a time; renewable by its holder; taken over once expired; released", async () => {
      const { repos } = await fresh(kind);
      const jobs = repos.jobs;
      expect(await jobs.acquire("cleanup", "a", 1000, 100)).toBe(true);
      expect(await jobs.acquire("cleanup", "b", 1050, 100)).toBe(false);
      expect(await jobs.acquire("cleanup", "a", 1050, 100)).toBe(true);
      expect(await jobs.acquire("cleanup", "b", 1200, 100)).toBe(true);
      await jobs.release("cleanup", "b");
      expect(await jobs.acquire("cleanup", "c", 1201, 100)).toBe(true);
    });

    test("health: the probe write commits; counts by status", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      await repos.health.probeWrite(1);
      await repos.health.probeWrite(2);
      await repos.reports.insert(newReport(acme.id));
      expect(await repos.health.reportsByStatus()).toEqual({ queued: 1 });
    });
  });
}

describe("PostgreSQL only", () => {
  test("N instances starting at once on an empty database migrate it once", async () => {
    const url = await pg().createDatabase();
    const dir = mkdtempSync(join(tmpdir(), "rg-contract-"));
    dirs.push(dir);
    const all = await Promise.all(Array.from({ length: 4 }, () => openRepos({ dataDir: dir, databaseUrl: url })));
    opened.push(...all);
    const applied = all.map((b) => b.migrated.applied.length);
    expect(applied.filter((n) => n > 0)).toHaveLength(1);
    const rows = await all[0]!.sql.all<{ version: number }>("SELECT version FROM schema_migrations");
    // One row per migration (versions need not be contiguous: numbers are reserved by parallel branches).
    expect(rows.length).toBe(postgresMigrations.length);
  });

  test("a database migrated by a newer reportgen is refused", async () => {
    const b = await fresh("postgres");
    await b.sql.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)");
    await expect(openRepos({ dataDir: b.dir, databaseUrl: b.url })).rejects.toThrow(/version 999/);
  });

  test("shared secrets: every instance reads the value the first one stored", async () => {
    const a = await fresh("postgres");
    const b = await fresh("postgres", { dir: a.dir, url: a.url });
    const first = await a.secrets!.getOrCreate("link-secret", () => "one");
    expect(first).toBe("one");
    expect(await b.secrets!.getOrCreate("link-secret", () => "two")).toBe("one");
  });
});
