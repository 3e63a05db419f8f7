// Opens the configured backend: SQLite in the data dir (the default) or PostgreSQL (--database-url),
// migrated. The repositories over it are built by app/repos.ts; services never see which one it is.

import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { StartupError } from "../lib/errors";
import { withTimeout } from "../lib/supervisor";
import { type Db, openDatabase } from "./client";
import { type MigrateResult, migrate } from "./migrate";
import { migratePostgres } from "./migrate-postgres";
import type { PostgresSql } from "./postgres";
import { SharedSecretsRepo } from "./secrets-repo";
import { type Sql, SqliteSql } from "./sql";

export interface Backend {
  kind: "sqlite" | "postgres";
  sql: Sql;
  /** This process's name in leases (reports, jobs): unique per start. */
  owner: string;
  migrated: MigrateResult;
  /** PostgreSQL only: the shared secrets table (SQLite keeps them as files in the data dir). */
  secrets?: SharedSecretsRepo;
  /** PostgreSQL only: the driver, for LISTEN. */
  pg?: PostgresSql;
  /** SQLite only: the database (the WAL checkpointer and tests reach it directly). */
  db?: Db;
  close(): Promise<void>;
}

export interface BackendConfig {
  dataDir: string;
  /** postgres://…; empty: SQLite in the data dir. */
  databaseUrl: string;
  /** PostgreSQL: a request's deadline for its statements (see PostgresOptions.requestTimeout). */
  databaseTimeout?: number;
}

/** Opens and migrates the database the configuration names. */
export async function openBackend(c: BackendConfig, o: { migrate?: boolean; servesRequests?: boolean } = {}): Promise<Backend> {
  const owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  if (c.databaseUrl) {
    // Only an instance that answers requests guards its commits: the CLI's transactions have no deadline.
    // The driver loads only for a cluster instance: a single machine on SQLite never pays its ~5 MiB.
    const { PostgresSql } = await import("./postgres");
    const pg = new PostgresSql(c.databaseUrl, { requestTimeout: c.databaseTimeout, guardCommits: o.servesRequests });
    try {
      await firstContact(pg, c.databaseUrl);
      const migrated = o.migrate === false ? { applied: [], version: 0 } : await migratePostgres(pg);
      return {
        kind: "postgres",
        sql: pg,
        owner,
        migrated,
        secrets: new SharedSecretsRepo(pg),
        pg,
        close: () => pg.close(),
      };
    } catch (e) {
      // Nothing of a failed start is worth waiting for (an unanswered first statement would hold it 5 s).
      await pg.close(0).catch(() => {});
      throw e;
    }
  }
  const db = openDatabase(join(c.dataDir, "reportgen.db"));
  const migrated = o.migrate === false ? { applied: [], version: 0 } : migrate(db.$client);
  const sql = new SqliteSql(db.$client);
  return { kind: "sqlite", sql, owner, migrated, db, close: () => sql.close() };
}

/**
 * How long the first statement may take. postgres-js retries a connection that fails before it is
 * ready for as long as a statement waits, and nothing else bounds the wait: a host whose traffic is
 * dropped, or a proxy that accepts and then closes, would hold `serve` and every command forever.
 */
export const FIRST_CONTACT_MS = 10_000;

/**
 * The first statement, within FIRST_CONTACT_MS. Its failure is a StartupError that names the server
 * (not its password) and says what to check, rather than the driver's bare "read ECONNRESET".
 */
export async function firstContact(pg: Pick<Sql, "get">, url: string, deadlineMs = FIRST_CONTACT_MS): Promise<void> {
  const where = `PostgreSQL at ${redactUrl(url)}`;
  const check = "check --database-url (host, port, user, password, database) and that PostgreSQL runs there";
  const first = pg.get("SELECT 1").catch((e: unknown) => {
    throw new StartupError(`${where} cannot be used: ${(e as Error).message}: ${check}`, { cause: e });
  });
  first.catch(() => {}); // abandoned at the deadline: its own failure no longer matters
  const late = `${where} did not answer within ${deadlineMs / 1000} s: ${check}, and that nothing between drops or cuts the connection`;
  await withTimeout(first, deadlineMs, late).catch((e: unknown) => {
    throw e instanceof StartupError ? e : new StartupError(late);
  });
}

/** The URL without its password, for logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable URL)";
  }
}
