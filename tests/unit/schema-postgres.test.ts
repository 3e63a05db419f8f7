// The drizzle tables in src/db/schema/ must describe exactly what the PostgreSQL migrations create
// (migrations/postgres), as tests/unit/schema.test.ts checks for SQLite's (migrations/*.sql): same tables,
// columns, types, nullability, keys, defaults, uniqueness, foreign keys and enum values. With both,
// the schema is written three times but cannot drift: a column added to one copy only fails here.
// It reads information_schema and pg_catalog of a freshly migrated database on the throwaway PostgreSQL
// (tests/helpers/postgres.ts); without PostgreSQL's binaries (scripts/setup installs them) it is skipped.

import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { getTableConfig, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { declaredTables } from "../../src/db/copied-tables";
import { migratePostgres } from "../../src/db/migrate-postgres";
import { PostgresSql } from "../../src/db/postgres";
import * as schema from "../../src/db/schema";
import { PG_BIN, usePostgres } from "../helpers/postgres";

const hasPostgres = !!process.env.REPORTGEN_TEST_DATABASE_URL || existsSync(join(PG_BIN, "pg_ctl"));
if (!hasPostgres) console.error(`SKIP the PostgreSQL schema check: no pg_ctl in ${PG_BIN} (scripts/setup installs postgresql)`);

/** Tables only the shared database has: on one machine these secrets are files in the data dir. */
const POSTGRES_ONLY = ["shared_secrets"];

const drizzleTables = declaredTables(schema);

/**
 * The PostgreSQL types a drizzle SQLite type may be: times (milliseconds) and byte counts outgrow 32
 * bits, so an integer column is BIGINT there where it can, INTEGER where it cannot (counts, versions).
 */
const PG_TYPES: Record<string, string[]> = { text: ["text"], integer: ["integer", "bigint"] };

/** A column default as PostgreSQL shows it ('x'::text, 0), back to the value drizzle declares. */
const pgDefault = (d: string | null) => (d === null ? undefined : (/^'(.*)'::[a-z ]+$/s.exec(d)?.[1]?.replaceAll("''", "'") ?? d));

type Column = { table_name: string; column_name: string; data_type: string; is_nullable: "YES" | "NO"; column_default: string | null };
type Constraint = { table_name: string; contype: "p" | "u" | "f" | "c"; def: string; columns: string[] };

describe.skipIf(!hasPostgres)("the PostgreSQL migrations create the drizzle schema", () => {
  const pg = usePostgres();
  let loaded: Promise<{ columns: Column[]; constraints: Constraint[] }> | undefined;
  /** The migrated database's columns and constraints, read once. */
  const catalog = () =>
    (loaded ??= (async () => {
      const sql = new PostgresSql(await pg().createDatabase());
      try {
        await migratePostgres(sql);
        const columns = await sql.all<Column>(
          `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
            WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
        );
        const constraints = await sql.all<Constraint>(
          `SELECT c.conrelid::regclass::text AS table_name, c.contype, pg_get_constraintdef(c.oid) AS def,
                  array(SELECT a.attname::text FROM unnest(c.conkey) k JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k) AS columns
             FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public'`,
        );
        return { columns, constraints };
      } finally {
        await sql.close();
      }
    })());
  const columnsOf = async (table: string) => (await catalog()).columns.filter((c) => c.table_name === table);
  const constraintsOf = async (table: string, type: Constraint["contype"]) =>
    (await catalog()).constraints.filter((c) => c.table_name === table && c.contype === type);

  test("the migrated database has exactly the drizzle tables, besides schema_migrations and the PostgreSQL-only ones", async () => {
    const inDb = [...new Set((await catalog()).columns.map((c) => c.table_name))].filter((t) => t !== "schema_migrations").sort();
    expect(inDb).toEqual([...drizzleTables.map((t) => getTableConfig(t).name), ...POSTGRES_ONLY].sort());
  });

  for (const table of drizzleTables) {
    const cfg = getTableConfig(table);
    const pk = (c: SQLiteColumn) => c.primary;

    test(`${cfg.name}: the same columns (order aside: ALTER TABLE appends in each engine's own migration order)`, async () => {
      expect((await columnsOf(cfg.name)).map((c) => c.column_name).sort()).toEqual(cfg.columns.map((c) => c.name).sort());
    });

    test(`${cfg.name}: each column's type, nullability and default`, async () => {
      const byName = new Map((await columnsOf(cfg.name)).map((c) => [c.column_name, c]));
      for (const col of cfg.columns) {
        const c = byName.get(col.name);
        if (!c) continue; // reported by the column test
        const where = `${cfg.name}.${col.name}`;
        expect({ where, type: PG_TYPES[col.getSQLType().toLowerCase()]?.includes(c.data_type) ? "ok" : c.data_type }).toEqual({
          where,
          type: "ok",
        });
        expect({ where, notNull: c.is_nullable === "NO" }).toEqual({ where, notNull: col.notNull || pk(col) });
        // An INTEGER PRIMARY KEY is SQLite's rowid, numbered by the database: here a SERIAL (a sequence's nextval).
        const rowid = pk(col) && col.getSQLType() === "integer";
        const declared = rowid ? "nextval" : col.hasDefault ? String(col.default) : undefined;
        const shown = rowid && c.column_default?.startsWith("nextval(") ? "nextval" : pgDefault(c.column_default);
        expect({ where, default: shown }).toEqual({ where, default: declared });
      }
    });

    test(`${cfg.name}: primary key and unique columns`, async () => {
      const key = (await constraintsOf(cfg.name, "p")).flatMap((c) => c.columns);
      expect(key).toEqual(cfg.columns.filter(pk).map((c) => c.name));
      const unique = (await constraintsOf(cfg.name, "u")).flatMap((c) => c.columns);
      expect(unique.sort()).toEqual(
        cfg.columns
          .filter((c) => c.isUnique)
          .map((c) => c.name)
          .sort(),
      );
    });

    test(`${cfg.name}: foreign keys (columns, target, on delete)`, async () => {
      const fromDrizzle = cfg.foreignKeys
        .map((fk) => {
          const r = fk.reference();
          const onDelete = (fk.onDelete ?? "no action").toUpperCase();
          return `(${r.columns.map((c) => c.name).join(", ")}) -> ${getTableConfig(r.foreignTable).name}(${r.foreignColumns.map((c) => c.name).join(", ")}) ${onDelete}`;
        })
        .sort();
      const fromDb = (await constraintsOf(cfg.name, "f"))
        .map((c) => {
          const m = /^FOREIGN KEY \(([^)]*)\) REFERENCES (\w+)\(([^)]*)\)(?: ON DELETE (CASCADE|SET NULL|SET DEFAULT|RESTRICT))?/.exec(
            c.def,
          );
          return m ? `(${m[1]}) -> ${m[2]}(${m[3]}) ${m[4] ?? "NO ACTION"}` : c.def;
        })
        .sort();
      expect(fromDb).toEqual(fromDrizzle);
    });

    for (const col of cfg.columns.filter((c) => c.enumValues?.length)) {
      test(`${cfg.name}.${col.name}: the CHECK constraint allows exactly the enum values`, async () => {
        const check = (await constraintsOf(cfg.name, "c")).find((c) => c.columns.length === 1 && c.columns[0] === col.name);
        expect(check).toBeDefined();
        const allowed = [...check!.def.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
        expect(allowed.sort()).toEqual([...col.enumValues!].sort());
      });
    }
  }
});
