// Every repository of the service over one backend (db/open.ts): the one list of them. Built here, in
// the app, because db/ knows no feature module.
import { SessionsRepo } from "../dashboard/sessions-repo";
import { type Backend, type BackendConfig, openBackend } from "../db/open";
import type { Sql } from "../db/sql";
import { JobLeasesRepo } from "../jobs/leases-repo";
import { AccountsRepo } from "../modules/accounts/repo";
import { AssetsRepo } from "../modules/assets/repo";
import { AuditRepo } from "../modules/audit/repo";
import { HealthRepo } from "../modules/health/repo";
import { IdempotencyRepo } from "../modules/idempotency/repo";
import { KeysRepo } from "../modules/keys/repo";
import { ReportQueue } from "../modules/reports/queue";
import { ReportsRepo } from "../modules/reports/repo";
import { SigningRepo } from "../modules/signing/repo";
import { TemplatesRepo } from "../modules/templates/repo";
import { UsageRepo } from "../modules/usage/repo";
import { WebhooksRepo } from "../modules/webhooks/repo";

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
  assets: AssetsRepo;
  signing: SigningRepo;
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
    assets: new AssetsRepo(sql),
    signing: new SigningRepo(sql),
  };
}

/** A backend with its repositories, as the repository contract tests and the queue bench open it. */
export type BackendWithRepos = Backend & { repos: Repos };

/** Opens and migrates the database the configuration names (db/open.ts), with every repository over it. */
export async function openRepos(c: BackendConfig, o: { migrate?: boolean } = {}): Promise<BackendWithRepos> {
  const backend = await openBackend(c, o);
  return Object.assign(backend, { repos: reposOver(backend.sql, backend.owner) });
}
