// One contract for the repositories, run against both backends: a real SQLite file in a temp data dir
// and a real PostgreSQL 15 (a fresh database per backend instance). The same tests, the same
// expectations: a behaviour cannot exist in one backend only.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Backend, openBackend } from "../../src/db/open";
import type { AccessKey } from "../../src/db/schema";
import type { NewReport } from "../../src/modules/reports/repo";
import { usePostgres } from "../helpers/postgres";

const pg = usePostgres();
const dirs: string[] = [];
const opened: Backend[] = [];
afterAll(async () => {
  for (const b of opened) await b.close().catch(() => {});
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh, migrated backend of the kind; `url` reopens an existing PostgreSQL database. */
async function fresh(kind: "sqlite" | "postgres", reuse?: { dir?: string; url?: string }): Promise<Backend & { dir: string; url: string }> {
  const dir = reuse?.dir ?? mkdtempSync(join(tmpdir(), "rg-contract-"));
  if (!reuse?.dir) dirs.push(dir);
  const url = kind === "postgres" ? (reuse?.url ?? (await pg().createDatabase())) : "";
  const b = await openBackend({ dataDir: dir, databaseUrl: url });
  opened.push(b);
  return Object.assign(b, { dir, url });
}

let seq = 0;
const uuid = () => crypto.randomUUID();
function newReport(accountId: string, o: Partial<NewReport> = {}): NewReport {
  return {
    id: uuid(),
    accountId,
    engine: "raw",
    template: "<p>x</p>",
    data: null,
    options: null,
    createdAt: 1_700_000_000_000 + seq++,
    ...o,
  };
}
function newKey(accountId: string, o: Partial<AccessKey> = {}): AccessKey {
  const id = `k${String(seq++).padStart(11, "0")}`;
  return {
    id,
    accountId,
    name: `key ${id}`,
    secretHash: "$argon2id$fake",
    secretCheck: null,
    createdAt: Date.now(),
    lastUsedAt: null,
    ...o,
  };
}
const done = (id: string, attempt: number, at = Date.now()) => ({
  id,
  attempt,
  sizeBytes: 10,
  pageCount: 1,
  finishedAt: at,
  expiresAt: at + 60_000,
});

for (const kind of ["sqlite", "postgres"] as const) {
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
      expect(await repos.keys.findSecret(k1.id)).toEqual({ id: k1.id, accountId: acme.id, secretHash: k1.secretHash, secretCheck: null });
      expect(await repos.keys.accountOf(k2.id)).toBe(acme.id);
      expect(await repos.keys.accountOf("unknown")).toBeUndefined();
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
      expect(await repos.keys.delete(k3.id, acme.id)).toBe(false); // another account's key
      expect(await repos.keys.delete(k3.id)).toBe(true);
      expect(await repos.keys.delete(k3.id)).toBe(false);
    });

    test("sessions: insert, read, touch, expire; deleting the key deletes its sessions", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const key = newKey(acme.id);
      await repos.keys.insert(key);
      const row = { idHash: "h1", keyId: key.id, accountId: acme.id, csrfToken: "c", createdAt: 10, lastSeenAt: 10, expiresAt: 1000 };
      await repos.sessions.insert(row);
      await repos.sessions.insert({ ...row, idHash: "h2", expiresAt: 5 });
      expect(await repos.sessions.get("h1")).toEqual(row);
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
      expect(await repos.reports.countUnfinished()).toBe(6);
      expect(await repos.reports.countUnfinished(acme.id)).toBe(5);
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

    test("queue: claims oldest first, in batches, skipping held-back reports; each claim bumps the attempt (the fence)", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const now = Date.now();
      const rows = Array.from({ length: 5 }, () => newReport(acme.id));
      for (const r of rows) await repos.reports.insert(r);
      const q = repos.queue;
      const first = await q.claim(now, 10_000, 2);
      expect(first.map((c) => c.id).sort()).toEqual([rows[0]!.id, rows[1]!.id].sort());
      expect(first.every((c) => c.attempts === 1 && c.template === "<p>x</p>")).toBe(true);
      // Back with a backoff: not claimable until due.
      expect(await q.requeue(rows[0]!.id, 1, false, now + 60_000)).toBe(true);
      expect(await q.nextDueAt(now)).toBe(now + 60_000);
      const rest = await q.claim(now, 10_000, 10);
      expect(rest.map((c) => c.id).sort()).toEqual(
        rows
          .slice(2)
          .map((r) => r.id)
          .sort(),
      );
      expect(await q.claim(now, 10_000, 10)).toEqual([]);
      const later = await q.claim(now + 60_000, 10_000, 10);
      expect(later.map((c) => [c.id, c.attempts])).toEqual([[rows[0]!.id, 2]]);
      // A refund gives the attempt back.
      expect(await q.requeue(rows[0]!.id, 2, true)).toBe(true);
      expect((await q.claim(now + 60_000, 10_000))[0]?.attempts).toBe(2);
    });

    test("queue: outcomes are fenced by the attempt; a stale claim can neither succeed, fail nor re-queue", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const r = newReport(acme.id);
      await repos.reports.insert(r);
      const q = repos.queue;
      const [c] = await q.claim(Date.now(), 10_000);
      expect(await q.holds(r.id, c!.attempts)).toBe(true);
      expect(await q.holds(r.id, c!.attempts + 1)).toBe(false);
      expect(await q.succeed(done(r.id, c!.attempts + 1))).toBe(false);
      expect(await q.fail(r.id, c!.attempts - 1, "x", "y", Date.now())).toBe(false);
      expect(await q.requeue(r.id, 99, false)).toBe(false);
      expect(await q.succeed(done(r.id, c!.attempts))).toBe(true);
      expect(await q.succeed(done(r.id, c!.attempts))).toBe(false); // once
      const got = await repos.reports.get(r.id, acme.id);
      expect(got).toMatchObject({ status: "succeeded", sizeBytes: 10, pageCount: 1, attempts: 1 });
      expect(await q.holds(r.id, c!.attempts)).toBe(false);
    });

    test("queue: the reaper takes back expired leases (attempts kept), fails reports out of attempts, leaves live leases alone", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const rows = Array.from({ length: 3 }, () => newReport(acme.id));
      for (const r of rows) await repos.reports.insert(r);
      const t0 = Date.now();
      const q = repos.queue;
      const claimed = await q.claim(t0, 1_000, 3);
      expect(claimed).toHaveLength(3);
      // The heartbeat renews every lease this owner holds.
      expect(await q.heartbeat(t0 + 10_000)).toBe(3);
      expect(await q.reap(3, t0 + 5_000)).toEqual({ requeued: 0, failed: 0 });
      // Past the lease: back in the queue with their attempt counted.
      expect(await q.reap(3, t0 + 20_000)).toEqual({ requeued: 3, failed: 0 });
      const again = await q.claim(t0 + 20_000, 1_000, 3);
      expect(again.map((c) => c.attempts)).toEqual([2, 2, 2]);
      // The old claims are fenced out.
      expect(await q.succeed(done(rows[0]!.id, 1))).toBe(false);
      await q.reap(3, t0 + 30_000);
      await q.claim(t0 + 30_000, 1_000, 3);
      expect(await q.reap(3, t0 + 40_000)).toEqual({ requeued: 0, failed: 3 });
      const failed = await repos.reports.get(rows[0]!.id, acme.id);
      expect(failed).toMatchObject({ status: "failed", errorCode: "render_interrupted", attempts: 3 });
    });

    test("queue: succeedMany records a batch in one statement; only current claims count", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const rows = Array.from({ length: 4 }, () => newReport(acme.id));
      for (const r of rows) await repos.reports.insert(r);
      const claimed = await repos.queue.claim(Date.now(), 10_000, 4);
      const batch = claimed.map((c, i) => done(c.id, i === 0 ? c.attempts + 5 : c.attempts));
      const ok = await repos.queue.succeedMany(batch);
      expect(ok.sort()).toEqual(
        claimed
          .slice(1)
          .map((c) => c.id)
          .sort(),
      );
      expect(await repos.reports.countByStatus(acme.id)).toEqual({ processing: 1, succeeded: 3 });
    });

    test("queue: completeAndClaim records a batch and claims the next in one transaction", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const rows = Array.from({ length: 5 }, () => newReport(acme.id));
      for (const r of rows) await repos.reports.insert(r);
      const first = await repos.queue.claim(Date.now(), 10_000, 2);
      const r = await repos.queue.completeAndClaim(
        first.map((c) => done(c.id, c.attempts)),
        Date.now(),
        10_000,
        10,
      );
      expect(r.done.sort()).toEqual(first.map((c) => c.id).sort());
      expect(r.claimed.map((c) => c.id).sort()).toEqual(
        rows
          .slice(2)
          .map((x) => x.id)
          .sort(),
      );
      expect(await repos.reports.countByStatus(acme.id)).toEqual({ processing: 3, succeeded: 2 });
    });

    test("queue: 4 concurrent claimers never take the same report twice", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const n = 200;
      for (let i = 0; i < n; i++) await repos.reports.insert(newReport(acme.id));
      const taken: string[] = [];
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (;;) {
            const got = await repos.queue.claim(Date.now(), 30_000, 7);
            if (got.length === 0) return;
            taken.push(...got.map((c) => c.id));
            await repos.queue.succeedMany(got.map((c) => done(c.id, c.attempts)));
          }
        }),
      );
      expect(taken).toHaveLength(n);
      expect(new Set(taken).size).toBe(n);
      expect(await repos.reports.countByStatus(acme.id)).toEqual({ succeeded: n });
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
      await repos.webhooks.release([d!.id], t0 + 1);
      const log = await repos.webhooks.deliveries(r.id);
      expect(log.deliveries[0]).toMatchObject({ attempts: 1, lastError: "answered 500", nextAttemptAt: t0 + 1 });
      expect(log.attempts).toEqual([{ deliveryId: d!.id, startedAt: t0, durationMs: 12, responseStatus: 500, error: null }]);
      expect(await repos.webhooks.nextDueAt()).toBe(t0 + 1);
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
    const all = await Promise.all(Array.from({ length: 4 }, () => openBackend({ dataDir: dir, databaseUrl: url })));
    opened.push(...all);
    const applied = all.map((b) => b.migrated.applied.length);
    expect(applied.filter((n) => n > 0)).toHaveLength(1);
    const rows = await all[0]!.sql.all<{ version: number }>("SELECT version FROM schema_migrations");
    expect(rows.length).toBe(all[0]!.migrated.version);
  });

  test("a database migrated by a newer reportgen is refused", async () => {
    const b = await fresh("postgres");
    await b.sql.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)");
    await expect(openBackend({ dataDir: b.dir, databaseUrl: b.url })).rejects.toThrow(/version 999/);
  });

  test("shared secrets: every instance reads the value the first one stored", async () => {
    const a = await fresh("postgres");
    const b = await fresh("postgres", { dir: a.dir, url: a.url });
    const first = await a.secrets!.getOrCreate("link-secret", () => "one");
    expect(first).toBe("one");
    expect(await b.secrets!.getOrCreate("link-secret", () => "two")).toBe("one");
  });

  test("a claim in progress elsewhere is skipped, not waited for (FOR UPDATE SKIP LOCKED)", async () => {
    const a = await fresh("postgres");
    const acme = await a.repos.accounts.ensure("acme");
    const rows = [newReport(acme.id), newReport(acme.id)];
    for (const r of rows) await a.repos.reports.insert(r);
    // Hold the oldest row locked in an open transaction, as a claimer on another instance would.
    const conn = await a.pg!.client.reserve();
    await conn.unsafe("BEGIN");
    await conn.unsafe("SELECT id FROM reports WHERE id = $1 FOR UPDATE", [rows[0]!.id]);
    const started = Date.now();
    const got = await a.repos.queue.claim(Date.now(), 10_000, 2);
    expect(got.map((c) => c.id)).toEqual([rows[1]!.id]);
    expect(Date.now() - started).toBeLessThan(1_000);
    await conn.unsafe("ROLLBACK");
    conn.release();
  });

  test("LISTEN/NOTIFY: a submission wakes listeners once per statement; a finished report names its id", async () => {
    const a = await fresh("postgres");
    const acme = await a.repos.accounts.ensure("acme");
    const queued: string[] = [];
    const finished: string[] = [];
    const l1 = await a.pg!.listen("reportgen_queue", (p) => queued.push(p));
    const l2 = await a.pg!.listen("reportgen_finished", (p) => finished.push(p));
    const r = newReport(acme.id);
    await a.repos.reports.insert(r);
    const claimed = await a.repos.queue.claim(Date.now(), 10_000);
    await a.repos.queue.succeed(done(r.id, claimed[0]!.attempts));
    for (let i = 0; i < 50 && finished.length === 0; i++) await Bun.sleep(20);
    expect(queued).toEqual([""]);
    expect(finished).toEqual([r.id]);
    await l1.unlisten();
    await l2.unlisten();
  });
});
