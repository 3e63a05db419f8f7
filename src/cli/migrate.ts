// `reportgen migrate`: applies the embedded migrations and reports the schema version.
import { join } from "node:path";
import type { Config } from "../config/settings";
import { openDatabase } from "../db/client";
import { migrate as applyMigrations } from "../db/migrate";

export function migrate(config: Config): void {
  const db = openDatabase(join(config.dataDir, "reportgen.db"));
  try {
    const r = applyMigrations(db.$client);
    console.error(
      r.applied.length ? `applied ${r.applied.join(", ")}; schema version ${r.version}` : `schema is up to date (version ${r.version})`,
    );
  } finally {
    db.$client.close();
  }
}
