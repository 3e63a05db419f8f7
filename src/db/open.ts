// Opens the configured backend: SQLite in the data dir (the default) or PostgreSQL (--database-url),
// migrated, with every repository over it. bootstrap() (src/bootstrap.ts) and `migrate-to` call this;
// services never see which one it is.

import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { SessionsRepo } from "../dashboard/sessions-repo";
import { JobLeasesRepo } from "../jobs/leases-repo";
import { AccountsRepo } from "../modules/accounts/repo";
import { AuditRepo } from "../modules/audit/repo";
import { HealthRepo } from "../modules/health/repo";
import { IdempotencyRepo } from "../modules/idempotency/repo";
import { KeysRepo } from "../modules/keys/repo";
import { ReportQueue } from "../modules/reports/queue";
import { ReportsRepo } from "../modules/reports/repo";
import { TemplatesRepo } from "../modules/templates/repo";
import { UsageRepo } from "../modules/usage/repo";
import { WebhooksRepo } from "../modules/webhooks/repo";
import { type Db, openDatabase } from "./client";
import { type MigrateResult, migrate } from "./migrate";
import { migratePostgres } from "./migrate-postgres";
import { PostgresSql } from "./postgres";
import { SharedSecretsRepo } from "./secrets-repo";
import { type Sql, SqliteSql } from "./sql";

export interface Repos {
  accounts: AccountsRepo;
  keys: KeysRepo;
  reports: ReportsRepo;
  queue: ReportQueue;
  idempotency: IdempotencyRepo;
  webhooks: WebhooksRepo;
  sessions: SessionsRepo;
  health: HealthRepo;
  jobs: JobLeasesRepo;
  templates: TemplatesRepo;
  usage: UsageRepo;
  audit: AuditRepo;
}

export interface Backend {
  kind: "sqlite" | "postgres";
  sql: Sql;
  repos: Repos;
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
}

export function reposOver(sql: Sql, owner: string): Repos {
  return {
    accounts: new AccountsRepo(sql),
    keys: new KeysRepo(sql),
    reports: new ReportsRepo(sql),
    queue: new ReportQueue(sql, owner),
    idempotency: new IdempotencyRepo(sql),
    webhooks: new WebhooksRepo(sql, owner),
    sessions: new SessionsRepo(sql),
    health: new HealthRepo(sql),
    jobs: new JobLeasesRepo(sql),
    templates: new TemplatesRepo(sql),
    usage: new UsageRepo(sql),
    audit: new AuditRepo(sql),
  };
}

/** Opens and migrates the database the configuration names. */
export async function openBackend(c: BackendConfig, o: { migrate?: boolean } = {}): Promise<Backend> {
  const owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  if (c.databaseUrl) {
    const pg = new PostgresSql(c.databaseUrl);
    try {
      const migrated = o.migrate === false ? { applied: [], version: 0 } : await migratePostgres(pg);
      return {
        kind: "postgres",
        sql: pg,
        repos: reposOver(pg, owner),
        owner,
        migrated,
        secrets: new SharedSecretsRepo(pg),
        pg,
        close: () => pg.close(),
      };
    } catch (e) {
      await pg.close().catch(() => {});
      throw e;
    }
  }
  const db = openDatabase(join(c.dataDir, "reportgen.db"));
  const migrated = o.migrate === false ? { applied: [], version: 0 } : migrate(db.$client);
  const sql = new SqliteSql(db.$client);
  return { kind: "sqlite", sql, repos: reposOver(sql, owner), owner, migrated, db, close: () => sql.close() };
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
