// bootstrap(): the only place that opens the database, migrates it and reads the secrets. It builds the
// repositories (app/repos.ts) and the services every entry point shares (HTTP, dashboard, CLI:
// app/services.ts) and hands them to an App, whose constructor does no I/O. Every CLI command goes
// through here, `migrate` included, but `migrate-to`: it opens both backends itself (cli/migrate-to.ts),
// since it copies one into the other. The database is SQLite in the data dir, or PostgreSQL with
// --database-url (db/open.ts); nothing past this file knows which.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config/settings";
import { SessionsService } from "../dashboard/sessions";
import { warnIfClockOff } from "../db/clock";
import { openBackend, redactUrl } from "../db/open";
import { randomSecret } from "../lib/ids";
import { createLogger, type Logger } from "../lib/logger";
import { PasswordSeal } from "../lib/seal";
import { StorageMonitor } from "../lib/storage";
import { openAssetBlobs } from "../modules/assets/blobs";
import { AssetResolver } from "../modules/assets/resolver";
import { AssetsService } from "../modules/assets/service";
import { AuditService } from "../modules/audit/service";
import { LinkSigner, loadLinkSecret } from "../modules/files/links";
import type { PdfStore } from "../modules/files/pdf-store";
import { S3PdfStore } from "../modules/files/s3-store";
import { type PdfSpool, SpoolDir } from "../modules/files/spool";
import { FileStore } from "../modules/files/store";
import { ReportCounts } from "../modules/health/counts";
import { IdempotencyService } from "../modules/idempotency/service";
import { KeyAuthenticator } from "../modules/keys/authenticator";
import { loadAuthPepper } from "../modules/keys/check";
import { KeysService } from "../modules/keys/service";
import { ReportEvents } from "../modules/reports/events";
import { ReportsService } from "../modules/reports/service";
import { ReportThumbnails } from "../modules/reports/thumbnail";
import { SigningService } from "../modules/signing/service";
import { SchemaValidator } from "../modules/templates/schema-validator";
import { TemplatesService } from "../modules/templates/service";
import { UsageService } from "../modules/usage/service";
import { WebhooksService } from "../modules/webhooks/service";
import { Rasteriser } from "../pdf/raster-thread";
import { fontconfigPath } from "../render/fonts";
import { App, type AppMode } from "./app";
import { MODULES, SCOPE_LIST } from "./modules";
import { reposOver } from "./repos";
import type { ModuleServices, Services } from "./services";

/** Renders nothing and listens nowhere: what the CLI's one-shot commands need. */
export const OFFLINE: AppMode = { listen: false, render: false };

/** Opens and migrates the database, reads the secrets and builds the services; the App starts nothing yet. */
export async function bootstrap(config: Config, opts: { logger?: Logger; mode?: AppMode } = {}): Promise<App> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  const services = await openServices(config, logger, opts.mode?.listen ?? false);
  return new App(config, services, logger, opts.mode ?? OFFLINE);
}

async function openServices(config: Config, logger: Logger, servesRequests: boolean): Promise<Services> {
  const backend = await openBackend(config, { servesRequests });
  try {
    const migration = backend.migrated;
    if (migration.applied.length) logger.info("database migrated", { applied: migration.applied, version: migration.version });
    if (backend.kind === "postgres") logger.debug("database", { url: redactUrl(config.databaseUrl) });
    if (backend.kind === "postgres" && servesRequests) await warnIfClockOff(backend.sql, logger);
    if (backend.kind === "postgres" && servesRequests && !config.storageUrl)
      logger.warn(
        "--database-url without --storage-url: PDFs stay on this instance's disk, so other instances cannot serve them; set an s3:// --storage-url",
      );
    const repos = reposOver(backend.sql, backend.owner);
    const files = openPdfStore(config, logger);
    const spool = openSpool(config, files);
    const storage = new StorageMonitor(config.dataDir, config.minFreeSpace, logger);
    // The link-signing secret and the auth pepper must be the same on every instance of a cluster: with
    // PostgreSQL they live in it (the first instance creates them), with SQLite they are files in the data dir.
    const shared = backend.secrets;
    const linkSecret =
      config.linkSecret || (shared ? await shared.getOrCreate("link-secret", randomSecret) : loadLinkSecret(config.dataDir, ""));
    const pepper = shared ? await shared.getOrCreate("auth-pepper", randomSecret) : loadAuthPepper(config.dataDir);
    const links = new LinkSigner(linkSecret, config.linkTtl);
    // Seals the PDF passwords of queued reports (options.encryption) under a key derived from the link secret.
    const seal = new PasswordSeal(linkSecret);
    const audit = new AuditService(repos.audit);
    // Seals the private keys of signing identities under a key of their own, from the same secret.
    const signing = new SigningService(repos.signing, new PasswordSeal(linkSecret, "reportgen signing keys v1"), audit);
    const webhooks = new WebhooksService(repos.webhooks, { allowHosts: config.webhookAllowHosts });
    const dataLimits = { maxBytes: config.dataMaxSize, maxDepth: config.dataMaxDepth, maxKeys: config.dataMaxKeys };
    const schemas = new SchemaValidator({ timeoutMs: config.schemaTimeout, nice: config.renderNice, logger });
    const rasteriser = new Rasteriser({ timeoutMs: config.renderTimeout, nice: config.renderNice, logger });
    const assetBlobs = openAssetBlobs(config, files.traffic);
    const assetResolver = new AssetResolver(repos.assets, assetBlobs);
    const templates = new TemplatesService(repos.templates, audit, {
      assets: assetResolver,
      templateMaxLength: config.templateMaxLength,
      dataLimits,
      allowHosts: config.allowHosts,
      // Chromium's own fontconfig file once the renderer wrote it (App.startRenderer); else the system's.
      fontconfigFile: () => (existsSync(fontconfigPath(config.dataDir)) ? fontconfigPath(config.dataDir) : undefined),
      schemas,
    });
    const reports = new ReportsService(repos.reports, files, links, new ReportEvents(), webhooks, {
      dataLimits,
      templates,
      accountQueueLimit: config.accountQueueLimit,
      queueLimit: config.queueLimit,
      storage,
      seal,
      signing,
      maxPages: config.maxPages,
      chunkMaxRows: config.chunkMaxRows,
      qpdf: { path: config.qpdfPath, timeoutMs: config.renderTimeout },
    });
    const keyAuth = new KeyAuthenticator(repos.keys, { pepper, logger });
    const keys = new KeysService(repos.keys, repos.accounts, audit, SCOPE_LIST, keyAuth);
    const keyNames = async (accountId: string) => new Map((await keys.list(accountId)).map((k) => [k.id, k.name]));
    const core: Omit<Services, keyof ModuleServices> = {
      backend,
      repos,
      migration,
      files,
      spool,
      storage,
      counts: new ReportCounts(repos.health),
      keys,
      keyAuth,
      reports,
      rasteriser,
      thumbnails: new ReportThumbnails(reports, repos.reports, files, {
        rasteriser,
        timeoutMs: config.renderTimeout,
        nice: config.renderNice,
        logger,
      }),
      links,
      seal,
      idempotency: new IdempotencyService(repos.idempotency, linkSecret),
      webhooks,
      templates,
      schemas,
      sessions: new SessionsService(repos.sessions, { idleMs: config.sessionIdle, maxAgeMs: config.sessionMaxAge }, audit),
      usage: new UsageService(repos.usage, keyNames),
      audit,
      assets: new AssetsService(repos.assets, assetBlobs, audit, {
        maxSize: config.assetMaxSize,
        accountMaxSize: config.assetAccountMaxSize,
      }),
      assetResolver,
      signing,
    };
    // Each module's own services, in the list's order: a module's factory sees those before it.
    const services = core as Services;
    const sealFor = (purpose: string) => new PasswordSeal(linkSecret, purpose);
    for (const m of MODULES) Object.assign(services, m.services?.({ config, sql: backend.sql, logger, services, sealFor }));
    return services;
  } catch (e) {
    await backend.close();
    throw e;
  }
}

/** Where PDFs go: the data dir, or the bucket of an s3:// --storage-url (nothing is contacted yet). */
export function openPdfStore(config: Config, logger: Logger): PdfStore {
  if (!config.storageUrl) return new FileStore(config.dataDir);
  return new S3PdfStore({ storageUrl: config.storageUrl, access: config.s3, logger });
}

/** Where this instance writes PDFs before the store takes them: on the data dir, the reports folder itself. */
export function openSpool(config: Config, files: PdfStore): PdfSpool {
  return files instanceof FileStore ? files : new SpoolDir(join(config.dataDir, "spool"));
}
