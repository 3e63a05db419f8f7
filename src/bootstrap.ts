// bootstrap(): the only place that opens the database, migrates it and reads the secrets. It builds the
// services every entry point shares (HTTP, dashboard, CLI) and hands them to an App, whose constructor
// does no I/O. Every CLI command goes through here, `migrate` included.
import { join } from "node:path";
import { App, type AppMode } from "./app";
import type { Config } from "./config/settings";
import { SessionsService } from "./dashboard/sessions";
import { SessionsRepo } from "./dashboard/sessions-repo";
import type { Db } from "./db/client";
import { openDatabase } from "./db/client";
import { type MigrateResult, migrate } from "./db/migrate";
import { createLogger, type Logger } from "./lib/logger";
import { PasswordSeal } from "./lib/seal";
import { StorageMonitor } from "./lib/storage";
import { AccountsRepo } from "./modules/accounts/repo";
import { LinkSigner, loadLinkSecret } from "./modules/files/links";
import type { PdfStore } from "./modules/files/pdf-store";
import { S3PdfStore } from "./modules/files/s3-store";
import { FileStore } from "./modules/files/store";
import { HealthRepo } from "./modules/health/repo";
import { IdempotencyRepo } from "./modules/idempotency/repo";
import { IdempotencyService } from "./modules/idempotency/service";
import { loadAuthPepper } from "./modules/keys/check";
import { KeysRepo } from "./modules/keys/repo";
import { KeysService } from "./modules/keys/service";
import { ReportEvents } from "./modules/reports/events";
import { ReportsRepo } from "./modules/reports/repo";
import { ReportsService } from "./modules/reports/service";
import { WebhooksRepo } from "./modules/webhooks/repo";
import { WebhookSecrets } from "./modules/webhooks/secrets";
import { WebhooksService } from "./modules/webhooks/service";

/** What bootstrap() built: the database, the stores and the services over them. */
export interface Services {
  db: Db;
  migration: MigrateResult;
  files: PdfStore;
  storage: StorageMonitor;
  health: HealthRepo;
  reportsRepo: ReportsRepo;
  keys: KeysService;
  reports: ReportsService;
  links: LinkSigner;
  seal: PasswordSeal;
  idempotency: IdempotencyService;
  webhooksRepo: WebhooksRepo;
  webhooks: WebhooksService;
  webhookSecrets: WebhookSecrets;
  sessions: SessionsService;
}

/** Renders nothing and listens nowhere: what the CLI's one-shot commands need. */
export const OFFLINE: AppMode = { listen: false, render: false };

/** Opens and migrates the database, reads the secrets and builds the services; the App starts nothing yet. */
export async function bootstrap(config: Config, opts: { logger?: Logger; mode?: AppMode } = {}): Promise<App> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  const services = openServices(config, logger);
  return new App(config, services, logger, opts.mode ?? OFFLINE);
}

function openServices(config: Config, logger: Logger): Services {
  const db = openDatabase(join(config.dataDir, "reportgen.db"));
  try {
    const migration = migrate(db.$client);
    if (migration.applied.length) logger.info("database migrated", { applied: migration.applied, version: migration.version });
    const files = openPdfStore(config, logger);
    const storage = new StorageMonitor(config.dataDir, config.minFreeSpace, logger);
    const reportsRepo = new ReportsRepo(db);
    const linkSecret = loadLinkSecret(config.dataDir, config.linkSecret);
    const links = new LinkSigner(linkSecret, config.linkTtl);
    // Seals the PDF passwords of queued reports (options.encryption) under a key derived from the link secret.
    const seal = new PasswordSeal(linkSecret);
    const webhooksRepo = new WebhooksRepo(db);
    const webhooks = new WebhooksService(webhooksRepo, { allowHosts: config.webhookAllowHosts });
    const reports = new ReportsService(reportsRepo, files, links, new ReportEvents(), webhooks, {
      dataLimits: { maxBytes: config.dataMaxSize, maxDepth: config.dataMaxDepth, maxKeys: config.dataMaxKeys },
      accountQueueLimit: config.accountQueueLimit,
      queueLimit: config.queueLimit,
      storage,
      seal,
      maxPages: config.maxPages,
    });
    return {
      db,
      migration,
      files,
      storage,
      health: new HealthRepo(db.$client),
      reportsRepo,
      keys: new KeysService(new KeysRepo(db), new AccountsRepo(db), loadAuthPepper(config.dataDir)),
      reports,
      links,
      seal,
      idempotency: new IdempotencyService(new IdempotencyRepo(db), linkSecret),
      webhooksRepo,
      webhooks,
      webhookSecrets: new WebhookSecrets(webhooksRepo),
      sessions: new SessionsService(new SessionsRepo(db), { idleMs: config.sessionIdle, maxAgeMs: config.sessionMaxAge }),
    };
  } catch (e) {
    db.$client.close();
    throw e;
  }
}

/** Where PDFs go: the data dir, or the bucket of an s3:// --storage-url (nothing is contacted yet). */
export function openPdfStore(config: Config, logger: Logger): PdfStore {
  if (!config.storageUrl) return new FileStore(config.dataDir);
  return new S3PdfStore({ storageUrl: config.storageUrl, access: config.s3, dataDir: config.dataDir, logger });
}
