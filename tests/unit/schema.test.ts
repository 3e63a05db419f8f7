// The drizzle tables in src/db/schema.ts must describe exactly what the migrations create: same
// tables, columns, types, nullability, keys, defaults, uniqueness, foreign keys and enum values.

import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { declaredTables, whyNotCopied } from "../../src/db/copied-tables";
import { COPIED_TABLES } from "../../src/db/copy-repo";
import { migrate } from "../../src/db/migrate";
import * as schema from "../../src/db/schema";

const dir = mkdtempSync(join(tmpdir(), "rg-schema-"));
const db = new Database(join(dir, "schema.sqlite"), { create: true });
db.exec("PRAGMA foreign_keys = ON");
migrate(db);
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const drizzleTables = declaredTables(schema);

type Info = { name: string; type: string; notnull: number; dflt_value: string | null; pk: number };
const tableInfo = (table: string) => db.query<Info, []>(`PRAGMA table_info("${table}")`).all();

test("schema.ts declares every table", () => {
  expect(drizzleTables.map((t) => getTableConfig(t).name).sort()).toEqual([
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
    "signing_identities",
    "template_versions",
    "templates",
    "usage_daily",
    "webhook_attempts",
    "webhook_deliveries",
    "webhook_secrets",
  ]);
});

test("the migrated database has exactly the drizzle tables (besides schema_migrations)", () => {
  const inDb = db
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations'",
    )
    .all()
    .map((r) => r.name)
    .sort();
  expect(inDb).toEqual(drizzleTables.map((t) => getTableConfig(t).name).sort());
});

for (const table of drizzleTables) {
  const cfg = getTableConfig(table);
  describe(`table ${cfg.name}`, () => {
    const info = tableInfo(cfg.name);
    const byName = new Map(info.map((c) => [c.name, c]));

    test("same column names, in the same order", () => {
      expect(cfg.columns.map((c) => c.name)).toEqual(info.map((c) => c.name));
    });

    for (const col of cfg.columns) {
      test(`column ${col.name}: type, nullability, key and default match`, () => {
        const sql = byName.get(col.name);
        expect(sql).toBeDefined();
        expect(sql!.type.toLowerCase()).toBe(col.getSQLType().toLowerCase());
        expect(sql!.pk > 0).toBe(col.primary);
        // SQLite reports notnull = 0 for a TEXT PRIMARY KEY without NOT NULL; drizzle marks keys not null.
        if (!col.primary) expect(sql!.notnull === 1).toBe(col.notNull);
        // drizzle marks an INTEGER PRIMARY KEY (the rowid) as having a default; SQLite shows none.
        // SQLite shows a text default as its SQL literal ('...').
        const literal = typeof col.default === "string" ? `'${col.default}'` : String(col.default);
        if (col.hasDefault && !(col.primary && col.getSQLType() === "integer")) expect(sql!.dflt_value).toBe(literal);
        else expect(sql!.dflt_value).toBeNull();
      });
    }

    test("unique columns match the database's unique indexes", () => {
      const uniques = db
        .query<{ name: string; unique: number; origin: string }, []>(`PRAGMA index_list("${cfg.name}")`)
        .all()
        .filter((i) => i.unique === 1 && i.origin === "u")
        .flatMap((i) =>
          db
            .query<{ name: string }, []>(`PRAGMA index_info("${i.name}")`)
            .all()
            .map((c) => c.name),
        )
        .sort();
      expect(
        cfg.columns
          .filter((c) => c.isUnique)
          .map((c) => c.name)
          .sort(),
      ).toEqual(uniques);
    });

    test("foreign keys match (columns, target, on delete)", () => {
      const fromDrizzle = cfg.foreignKeys
        .map((fk) => {
          const r = fk.reference();
          return {
            from: r.columns.map((c) => c.name).join(","),
            table: getTableConfig(r.foreignTable).name,
            to: r.foreignColumns.map((c) => c.name).join(","),
            onDelete: (fk.onDelete ?? "no action").toUpperCase(),
          };
        })
        .sort((a, b) => a.from.localeCompare(b.from));
      const fromDb = db
        .query<{ from: string; table: string; to: string; on_delete: string }, []>(`PRAGMA foreign_key_list("${cfg.name}")`)
        .all()
        .map((f) => ({ from: f.from, table: f.table, to: f.to, onDelete: f.on_delete.toUpperCase() }))
        .sort((a, b) => a.from.localeCompare(b.from));
      expect(fromDrizzle).toEqual(fromDb);
    });

    for (const col of cfg.columns.filter((c) => c.enumValues?.length)) {
      test(`column ${col.name}: the CHECK constraint allows exactly the enum values`, () => {
        const createSql = db.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE name = ?").get(cfg.name)!.sql;
        const m = new RegExp(`CHECK\\s*\\(\\s*${col.name}\\s+IN\\s*\\(([^)]*)\\)`, "i").exec(createSql);
        expect(m).not.toBeNull();
        const allowed = m![1]!.split(",").map((s) => s.trim().replace(/^'|'$/g, ""));
        expect([...allowed].sort()).toEqual([...col.enumValues!].sort());
      });
    }
  });
}

test("the exported status and engine lists are the enum values of reports", () => {
  const cols = getTableConfig(schema.reports).columns;
  expect(cols.find((c) => c.name === "status")!.enumValues).toEqual([...schema.reportStatuses]);
  expect(cols.find((c) => c.name === "engine")!.enumValues).toEqual([...schema.engines]);
});

// migrate-to copies what the declaration names (db/copied-tables.ts): so a column a migration adds is
// copied once declared, and until then the column tests above fail. This checks the whole chain from the
// migrated database's side.
describe("migrate-to copies every table and column the migrations create", () => {
  const inDb = db
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations' ORDER BY name",
    )
    .all()
    .map((r) => r.name);
  const byName = new Map(drizzleTables.map((t) => [getTableConfig(t).name, t]));

  for (const name of inDb) {
    test(`${name}: every column copied, or the table declared not copied with its reason`, () => {
      const copied = COPIED_TABLES.find((t) => t.name === name);
      const why = byName.has(name) ? whyNotCopied(byName.get(name)!) : undefined;
      if (copied) expect(copied.columns).toEqual(tableInfo(name).map((c) => c.name));
      else expect({ name, why: why && why.length > 10 ? "given" : why }).toEqual({ name, why: "given" });
    });
  }

  test("parents are copied before the tables whose foreign keys name them; tables kept by triggers last", () => {
    const order = COPIED_TABLES.map((t) => t.name);
    for (const t of COPIED_TABLES) {
      for (const fk of db.query<{ table: string }, []>(`PRAGMA foreign_key_list("${t.name}")`).all()) {
        if (order.includes(fk.table)) expect({ [t.name]: order.indexOf(fk.table) < order.indexOf(t.name) }).toEqual({ [t.name]: true });
      }
    }
    expect(COPIED_TABLES.filter((t) => t.derived).map((t) => t.name)).toEqual(["usage_daily"]);
    expect(order.at(-1)).toBe("usage_daily");
  });

  test("the serial (INTEGER PRIMARY KEY) tables are the ones PostgreSQL numbers with a sequence", () => {
    expect(COPIED_TABLES.filter((t) => t.serial).map((t) => t.name)).toEqual(["idempotency_keys", "webhook_attempts"]);
  });
});
