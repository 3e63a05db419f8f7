// App owns start-up and shut-down: database → migrations → HTTP → renderer → processor → cron,
// and the reverse on stop. CLI commands use the same App to reach the same services.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { availableParallelism } from "node:os";
import type { Config } from "./config/settings";
import { openDatabase, type Db } from "./db/client";
import { WalCheckpointer } from "./db/checkpointer";
import { migrate } from "./db/migrate";
import { createLogger, type Logger } from "./lib/logger";
import { StartupError } from "./lib/errors";
import { browserTempRoot, removeStaleBrowserTemp } from "./lib/temp";
import { ChildRegistry } from "./lib/supervisor";
import { runCleanup } from "./jobs/cleanup";
import { Scheduler, checkCronPattern } from "./jobs/scheduler";
import { AccountsRepo } from "./modules/accounts/repo";
import { KeysRepo } from "./modules/keys/repo";
import { KeysService } from "./modules/keys/service";
import { loadAuthPepper } from "./modules/keys/check";
import { ReportsRepo } from "./modules/reports/repo";
import { ReportsService } from "./modules/reports/service";
import { ReportEvents } from "./modules/reports/events";
import { ReportProcessor } from "./modules/reports/processor";
import { FileStore } from "./modules/files/store";
import { LinkSigner, loadLinkSecret } from "./modules/files/links";
import { IdempotencyRepo } from "./modules/idempotency/repo";
import { IdempotencyService } from "./modules/idempotency/service";
import { WebhooksRepo } from "./modules/webhooks/repo";
import { WebhookSecrets } from "./modules/webhooks/secrets";
import { WebhookSender } from "./modules/webhooks/sender";
import { WebhooksService } from "./modules/webhooks/service";
import { RenderPool } from "./render/pool";
import { startEgressProxy, type EgressProxy } from "./render/egress-proxy";
import { TemplatingPool } from "./render/templating";
import { writeFontconfig } from "./render/fonts";
import { createHttpApp, type HttpApp } from "./http/server";
import { ConnectionGate } from "./http/connection-gate";
import { errorResponse, rawResponse, serverBusy } from "./http/errors";
import type { BodyLimits } from "./http/body";
import { StorageMonitor, storageFault } from "./lib/storage";
import { HealthRepo } from "./modules/health/repo";
import { ServiceMetrics } from "./modules/health/metrics";
import { VERSION } from "./version";
import { SessionsRepo } from "./dashboard/sessions-repo";
import { SessionsService } from "./dashboard/sessions";

export class App {
  readonly logger: Logger;
  readonly db: Db;
  readonly files: FileStore;
  readonly reportsRepo: ReportsRepo;
  readonly keys: KeysService;
  readonly reports: ReportsService;
  readonly links: LinkSigner;
  readonly idempotency: IdempotencyService;
  readonly webhooksRepo: WebhooksRepo;
  readonly webhooks: WebhooksService;
  readonly webhookSecrets: WebhookSecrets;
  webhookSender?: WebhookSender;
  readonly sessions: SessionsService;
  readonly storage: StorageMonitor;
  readonly metrics = new ServiceMetrics();
  /** Every supervised child process or thread: restart counts per kind for /metrics (children.stats()). */
  readonly children = new ChildRegistry();
  templating?: TemplatingPool;
  pool?: RenderPool;
  processor?: ReportProcessor;
  http?: HttpApp;
  server?: ReturnType<HttpApp["listen"]>["server"];
  /** The connection gate in front of `server` (absent with --max-connections 0). */
  gate?: ConnectionGate;
  private scheduler?: Scheduler;
  private checkpointer?: WalCheckpointer;
  private egress?: EgressProxy;
  private stopping?: Promise<void>;

  /** Opens and migrates the database: enough for the CLI's admin commands. */
  constructor(
    readonly config: Config,
    logger?: Logger,
  ) {
    this.logger = logger ?? createLogger(config.logLevel);
    this.db = openDatabase(join(config.dataDir, "reportgen.db"));
    const m = migrate(this.db.$client);
    if (m.applied.length) this.logger.info("database migrated", { applied: m.applied, version: m.version });
    this.files = new FileStore(config.dataDir);
    this.storage = new StorageMonitor(config.dataDir, config.minFreeSpace, this.logger);
    this.reportsRepo = new ReportsRepo(this.db);
    this.keys = new KeysService(new KeysRepo(this.db), new AccountsRepo(this.db), loadAuthPepper(config.dataDir));
    const linkSecret = loadLinkSecret(config.dataDir, config.linkSecret);
    this.links = new LinkSigner(linkSecret, config.linkTtl);
    this.sessions = new SessionsService(new SessionsRepo(this.db), { idleMs: config.sessionIdle, maxAgeMs: config.sessionMaxAge });
    this.reports = new ReportsService(this.reportsRepo, this.files, this.links, new ReportEvents(), {
      dataLimits: { maxBytes: config.dataMaxSize, maxDepth: config.dataMaxDepth, maxKeys: config.dataMaxKeys },
      accountQueueLimit: config.accountQueueLimit,
      queueLimit: config.queueLimit,
      storage: this.storage,
    });
    this.idempotency = new IdempotencyService(new IdempotencyRepo(this.db), linkSecret);
    this.webhooksRepo = new WebhooksRepo(this.db);
    this.webhookSecrets = new WebhookSecrets(this.webhooksRepo);
    this.webhooks = new WebhooksService(this.webhooksRepo, { allowHosts: config.webhookAllowHosts });
    this.reports.webhooks = this.webhooks;
  }

  /** Starts the renderer (unless `render: false`, for API tests), the processor, cron and, with `listen`, HTTP. */
  async start(opts: { listen?: boolean; render?: boolean } = {}): Promise<void> {
    const c = this.config;
    const log = this.logger;
    checkCronPattern(c.cleanupSchedule);
    this.files.init();
    this.checkpointer = new WalCheckpointer(this.db.$client, log, this.children);
    await this.checkpointer.start();
    const health = new HealthRepo(this.db.$client);
    const probe = {
      rendererReady: () => this.rendererReady(),
      queued: () => this.reportsRepo.countUnfinished() - (this.processor?.busy ?? 0),
      rendering: () => this.processor?.busy ?? 0,
    };
    this.http = createHttpApp({
      logger: log,
      version: VERSION,
      keys: this.keys,
      reports: this.reports,
      reportsRepo: this.reportsRepo,
      files: this.files,
      links: this.links,
      health: probe,
      guard: { body: bodyLimits(c), submitRateLimit: c.submitRateLimit, readRateLimit: c.readRateLimit, trustProxy: c.trustProxy },
      maxRequests: c.maxRequests,
      templateMaxLength: c.templateMaxLength,
      publicUrl: c.publicUrl,
      idempotency: this.idempotency,
      webhooks: this.webhooks,
      webhookSecrets: this.webhookSecrets,
      dashboard: { sessions: this.sessions, sessionMaxAgeMs: c.sessionMaxAge, signInFailLimit: c.signInFailLimit },
      readiness: {
        probeDatabaseWrite: () => health.probeWrite(Date.now()),
        storage: this.storage,
        metrics: this.metrics,
        metricsToken: c.metricsToken,
      },
      onStorageFault: (fault, cause) => this.storage.report(fault, cause),
    });
    this.metrics.bind({
      version: VERSION,
      reportsByStatus: () => health.reportsByStatus(),
      ...probe,
      storage: this.storage,
      restarts: () => Object.fromEntries(Object.entries(this.children.stats()).map(([kind, s]) => [kind, s.restarts])),
      recycles: () => Object.fromEntries(Object.entries(this.children.stats()).map(([kind, s]) => [kind, s.recycles])),
      connections: () => ({ open: this.gate?.connections ?? 0, refused: this.gate?.refused ?? 0 }),
    });

    // Listen before Chromium is up: reports are accepted (durably queued) at once, and /healthz
    // answers 503 "starting" until the renderer is ready.
    if (opts.listen) {
      // With a connection cap, the HTTP server listens on loopback only and the gate takes the public
      // address (see http/connection-gate.ts: Bun.serve cannot count or refuse connections itself).
      const gated = c.maxConnections > 0;
      // Bun itself cuts off only bodies past the discard limit; http/body.ts answers the rest with a readable 413.
      this.http.listen({
        hostname: gated ? "127.0.0.1" : c.host,
        port: gated ? 0 : c.port,
        maxRequestBodySize: bodyLimits(c).discardLimit,
        idleTimeout: Math.round(c.idleTimeout / 1000),
      });
      this.server = this.http.server!;
      if (gated) {
        const busy = serverBusy(`${c.maxConnections} connections, its limit`);
        this.gate = new ConnectionGate({
          hostname: c.host,
          port: c.port,
          upstreamPort: this.server.port!,
          maxConnections: c.maxConnections,
          idleTimeoutMs: c.idleTimeout,
          busyResponse: await rawResponse(errorResponse(busy, { connection: "close" })),
          logger: log,
        });
        try {
          this.gate.start();
        } catch (e) {
          await this.server.stop(true);
          throw e;
        }
      }
      log.info("reportgen listening", {
        url: `http://${c.host}:${this.port}`,
        version: VERSION,
        data_dir: c.dataDir,
        max_connections: c.maxConnections || "off",
      });
    }

    if (opts.render !== false) {
      if (!existsSync(c.chromiumPath)) {
        throw new StartupError(
          `Chromium was not found at ${c.chromiumPath}: install Debian's package (apt-get install chromium-headless-shell) or set --chromium-path / REPORTGEN_CHROMIUM_PATH`,
        );
      }
      if (process.getuid?.() === 0) {
        log.warn(
          "running as root: Chromium's sandbox is off. Run reportgen as an unprivileged user (see the README's systemd unit) to keep it on.",
        );
      }
      const browserTemp = browserTempRoot(c.dataDir);
      const removed = removeStaleBrowserTemp(browserTemp);
      if (removed) log.info("removed Chromium temp folders an earlier run left behind", { removed });
      if (c.allowHosts.length) this.egress = await startEgressProxy({ allowHosts: c.allowHosts, logger: log });
      this.templating = new TemplatingPool({
        processes: c.sandboxes,
        nice: c.renderNice,
        timeoutMs: c.templateTimeout,
        memoryBytes: c.templateMemory,
        outputMax: c.templateOutputMax,
        logger: log,
        registry: this.children,
      });
      this.pool = new RenderPool({
        workers: c.renderWorkers,
        nice: c.renderNice,
        pages: c.renderPages,
        executablePath: c.chromiumPath,
        renderTimeoutMs: c.renderTimeout,
        recycleAfter: c.recycleAfter,
        javascript: c.javascript,
        allowHosts: c.allowHosts,
        proxyUrl: this.egress?.url,
        fontconfigFile: writeFontconfig(c.dataDir, c.fontsDir || undefined),
        creator: `reportgen ${VERSION}`,
        logger: log,
        registry: this.children,
        tmpRoot: browserTemp,
      });
      await Promise.all([this.templating.start(), this.pool.start()]);
      // Enough lanes that the next report's templating and queue work overlap with printing.
      const lanes = this.pool.capacity + Math.max(2, Math.ceil(availableParallelism() / 2));
      this.processor = new ReportProcessor(this.reportsRepo, this.files, this.templating, this.pool, this.reports.events, {
        lanes,
        maxPages: c.maxPages,
        maxPdfSize: c.maxPdfSize,
        maxAttempts: c.maxAttempts,
        retentionMs: c.retention,
        logger: log,
        storage: this.storage,
        metrics: this.metrics,
        // Run by the processor before its first report, and again if the disk refused it.
        resume: () => {
          const recovered = this.reportsRepo.recover(c.maxAttempts, Date.now());
          if (recovered.requeued || recovered.failed) log.info("recovered interrupted reports", recovered);
        },
      });
      this.reports.onQueued = this.processor.notify;
      this.processor.start();
    }

    // Webhooks are sent with or without the renderer (deliveries left by an earlier run go out too).
    this.webhookSender = new WebhookSender(this.webhooksRepo, this.reportsRepo, this.webhookSecrets, this.files, this.links, {
      allowHosts: c.webhookAllowHosts,
      timeoutMs: c.webhookTimeout,
      retryWindowMs: c.webhookRetryWindow,
      retryBaseMs: c.webhookRetryBase,
      concurrency: 8,
      logger: log,
    });
    this.reports.events.onFinished(this.webhookSender.notify);
    this.webhookSender.start();

    this.scheduler = new Scheduler(log);
    this.scheduler.add("cleanup", c.cleanupSchedule, () => this.cleanup());
  }

  /**
   * True while reports can be rendered: a Chromium is up and answers its health probe, and an EJS
   * sandbox is up. /healthz (and /readyz) answer 503 otherwise.
   */
  rendererReady(): boolean {
    return (this.pool?.healthy ?? false) && (this.templating?.healthy ?? false);
  }

  cleanup() {
    try {
      const purged = this.idempotency.purgeExpired();
      if (purged) this.logger.debug("expired idempotency keys removed", { purged });
    } catch (e) {
      // On a full disk the retention job below still runs: it is what gives space back.
      const fault = storageFault(e);
      if (!fault) throw e;
      this.storage.report(fault, e);
    }
    return runCleanup(this.reportsRepo, this.files, this.logger, Date.now(), this.storage);
  }

  /** The public port: the connection gate's, or the HTTP server's when there is no gate. */
  get port(): number | undefined {
    return this.gate?.port ?? this.server?.port;
  }

  /** Stops in reverse order: no new requests, in-flight renders finish or go back to the queue. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const deadline = this.config.shutdownTimeout;
      // No new connection first, then the HTTP server drains, then the gate hands over what is left.
      this.gate?.stopAccepting();
      await this.server?.stop(false);
      await this.gate?.drain(2000);
      this.gate?.close();
      this.scheduler?.stop();
      await this.processor?.stop(deadline);
      await this.webhookSender?.stop();
      await Promise.all([this.pool?.stop(), this.templating?.stop()]);
      await this.egress?.close();
      await this.checkpointer?.stop();
      this.storage.stop();
      this.db.$client.close();
      this.logger.info("reportgen stopped");
    })();
    return this.stopping;
  }
}

/** An over-limit body is read and discarded up to 4x the limit (at least 1 MB more), then cut off. */
function bodyLimits(c: Config): BodyLimits {
  return { limit: c.bodyLimit, discardLimit: Math.max(c.bodyLimit * 4, c.bodyLimit + 1024 ** 2), timeoutMs: c.bodyTimeout };
}
