// Applies the embedded migrations in order, each in its own transaction, tracked in schema_migrations.
import type { Database } from "bun:sqlite";
import { migrations as embedded, type Migration } from "../../migrations/index";

export class SchemaTooNewError extends Error {}

export interface MigrateResult {
  applied: string[];
  version: number;
}

export function currentVersion(sqlite: Database): number {
  sqlite.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)");
  const row = sqlite.query<{ v: number | null }, []>("SELECT max(version) AS v FROM schema_migrations").get();
  return row?.v ?? 0;
}

/** Brings the database to the newest known schema; refuses a database written by a newer reportgen. */
export function migrate(sqlite: Database, migrations: Migration[] = embedded): MigrateResult {
  const known = migrations.at(-1)?.version ?? 0;
  const have = currentVersion(sqlite);
  if (have > known) {
    throw new SchemaTooNewError(
      `the database schema is version ${have} but this reportgen knows only up to ${known}: run a newer reportgen, or restore a backup of the data directory`,
    );
  }
  const applied: string[] = [];
  for (const m of migrations) {
    if (m.version <= have) continue;
    sqlite.transaction(() => {
      sqlite.exec(m.sql);
      sqlite.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(m.version, m.name, Date.now());
    })();
    applied.push(m.name);
  }
  return { applied, version: Math.max(have, known) };
}
