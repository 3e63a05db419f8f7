// `reportgen migrate-to --database-url postgres://…`: copies this data dir's SQLite database into
// PostgreSQL (see jobs/migrate-to.ts), then prints what was copied and verified. Stop the server first.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config/settings";
import { openBackend } from "../db/open";
import { migrateTo } from "../jobs/migrate-to";
import { loadLinkSecret } from "../modules/files/links";
import { loadAuthPepper } from "../modules/keys/check";
import { UsageError } from "./args";

export async function migrateToCommand(config: Config): Promise<void> {
  if (!config.databaseUrl) throw new UsageError("migrate-to needs --database-url postgres://… (the database to copy this install into)");
  // Opening a data dir without a database would create an empty one: refuse instead.
  if (!existsSync(join(config.dataDir, "reportgen.db"))) {
    throw new UsageError(`there is no reportgen database in ${config.dataDir}: pass the install's --data-dir`);
  }
  const source = await openBackend({ dataDir: config.dataDir, databaseUrl: "" });
  try {
    const target = await openBackend({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
    try {
      const secrets = { linkSecret: loadLinkSecret(config.dataDir, config.linkSecret), authPepper: loadAuthPepper(config.dataDir) };
      const r = await migrateTo(source, target, { secrets, log: (line) => console.error(`migrate-to: ${line}`) });
      for (const t of r.tables)
        console.error(`  ${t.name.padEnd(20)} ${String(t.target).padStart(8)} row(s), sha256 ${t.checksum.slice(0, 16)}… verified`);
      console.error(
        `copied and verified in ${r.ms} ms. Start the instances with --database-url (and the same --link-secret if you set one); the PDFs stay in ${config.dataDir} until they are copied to the file store`,
      );
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
