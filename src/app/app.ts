// App owns start-up and shut-down. bootstrap() (app/bootstrap.ts) opens the database and builds the
// services; the constructor only wires the parts that run (HTTP: app/routes.ts; the renderer and its
// processor: app/renderer.ts; webhooks, cron) and does no I/O; start() runs its named steps in order, and
// stop() undoes them in reverse. Callers reach the services through `services`.
import { existsSync } from "node:fs";
import type { Config, ServeRole } from "../config/settings";
import { WalCheckpointer } from "../db/checkpointer";
import { ConnectionGate } from "../http/connection-gate";
import { HttpDrain } from "../http/drain";
import { errorResponse, rawResponse, serverBusy } from "../http/errors";
import type { HttpApp } from "../http/server";
import { Reaper } from "../jobs/reaper";
import { type RetentionResult, runRetention } from "../jobs/retention";
import { checkCronPattern, Scheduler } from "../jobs/scheduler";
import { StartupError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { MemoryTrim } from "../lib/memory-trim";
import { ChildRegistry } from "../lib/supervisor";
import { browserTempRoot, removeStaleBrowserTemp } from "../lib/temp";
import { ServiceMetrics } from "../modules/health/metrics";
import { listenForPeers } from "../modules/reports/peers";
import { WebhookSender } from "../modules/webhooks/sender";
import { webhookPolicy } from "../modules/webhooks/target";
import { STEP_ORDER } from "../pdf/plan";
import { missingRasterTools } from "../pdf/raster";
import { writeFontconfig } from "../render/fonts";
import { VERSION } from "../version";
import { MODULES } from "./modules";
import { type Renderer, wireRenderer } from "./renderer";
import { bodyLimits, httpApp } from "./routes";
import type { Services } from "./services";

/** What an App runs besides its services: the HTTP listener, and the renderer with its processor. */
export interface AppMode {
  listen: boolean;
  render: boolean;
  /**
   * `serve --role`: api renders nothing (its readiness does not wait for a renderer); worker answers
   * only /livez, /readyz and /metrics. Unset: the mode alone decides (CLI commands, tests).
   */
  role?: ServeRole;
}

/** The App's mode for `serve --role`. */
export const serveMode = (role: ServeRole): AppMode => ({ listen: true, render: role !== "api", role });

export class App {
  readonly metrics = new ServiceMetrics();
  /** Every supervised child process or thread: restart counts per kind for /metrics (children.stats()). */
  readonly children = new ChildRegistry();
  readonly http: HttpApp;
  /** The connection gate in front of the HTTP server (only when listening with --max-connections > 0). */
  readonly gate?: ConnectionGate;
  /** Retires keep-alive connections on a graceful stop instead of cutting them (http/drain.ts). */
  private readonly httpDrain: HttpDrain;
  readonly webhookSender: WebhookSender;
  /** The EJS sandboxes, Chromium's pool and the report processor, when the App renders. */
  readonly renderer?: Renderer;
  private readonly scheduler: Scheduler;
  private readonly reaper?: Reaper;
  /** Gives a burst's freed memory back once the service is quiet (lib/memory-trim.ts). */
  readonly memoryTrim: MemoryTrim;
  /** SQLite only. */
  private readonly checkpointer?: WalCheckpointer;
  private stopping?: Promise<void>;
  private draining?: Promise<{ handedBack: number }>;
  private unlisten: (() => Promise<void>)[] = [];

  constructor(
    readonly config: Config,
    readonly services: Services,
    readonly logger: Logger,
    readonly mode: AppMode,
  ) {
    const c = config;
    const s = services;
    const sqlite = s.backend.db?.$client;
    if (sqlite) this.checkpointer = new WalCheckpointer(sqlite, logger, this.children);
    this.renderer = mode.render ? wireRenderer(c, s, { logger, children: this.children, metrics: this.metrics }) : undefined;
    const quietMs = mode.listen || mode.render ? c.memoryTrimAfter : 0;
    this.memoryTrim = new MemoryTrim({
      quietMs,
      logger,
      collectOthers: () => this.renderer?.pool.collectGarbage(),
      releaseWhenQuiet: sqlite ? () => sqlite.exec("PRAGMA shrink_memory") : undefined,
    });
    const probe = {
      // An api instance renders nothing by design: readiness is about its database and disk only.
      rendererReady: () => (mode.role === "api" ? true : this.rendererReady()),
      // Waiting in the whole queue (every instance's, with PostgreSQL); being rendered here.
      queued: () => s.counts.statuses().queued ?? 0,
      rendering: () => this.renderer?.processor.busy ?? 0,
      draining: () => this.draining !== undefined,
      refresh: s.counts.refresh,
    };
    this.httpDrain = new HttpDrain(probe.draining);
    this.http = httpApp(c, s, { logger, metrics: this.metrics, probe, probesOnly: mode.role === "worker", drain: this.httpDrain });
    this.metrics.bind({
      version: VERSION,
      reportsByStatus: () => s.counts.statuses(),
      ...probe,
      storage: s.storage,
      files: s.files,
      restarts: () => Object.fromEntries(Object.entries(this.children.stats()).map(([kind, st]) => [kind, st.restarts])),
      recycles: () => Object.fromEntries(Object.entries(this.children.stats()).map(([kind, st]) => [kind, st.recycles])),
      connections: () => ({ open: this.gate?.connections ?? 0, refused: this.gate?.refused ?? 0 }),
      memoryTrims: () => this.memoryTrim.count,
      memoryBurstCollections: () => this.memoryTrim.burstCollections,
      keyTouchFailures: () => s.keyAuth.touchFailures,
    });
    // With a connection cap, the HTTP server listens on loopback only and the gate takes the public
    // address (see http/connection-gate.ts: Bun.serve cannot count or refuse connections itself).
    if (mode.listen && c.maxConnections > 0) {
      this.gate = new ConnectionGate({
        hostname: c.host,
        port: c.port,
        maxConnections: c.maxConnections,
        idleTimeoutMs: c.idleTimeout,
        logger,
      });
    }
    // Webhooks are sent with or without the renderer (deliveries left by an earlier run go out too).
    this.webhookSender = new WebhookSender(s.repos.webhooks, s.repos.reports, s.webhookSecrets, s.files, s.links, {
      ...webhookPolicy(c),
      concurrency: 8,
      logger,
      sole: s.backend.kind === "sqlite",
    });
    s.reports.events.onFinished(this.webhookSender.notify);
    this.scheduler = new Scheduler(logger);
    // Every instance reaps, whatever its role (jobs/reaper.ts); with SQLite this process owns the queue.
    if (s.backend.kind === "postgres") this.reaper = new Reaper(s.repos.queue, { maxAttempts: c.maxAttempts, logger });
  }

  /** Starts what the mode asks for: the steps run in this order, and stop() undoes them in reverse. */
  async start(): Promise<void> {
    checkCronPattern(this.config.cleanupSchedule);
    // Chromium and the EJS sandbox take the longest to come up: they start first, while the rest does
    // (/readyz waits for them, not for the steps below). A failure is thrown where it is awaited.
    const launching = this.renderer ? this.launchRenderer(this.renderer) : undefined;
    launching?.catch(() => {});
    await this.services.files.init();
    this.services.spool.init();
    await this.checkpointer?.start();
    // What the modules' services run (the templates' data_schema thread, ...), in the list's order.
    for (const m of MODULES) await m.start?.({ services: this.services, children: this.children, logger: this.logger });
    await this.listenForPeers();
    // Listen before Chromium is up: reports are accepted (durably queued) at once, and /readyz
    // answers 503 "starting" until the renderer is ready.
    if (this.mode.listen) await this.listen();
    await launching;
    if (this.renderer) {
      this.warnAboutRenderer();
      this.renderer.processor.start();
    }
    this.webhookSender.start();
    this.reaper?.start();
    this.scheduler.add("cleanup", this.config.cleanupSchedule, () => this.cleanup());
    this.memoryTrim.start();
  }

  /** With PostgreSQL, other instances' work reaches this one by NOTIFY (see modules/reports/peers.ts). */
  private async listenForPeers(): Promise<void> {
    const pg = this.services.backend.pg;
    if (!pg) return;
    this.unlisten = await listenForPeers(pg, this.services.reports.events, this.services.repos.queue);
    // Verified keys are kept for a moment once their changes are announced (modules/keys/row-cache.ts).
    const rows = this.services.keyAuth.rows;
    const keys = await pg.listen(
      "reportgen_keys",
      (id) => rows.changed(id),
      () => rows.reset(),
    );
    this.unlisten.push(keys.unlisten);
    rows.enable();
  }

  private async listen(): Promise<void> {
    const c = this.config;
    // Bun itself cuts off only bodies past the discard limit; http/body.ts answers the rest with a readable 413.
    try {
      this.http.listen({
        hostname: this.gate ? "127.0.0.1" : c.host,
        port: this.gate ? 0 : c.port,
        maxRequestBodySize: bodyLimits(c).discardLimit,
        idleTimeout: Math.round(c.idleTimeout / 1000),
      });
    } catch (e) {
      throw listenRefusal(e, c.host, c.port);
    }
    const server = this.server;
    if (this.gate && server?.port) {
      const busy = serverBusy(`${c.maxConnections} connections, its limit`);
      try {
        this.gate.start({ port: server.port, busyResponse: await rawResponse(errorResponse(busy, { connection: "close" })) });
      } catch (e) {
        await server.stop(true);
        throw listenRefusal(e, c.host, c.port);
      }
    }
    this.logger.info("reportgen listening", {
      url: `http://${c.host}:${this.port}`,
      version: VERSION,
      data_dir: c.dataDir,
      role: this.mode.role ?? "all",
      pdfs: c.storageUrl || "data dir",
      max_connections: c.maxConnections || "off",
    });
  }

  /**
   * What the renderer will run without, said once the instance is up: a start that fails (on a port
   * another program holds) prints only why, in one line.
   */
  private warnAboutRenderer(): void {
    const c = this.config;
    if (process.getuid?.() === 0) {
      this.logger.warn(
        "running as root: Chromium's sandbox is off. Run reportgen as an unprivileged user (see the README's systemd unit) to keep it on.",
      );
    }
    if (!existsSync(c.qpdfPath)) {
      this.logger.warn(
        `qpdf was not found at ${c.qpdfPath}: every report with a post-processing step (${STEP_ORDER.map((s) => s.name).join(", ")}: PDF/A and Factur-X, signatures, page numbers included) and every merge will fail (postprocess_failed). Install Debian's package (apt-get install qpdf) or set --qpdf-path / REPORTGEN_QPDF_PATH`,
      );
    }
    const pictureTools = missingRasterTools();
    if (pictureTools.length)
      this.logger.warn(
        `${pictureTools.join(" and ")} not found: every report with options.image as JPEG or WebP will fail (postprocess_failed). Install Debian's packages (apt-get install libjpeg-turbo-progs webp)`,
      );
  }

  /** Checks that Chromium is there and starts it with the EJS sandbox; the processor starts later. */
  private async launchRenderer(r: Renderer): Promise<void> {
    const c = this.config;
    const log = this.logger;
    if (!existsSync(c.chromiumPath)) {
      throw new StartupError(
        `Chromium was not found at ${c.chromiumPath}: install Debian's package (apt-get install chromium-headless-shell) or set --chromium-path / REPORTGEN_CHROMIUM_PATH`,
      );
    }
    const removed = removeStaleBrowserTemp(browserTempRoot(c.dataDir));
    if (removed) log.info("removed Chromium temp folders an earlier run left behind", { removed });
    writeFontconfig(c.dataDir, c.fontsDir || undefined);
    r.post.init();
    await r.egress?.start();
    await Promise.all([r.templating.start(), r.pool.start()]);
  }

  /** The HTTP server, once listening. */
  get server() {
    return this.http.server ?? undefined;
  }

  /**
   * True while reports can be rendered: a Chromium is up and answers its health probe, and an EJS
   * sandbox is up. /readyz answers 503 otherwise.
   */
  rendererReady(): boolean {
    return (this.renderer?.pool.healthy ?? false) && (this.renderer?.templating.healthy ?? false);
  }

  /** The retention job (jobs/retention.ts): once at a time across instances with PostgreSQL. */
  cleanup(): Promise<RetentionResult> {
    return runRetention(this.services, this.logger, this.config.auditRetention);
  }

  /** The public port: the connection gate's, or the HTTP server's when there is no gate. */
  get port(): number | undefined {
    return this.gate?.port ?? this.server?.port;
  }

  /**
   * The first half of a graceful stop (serve's SIGTERM; stop() follows): /readyz answers 503 at once,
   * so load balancers take the instance out; the reports claimed here that nothing has started on go
   * back to the queue at once; requests are still served for --drain-period (with PostgreSQL: one SQLite
   * instance has no peer to take over); then every long poll is
   * answered as its report stands (202 with Retry-After while unfinished), and new ones wait no more.
   */
  drain(): Promise<{ handedBack: number }> {
    this.draining ??= (async () => {
      const handedBack = this.renderer?.processor.quiesce() ?? 0;
      // One SQLite instance has no peer to take its traffic: nothing to wait for.
      if (this.mode.listen && this.services.backend.kind === "postgres") await Bun.sleep(this.config.drainPeriod);
      this.services.reports.events.releaseAll();
      return { handedBack };
    })();
    return this.draining;
  }

  /** Stops in reverse order: no new requests, in-flight renders finish or go back to the queue. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const deadline = this.config.shutdownTimeout;
      // No new connection first, then the clients' last requests (http/drain.ts), then the HTTP server
      // drains, then the gate hands over what is left.
      this.gate?.stopAccepting();
      await this.httpDrain.settle();
      await this.server?.stop(false);
      await this.gate?.drain(2000);
      this.gate?.close();
      this.scheduler.stop();
      this.reaper?.stop();
      this.memoryTrim.stop();
      await this.renderer?.processor.stop(deadline);
      await this.webhookSender.stop();
      for (const m of MODULES.toReversed()) await m.stop?.(this.services);
      await Promise.all([this.renderer?.pool.stop(), this.renderer?.templating.stop()]);
      await this.renderer?.egress?.close();
      await this.checkpointer?.stop();
      this.services.storage.stop();
      this.services.files.stop();
      for (const off of this.unlisten) await off().catch(() => {});
      await this.services.backend.close();
      if (this.mode.listen || this.mode.render) this.logger.info("reportgen stopped");
    })();
    return this.stopping;
  }
}

/**
 * Why the public port could not be opened, as serve's one line: Bun says "Failed to listen at 0.0.0.0",
 * naming neither the port nor the cause.
 */
function listenRefusal(e: unknown, host: string, port: number): unknown {
  const code = (e as { code?: unknown })?.code;
  const at = `${host}:${port}`;
  if (code === "EADDRINUSE")
    return new StartupError(
      `cannot listen on ${at}: the port is in use (another reportgen, or another program); stop it, or choose another with --port`,
    );
  if (code === "EADDRNOTAVAIL")
    return new StartupError(
      `cannot listen on ${at}: no network interface of this machine has that address; fix --host (0.0.0.0: every interface)`,
    );
  if (code === "EACCES")
    return new StartupError(
      `cannot listen on ${at}: ports below 1024 need privileges; choose --port 1024 or above, or grant CAP_NET_BIND_SERVICE`,
    );
  return e;
}
