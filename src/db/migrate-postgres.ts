// PostgreSQL's migration runner: the embedded migrations (migrations/postgres/) in order, each in its own
// transaction, tracked in schema_migrations, all under one advisory lock so that N instances starting at
// once migrate once (the others wait on the lock, then find nothing left to do).

import type { Migration } from "../../migrations/index";
import { postgresMigrations } from "../../migrations/postgres/index";
import { type MigrateResult, SchemaTooNewError } from "./migrate";
import type { PostgresSql } from "./postgres";

/** pg_advisory_lock key: "reportgen" as a number, so no other application's lock is taken by chance. */
const MIGRATION_LOCK = 0x7265706f7274;

/** Brings the database to the newest known schema; refuses a database written by a newer reportgen. */
export async function migratePostgres(pg: PostgresSql, migrations: Migration[] = postgresMigrations): Promise<MigrateResult> {
  const known = migrations.at(-1)?.version ?? 0;
  // A session lock needs one connection for its whole life: reserve one from the pool.
  const conn = await pg.client.reserve();
  try {
    await conn.unsafe("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await conn.unsafe(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    );
    const done = new Set((await conn.unsafe("SELECT version FROM schema_migrations")).map((r) => Number(r.version)));
    const have = Math.max(0, ...done);
    if (have > known) {
      throw new SchemaTooNewError(
        `the PostgreSQL schema is version ${have} but this reportgen knows only up to ${known}: run a newer reportgen on every instance`,
      );
    }
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      // A reserved connection has no begin(): the transaction is spelled out (DDL is transactional in PostgreSQL).
      await conn.unsafe("BEGIN");
      try {
        await conn.unsafe(m.sql);
        await conn.unsafe("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [m.version, m.name, Date.now()]);
        await conn.unsafe("COMMIT");
      } catch (e) {
        await conn.unsafe("ROLLBACK").catch(() => {});
        throw e;
      }
      applied.push(m.name);
    }
    return { applied, version: Math.max(have, known) };
  } finally {
    await conn.unsafe("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    conn.release();
  }
}
