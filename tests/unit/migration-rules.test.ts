// Expand first, contract one release later (tests/support/migration-rules.ts, docs/cluster.md): every
// migration of both engines is checked, and the check itself is shown to refuse what it must.
import { describe, expect, test } from "bun:test";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { migrations } from "../../migrations";
import { postgresMigrations } from "../../migrations/postgres";
import pkg from "../../package.json";
import * as schema from "../../src/db/schema";
import { checkMigration, contractions } from "../support/migration-rules";

/** What the code uses: every table of the drizzle schema, and each column as table.column. */
const used = new Set<string>();
for (const value of Object.values(schema)) {
  if (!value || typeof value !== "object" || !(Symbol.for("drizzle:IsDrizzleTable") in value)) continue;
  const config = getTableConfig(value as SQLiteTable);
  used.add(config.name);
  for (const c of config.columns) used.add(`${config.name}.${c.name}`);
}

describe("every migration expands, or contracts only what an earlier release stopped using", () => {
  test("the schema was read", () => {
    expect(used.has("reports")).toBe(true);
    expect(used.has("reports.lease_owner")).toBe(true);
  });
  for (const [engine, list] of [
    ["sqlite", migrations],
    ["postgres", postgresMigrations],
  ] as const) {
    for (const m of list) {
      test(`${engine} ${m.name}`, () => {
        expect(checkMigration(m.name, m.sql, used, pkg.version)).toEqual([]);
      });
    }
  }
});

describe("the check refuses", () => {
  const check = (sql: string, release = "2.0.0") => checkMigration("9999_x", sql, used, release);

  test("DROP COLUMN, RENAME COLUMN, DROP TABLE and a table's RENAME TO without a marker", () => {
    for (const sql of [
      "ALTER TABLE reports DROP COLUMN request_id;",
      "alter table reports drop request_id;",
      'ALTER TABLE "reports" RENAME COLUMN request_id TO request;',
      "DROP TABLE IF EXISTS job_leases;",
      "ALTER TABLE job_leases RENAME TO leases;",
      "ALTER TABLE reports ADD COLUMN x TEXT, DROP COLUMN y;",
    ])
      expect(check(sql).length).toBe(1);
  });

  test("a marker for a column the schema still declares (the code still uses it)", () => {
    const problems = check("-- contract: reports.request_id unused since 1.0.0\nALTER TABLE reports DROP COLUMN request_id;");
    expect(problems.join()).toContain("still declares it");
  });

  test("a marker naming this release, not an earlier one", () => {
    const problems = check("-- contract: reports.old_thing unused since 2.0.0\nALTER TABLE reports DROP COLUMN old_thing;", "2.0.0");
    expect(problems.join()).toContain("not older than this release");
  });

  test("and lets through a marked contraction of what an earlier release stopped using", () => {
    expect(check("-- contract: reports.old_thing unused since 1.9.0\nALTER TABLE reports DROP COLUMN old_thing;")).toEqual([]);
    expect(check("-- contract: old_table unused since 1.9.0\nDROP TABLE old_table;")).toEqual([]);
  });

  test("what does not take a column or table away is no contraction", () => {
    for (const sql of [
      "DROP INDEX reports_status;",
      "ALTER TABLE reports ALTER COLUMN x DROP NOT NULL;",
      "ALTER TABLE reports DROP CONSTRAINT reports_x_check;",
      "DROP TRIGGER t ON reports; DROP FUNCTION f();",
      "-- DROP TABLE reports; (a comment)\nALTER TABLE reports ADD COLUMN y TEXT;",
    ])
      expect(contractions(sql)).toEqual([]);
  });
});
