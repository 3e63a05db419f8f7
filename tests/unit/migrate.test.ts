// migrate(): the embedded migrations on a real SQLite file: applied once, tracked, each atomic, and a
// database from a newer reportgen refused.

import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "../../migrations/index";
import { openDatabase } from "../../src/db/client";
import { currentVersion, migrate, SchemaTooNewError } from "../../src/db/migrate";

const root = mkdtempSync(join(tmpdir(), "rg-migrate-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshFile = () => join(root, `db-${++n}.sqlite`);

const tables = (db: Database) =>
  db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((r) => r.name);
const versions = (db: Database) =>
  db
    .query<{ version: number; name: string; applied_at: number }, []>(
      "SELECT version, name, applied_at FROM schema_migrations ORDER BY version",
    )
    .all();

describe("embedded migrations", () => {
  // Strictly increasing, not contiguous: branches reserve numbers (0010 is stored templates', merged
  // separately), and migrate() tracks each version on its own.
  test("have strictly increasing versions from 1, unique names matching NNNN_", () => {
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations[0]!.version).toBe(1);
    migrations.forEach((m, i) => {
      if (i > 0) expect(m.version).toBeGreaterThan(migrations[i - 1]!.version);
      expect(m.name).toStartWith(`${String(m.version).padStart(4, "0")}_`);
      expect(m.sql.trim().length).toBeGreaterThan(0);
    });
    expect(new Set(migrations.map((m) => m.name)).size).toBe(migrations.length);
  });
});

describe("migrate", () => {
  test("a fresh database: applies everything once and records it", () => {
    const db = new Database(freshFile(), { create: true });
    const before = Date.now();
    expect(currentVersion(db)).toBe(0);
    const r = migrate(db);
    expect(r).toEqual({ applied: migrations.map((m) => m.name), version: migrations.at(-1)!.version });
    expect(tables(db)).toEqual([
      "access_keys",
      "accounts",
      "assets",
      "audit_events",
      "dashboard_sessions",
      "health_probe",
      "idempotency_keys",
      "job_leases",
      "key_daily_counts",
      "report_webhooks",
      "reports",
      "schedule_runs",
      "schedules",
      "schema_migrations",
      "signing_identities",
      "template_versions",
      "templates",
      "usage_daily",
      "webhook_attempts",
      "webhook_deliveries",
      "webhook_secrets",
    ]);
    const rows = versions(db);
    expect(rows.map((v) => [v.version, v.name])).toEqual(migrations.map((m) => [m.version, m.name]));
    for (const v of rows) expect(v.applied_at).toBeGreaterThanOrEqual(before);
    expect(currentVersion(db)).toBe(migrations.at(-1)!.version);
    db.close();
  });

  test("a second run applies nothing, on the same connection and after reopening the file", () => {
    const file = freshFile();
    const db = new Database(file, { create: true });
    migrate(db);
    expect(migrate(db)).toEqual({ applied: [], version: migrations.at(-1)!.version });
    db.close();
    const again = new Database(file);
    expect(migrate(again)).toEqual({ applied: [], version: migrations.at(-1)!.version });
    expect(versions(again).length).toBe(migrations.length);
    again.close();
  });

  test("data survives re-running migrations", () => {
    const file = freshFile();
    const db = new Database(file, { create: true });
    migrate(db);
    db.run("INSERT INTO accounts (id, name, created_at) VALUES ('acc_1', 'acme', 1)");
    migrate(db);
    expect(db.query("SELECT name FROM accounts").all()).toEqual([{ name: "acme" }]);
    db.close();
  });

  test("a database from a newer reportgen is refused with SchemaTooNewError, untouched", () => {
    const db = new Database(freshFile(), { create: true });
    currentVersion(db); // creates schema_migrations
    db.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, '0099_future', 1)");
    let err: unknown;
    try {
      migrate(db);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SchemaTooNewError);
    expect((err as Error).message).toContain("99");
    expect((err as Error).message).toContain(String(migrations.at(-1)!.version));
    expect(tables(db)).toEqual(["schema_migrations"]);
    expect(versions(db).map((v) => v.version)).toEqual([99]);
    db.close();
  });

  test("one version newer than known is refused too", () => {
    const db = new Database(freshFile(), { create: true });
    migrate(db);
    const next = migrations.at(-1)!.version + 1;
    db.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'next', 1)", [next]);
    expect(() => migrate(db)).toThrow(SchemaTooNewError);
    db.close();
  });

  test("a failing migration leaves no partial change and is not recorded; earlier ones stay", () => {
    const db = new Database(freshFile(), { create: true });
    const list = [
      { version: 1, name: "0001_a", sql: "CREATE TABLE a (x INTEGER);" },
      {
        version: 2,
        name: "0002_broken",
        sql: "CREATE TABLE partial (x INTEGER);\nINSERT INTO a (x) VALUES (1);\nINSERT INTO no_such_table VALUES (1);",
      },
      { version: 3, name: "0003_c", sql: "CREATE TABLE c (x INTEGER);" },
    ];
    expect(() => migrate(db, list)).toThrow();
    expect(tables(db)).toEqual(["a", "schema_migrations"]);
    expect(db.query("SELECT count(*) AS n FROM a").get()).toEqual({ n: 0 });
    expect(versions(db).map((v) => v.version)).toEqual([1]);
    expect(currentVersion(db)).toBe(1);

    // Fixed, the rest applies from where it stopped.
    const fixed = [list[0]!, { ...list[1]!, sql: "CREATE TABLE partial (x INTEGER);" }, list[2]!];
    expect(migrate(db, fixed)).toEqual({ applied: ["0002_broken", "0003_c"], version: 3 });
    expect(tables(db)).toEqual(["a", "c", "partial", "schema_migrations"]);
    db.close();
  });

  test("only migrations above the current version run, in order", () => {
    const db = new Database(freshFile(), { create: true });
    const list = [1, 2, 3].map((v) => ({ version: v, name: `000${v}_t`, sql: `CREATE TABLE t${v} (x INTEGER);` }));
    expect(migrate(db, list.slice(0, 1)).applied).toEqual(["0001_t"]);
    // t1 already exists: re-running migration 1 would fail, so this also proves it is skipped.
    expect(migrate(db, list)).toEqual({ applied: ["0002_t", "0003_t"], version: 3 });
    expect(tables(db)).toEqual(["schema_migrations", "t1", "t2", "t3"]);
    db.close();
  });

  test("a version missing below the highest applied one is applied, once", () => {
    const db = new Database(freshFile(), { create: true });
    const list = [1, 2, 3].map((v) => ({ version: v, name: `000${v}_t`, sql: `CREATE TABLE t${v} (x INTEGER);` }));
    expect(migrate(db, [list[0]!, list[2]!]).applied).toEqual(["0001_t", "0003_t"]);
    expect(migrate(db, list)).toEqual({ applied: ["0002_t"], version: 3 });
    expect(migrate(db, list).applied).toEqual([]);
    expect(tables(db)).toEqual(["schema_migrations", "t1", "t2", "t3"]);
    db.close();
  });

  test("an empty migration list on an empty database is version 0", () => {
    const db = new Database(freshFile(), { create: true });
    expect(migrate(db, [])).toEqual({ applied: [], version: 0 });
    db.close();
  });
});

describe("the migrated schema enforces its rules (through openDatabase, foreign keys on)", () => {
  const db = openDatabase(freshFile());
  migrate(db.$client);
  const sql = db.$client;
  sql.run("INSERT INTO accounts (id, name, created_at) VALUES ('acc_a', 'a', 1)");
  const report = (id: string, engine: string, status: string, account = "acc_a") =>
    sql.run("INSERT INTO reports (id, account_id, engine, status, created_at) VALUES (?, ?, ?, ?, 1)", [id, account, engine, status]);

  test("engine and status are limited to the known values", () => {
    for (const engine of ["ejs", "raw"]) report(`e-${engine}`, engine, "queued");
    for (const status of ["queued", "processing", "succeeded", "failed", "expired"]) report(`s-${status}`, "raw", status);
    expect(() => report("bad-engine", "pdf", "queued")).toThrow();
    expect(() => report("bad-status", "raw", "done")).toThrow();
  });

  test("attempts defaults to 0", () => {
    report("defaults", "raw", "queued");
    expect(sql.query("SELECT attempts FROM reports WHERE id = 'defaults'").get()).toEqual({ attempts: 0 });
  });

  test("account names are unique", () => {
    expect(() => sql.run("INSERT INTO accounts (id, name, created_at) VALUES ('acc_dup', 'a', 1)")).toThrow();
  });

  test("keys and reports must belong to an existing account", () => {
    expect(() => report("orphan", "raw", "queued", "acc_missing")).toThrow();
    expect(() =>
      sql.run("INSERT INTO access_keys (id, account_id, name, secret_hash, created_at) VALUES ('k', 'acc_missing', 'n', 'h', 1)"),
    ).toThrow();
  });

  test("deleting an account deletes its keys and reports", () => {
    sql.run("INSERT INTO accounts (id, name, created_at) VALUES ('acc_b', 'b', 1)");
    sql.run("INSERT INTO access_keys (id, account_id, name, secret_hash, created_at) VALUES ('kb', 'acc_b', 'n', 'h', 1)");
    report("rb", "raw", "queued", "acc_b");
    sql.run("DELETE FROM accounts WHERE id = 'acc_b'");
    expect(sql.query("SELECT count(*) AS n FROM access_keys WHERE account_id = 'acc_b'").get()).toEqual({ n: 0 });
    expect(sql.query("SELECT count(*) AS n FROM reports WHERE account_id = 'acc_b'").get()).toEqual({ n: 0 });
  });

  test("the list and queue indexes exist", () => {
    const names = sql
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'")
      .all()
      .map((r) => r.name);
    expect(names).toEqual(
      expect.arrayContaining(["access_keys_account", "reports_account_created", "reports_status_created", "reports_expires"]),
    );
  });

  afterAll(() => sql.close());
});
