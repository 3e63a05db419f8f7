// Applies the embedded migrations in order, each in its own transaction, tracked in schema_migrations.
import type { Database } from "bun:sqlite";
import { migrations as embedded, type Migration } from "../../migrations/index";

export class SchemaTooNewError extends Error {}

export interface MigrateResult {
  applied: string[];
  version: number;
}

function appliedVersions(sqlite: Database): Set<number> {
  sqlite.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
  );
  return new Set(
    sqlite
      .query<{ version: number }, []>("SELECT version FROM schema_migrations")
      .all()
      .map((r) => r.version),
  );
}

export function currentVersion(sqlite: Database): number {
  return Math.max(0, ...appliedVersions(sqlite));
}

/** Brings the database to the newest known schema; refuses a database written by a newer reportgen. */
export function migrate(sqlite: Database, migrations: Migration[] = embedded): MigrateResult {
  const known = migrations.at(-1)?.version ?? 0;
  const done = appliedVersions(sqlite);
  const have = Math.max(0, ...done);
  if (have > known) {
    throw new SchemaTooNewError(
      `the database schema is version ${have} but this reportgen knows only up to ${known}: run a newer reportgen, or restore a backup of the data directory`,
    );
  }
  const applied: string[] = [];
  for (const m of migrations) {
    // Each version is tracked on its own, so one that reached main after a higher-numbered one (parallel
    // branches) is still applied to a database that already has the higher one.
    if (done.has(m.version)) continue;
    sqlite.transaction(() => {
      sqlite.exec(m.sql);
      sqlite.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(m.version, m.name, Date.now());
    })();
    applied.push(m.name);
  }
  return { applied, version: Math.max(have, known) };
}
