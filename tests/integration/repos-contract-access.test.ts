// The repository contract of access control (migration 0011 / PostgreSQL 0003), on both backends:
// keys that existed before the migration keep every scope; rotation, quotas, the quota counter
// (race-free under concurrent transactions), sessions reading their key's state, and the audit trail.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "../../migrations/index";
import { postgresMigrations } from "../../migrations/postgres/index";
import { ALL_SCOPES } from "../../src/app/modules";
import { openRepos } from "../../src/app/repos";
import { migrate } from "../../src/db/migrate";
import { migratePostgres } from "../../src/db/migrate-postgres";
import { PostgresSql } from "../../src/db/postgres";
import type { NewReport } from "../../src/modules/reports/repo";
import { BACKENDS, newKey, newReport, useBackends } from "./repos-contract-harness";

const { pg, dirs, opened, fresh } = useBackends();

const OLD_KEY =
  "INSERT INTO accounts (id, name, created_at) VALUES ('acc1', 'acme', 1); " +
  "INSERT INTO access_keys (id, account_id, name, secret_hash, created_at) VALUES ('oldkey000001', 'acc1', 'old', '$argon2id$x', 2);";

describe("keys made before the access-control migration keep every scope", () => {
  test("sqlite: a key of a version 9 database holds all scopes, no expiry, no quota after migrating", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rg-old-keys-"));
    dirs.push(dir);
    const db = new Database(join(dir, "reportgen.db"), { create: true });
    migrate(
      db,
      migrations.filter((m) => m.version <= 9),
    );
    db.exec(OLD_KEY);
    db.close();
    const b = await openRepos({ dataDir: dir, databaseUrl: "" });
    opened.push(b);
    expect(b.migrated.applied).toContain("0011_access_control");
    const row = (await b.repos.keys.findSecret("oldkey000001"))!;
    expect(row.scopes.split(" ").sort()).toEqual([...ALL_SCOPES].sort());
    expect(row.expiresAt).toBeNull();
    expect(row.maxReportsPerDay).toBeNull();
  });

  test("postgres: the same from schema version 1", async () => {
    const url = await pg().createDatabase();
    const early = new PostgresSql(url);
    await migratePostgres(
      early,
      postgresMigrations.filter((m) => m.version === 1),
    );
    await early.client.unsafe(OLD_KEY);
    await early.close();
    const b = await openRepos({ dataDir: "", databaseUrl: url });
    opened.push(b);
    expect(b.migrated.applied).toContain("0003_access_control");
    const row = (await b.repos.keys.findSecret("oldkey000001"))!;
    expect(row.scopes.split(" ").sort()).toEqual([...ALL_SCOPES].sort());
    expect(row.expiresAt).toBeNull();
  });
});

for (const kind of BACKENDS) {
  describe(`access control on ${kind}`, () => {
    test("keys: scopes, expiry and quota stored; rotate keeps the previous secret with its deadline; setQuota; get per account", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const beta = await repos.accounts.ensure("beta");
      const k = newKey(acme.id, { secretCheck: "c1", scopes: "reports:read", expiresAt: 9_000_000_000_000, maxReportsPerDay: 10 });
      await repos.keys.insert(k);
      expect(await repos.keys.get(k.id, acme.id)).toMatchObject({
        scopes: "reports:read",
        expiresAt: 9_000_000_000_000,
        maxReportsPerDay: 10,
        rotatedAt: null,
      });
      expect(await repos.keys.get(k.id, beta.id)).toBeUndefined();

      expect(await repos.keys.rotate(k.id, beta.id, { secretHash: "h2", secretCheck: "c2", previousValidUntil: 5, at: 4 })).toBe(false);
      expect(await repos.keys.rotate(k.id, acme.id, { secretHash: "h2", secretCheck: "c2", previousValidUntil: 5_000, at: 4_000 })).toBe(
        true,
      );
      expect(await repos.keys.findSecret(k.id)).toMatchObject({
        secretHash: "h2",
        secretCheck: "c2",
        previousSecretHash: k.secretHash,
        previousSecretCheck: "c1",
        previousValidUntil: 5_000,
      });
      expect((await repos.keys.get(k.id, acme.id))!.rotatedAt).toBe(4_000);

      expect(await repos.keys.setQuota(k.id, beta.id, 3)).toBe(false);
      expect(await repos.keys.setQuota(k.id, acme.id, null)).toBe(true);
      expect((await repos.keys.findSecret(k.id))!.maxReportsPerDay).toBeNull();
    });

    test("quota counter: counts up to the quota then refuses; per key and day; concurrent transactions never pass it", async () => {
      const { repos } = await fresh(kind);
      const day = 20_000;
      expect(await repos.reports.countReport("key-a", day, 2)).toBe(true);
      expect(await repos.reports.countReport("key-a", day, 2)).toBe(true);
      expect(await repos.reports.countReport("key-a", day, 2)).toBe(false);
      expect(await repos.reports.reportsOn("key-a", day)).toBe(2);
      expect(await repos.reports.countReport("key-a", day + 1, 2)).toBe(true);
      expect(await repos.reports.countReport("key-b", day, 2)).toBe(true);
      expect(await repos.reports.countReport("key-c", day, null)).toBe(true); // no quota: counted all the same
      expect(await repos.reports.reportsOn("key-c", day)).toBe(1);

      // Each attempt in its own transaction, all at once (PostgreSQL: separate pooled connections).
      const results = await Promise.all(
        Array.from({ length: 20 }, () => repos.reports.transaction(() => repos.reports.countReport("key-race", day, 7))),
      );
      expect(results.filter(Boolean)).toHaveLength(7);
      expect(await repos.reports.reportsOn("key-race", day)).toBe(7);

      // A transaction that fails after counting takes its count back.
      await expect(
        repos.reports.transaction(async () => {
          await repos.reports.countReport("key-rollback", day, 1);
          throw new Error("insert failed");
        }),
      ).rejects.toThrow("insert failed");
      expect(await repos.reports.reportsOn("key-rollback", day)).toBe(0);

      expect(await repos.reports.deleteCountsBefore(day + 1)).toBe(4); // key-a, key-b, key-c and key-race of `day`
      expect(await repos.reports.reportsOn("key-a", day + 1)).toBe(1);
    });

    test("a keyed submission: inserted and counted together when the queue has room and the quota allows, else neither", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const beta = await repos.accounts.ensure("beta");
      const day = 20_000;
      const roomy = { total: 100, account: 100 };
      const submit = (quota: { keyId: string; max: number | null }, caps = roomy, o: Partial<NewReport> = {}) => {
        const r = newReport(o.accountId ?? acme.id, { keyId: quota.keyId, ...o });
        return repos.reports.transaction(() => repos.reports.insertCounted(r, { ...quota, day }, caps)).then((got) => [got, r.id] as const);
      };
      const q2 = { keyId: "key-s", max: 2 };
      const [a1, id1] = await submit(q2, roomy, { requestId: "req-1", createdAt: 1_234, templateVersion: 3 });
      const [a2] = await submit(q2);
      const [a3, id3] = await submit(q2);
      expect([a1, a2, a3]).toEqual(["inserted", "inserted", "quota_exceeded"]);
      expect(await repos.reports.reportsOn("key-s", day)).toBe(2);
      const first = (await repos.reports.get(id1, acme.id))!;
      expect([first.status, first.attempts, first.createdAt, first.engine, first.templateVersion]).toEqual(["queued", 0, 1_234, "raw", 3]);
      expect(await repos.reports.get(id3, acme.id)).toBeUndefined();
      // The queue's caps come first, and refuse without counting: 2 unfinished of acme's now.
      const free = { keyId: "key-free", max: null };
      expect((await submit(free, { total: 2, account: 100 }))[0]).toBe("queue_full");
      expect((await submit(free, { total: 100, account: 2 }))[0]).toBe("account_queue_full");
      expect((await submit(free, { total: 100, account: 2 }, { accountId: beta.id }))[0]).toBe("inserted");
      expect((await submit(q2, { total: 2, account: 100 }))[0]).toBe("queue_full");
      expect(await repos.reports.reportsOn("key-free", day)).toBe(1);
      // An insert that fails (the same id again) takes its count back.
      const r = newReport(acme.id, { keyId: "key-free" });
      expect(await repos.reports.transaction(() => repos.reports.insertCounted(r, { ...free, day }, roomy))).toBe("inserted");
      await expect(repos.reports.transaction(() => repos.reports.insertCounted(r, { ...free, day }, roomy))).rejects.toThrow();
      expect(await repos.reports.reportsOn("key-free", day)).toBe(2);
    });

    test("sessions read their key's scopes, quota and expiry", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const key = newKey(acme.id, { scopes: "keys:manage", expiresAt: 123_456, maxReportsPerDay: 4 });
      await repos.keys.insert(key);
      await repos.sessions.insert({
        idHash: "s1",
        keyId: key.id,
        accountId: acme.id,
        csrfToken: "c",
        createdAt: 1,
        lastSeenAt: 1,
        expiresAt: 99,
      });
      expect(await repos.sessions.get("s1")).toMatchObject({ keyScopes: "keys:manage", keyMaxReportsPerDay: 4, keyExpiresAt: 123_456 });
    });

    test("audit events: insert (joining a transaction, rolled back with it), list per account newest first with a position, delete before", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const beta = await repos.accounts.ensure("beta");
      const event = (id: string, accountId: string | null, createdAt: number) => ({
        id,
        accountId,
        type: "access_key.created" as const,
        actor: "key" as const,
        actorKeyId: "k1",
        clientAddress: "203.0.113.7",
        target: "k2",
        detail: '{"name":"x"}',
        createdAt,
      });
      const ids = ["00000000-0000-7000-8000-000000000001", "00000000-0000-7000-8000-000000000002", "00000000-0000-7000-8000-000000000003"];
      await repos.audit.insert(event(ids[0]!, acme.id, 1_000));
      await repos.audit.insert(event(ids[1]!, acme.id, 2_000));
      await repos.audit.insert(event(ids[2]!, acme.id, 2_000));
      await repos.audit.insert({ ...event("00000000-0000-7000-8000-000000000004", beta.id, 3_000) });
      await repos.audit.insert({ ...event("00000000-0000-7000-8000-000000000005", null, 3_000) });
      await expect(
        repos.keys.transaction(async () => {
          await repos.audit.insert(event("00000000-0000-7000-8000-000000000006", acme.id, 4_000));
          throw new Error("the change failed");
        }),
      ).rejects.toThrow("the change failed");

      const page = await repos.audit.list(acme.id, 2);
      expect(page.map((e) => e.id)).toEqual([ids[2]!, ids[1]!]);
      expect(page[0]).toEqual(event(ids[2]!, acme.id, 2_000));
      expect((await repos.audit.list(acme.id, 10, { createdAt: 2_000, id: ids[1]! })).map((e) => e.id)).toEqual([ids[0]!]);
      expect(await repos.audit.deleteBefore(2_000)).toBe(1);
      expect((await repos.audit.list(acme.id, 10)).map((e) => e.id)).toEqual([ids[2]!, ids[1]!]);
    });
  });
}
