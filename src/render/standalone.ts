// The render layer on its own, for the CLI (`reportgen render`, `reportgen doctor`): the same EJS sandbox,
// Chromium pool, network policy, limits and fonts as the service, built from the same settings, but with
// no database, no key and no HTTP. Everything it writes (fontconfig, Chromium's profile and temp files,
// the PDF) goes into one temporary folder that stop() removes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "../config/settings";
import { StartupError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { ChildRegistry } from "../lib/supervisor";
import { browserTempRoot } from "../lib/temp";
import { VERSION } from "../version";
import { type EgressProxy, startEgressProxy } from "./egress-proxy";
import { writeFontconfig } from "./fonts";
import { type PoolOptions, RenderPool } from "./pool";
import { type TemplatingOptions, TemplatingPool } from "./templating";

/** The EJS sandbox pool's options from the settings (what the service runs with). */
export function templatingOptions(c: Config, o: { logger: Logger; registry?: ChildRegistry; processes?: number }): TemplatingOptions {
  return {
    processes: o.processes ?? c.sandboxes,
    nice: c.renderNice,
    timeoutMs: c.templateTimeout,
    memoryBytes: c.templateMemory,
    outputMax: c.templateOutputMax,
    logger: o.logger,
    registry: o.registry,
  };
}

/** The Chromium pool's options from the settings (what the service runs with). */
export function renderPoolOptions(
  c: Config,
  o: {
    logger: Logger;
    registry: ChildRegistry;
    tmpRoot: string;
    fontconfigFile: string;
    proxy?: { readonly url: string };
    workers?: number;
    pages?: number;
  },
): PoolOptions {
  return {
    workers: o.workers ?? c.renderWorkers,
    nice: c.renderNice,
    pages: o.pages ?? c.renderPages,
    idlePages: Math.min(o.pages ?? c.renderPages, c.renderIdlePages),
    executablePath: c.chromiumPath,
    renderTimeoutMs: c.renderTimeout,
    recycleAfter: c.recycleAfter,
    javascript: c.javascript,
    allowHosts: c.allowHosts,
    proxy: o.proxy,
    fontconfigFile: o.fontconfigFile,
    creator: `reportgen ${VERSION}`,
    logger: o.logger,
    registry: o.registry,
    tmpRoot: o.tmpRoot,
  };
}

/** The fix printed when Chromium is not where the settings say. */
export const chromiumMissing = (path: string) =>
  `Chromium was not found at ${path}: install Debian's package (apt-get install chromium-headless-shell) or set --chromium-path / REPORTGEN_CHROMIUM_PATH`;

/**
 * One Chromium with one page and, for EJS, one sandbox: a single document needs no more, and both
 * start in parallel. Lazily: nothing starts before start().
 */
export class StandaloneRenderer {
  readonly dir: string;
  templating?: TemplatingPool;
  pool?: RenderPool;
  private egress?: EgressProxy;
  private stopped?: Promise<void>;

  /** Why a child last failed to start, as the supervisor logged it: the CLI's log shows errors only. */
  private lastFailure?: string;
  private readonly logger: Logger;

  constructor(
    private readonly config: Config,
    logger: Logger,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), "reportgen-render-"));
    this.logger = this.watch(logger);
  }

  private watch(l: Logger): Logger {
    const note = (fields?: Record<string, unknown>) => {
      if (typeof fields?.cause === "string") this.lastFailure = fields.cause;
    };
    return {
      ...l,
      warn: (m, f) => {
        note(f);
        l.warn(m, f);
      },
      error: (m, f) => {
        note(f);
        l.error(m, f);
      },
      child: (fields) => this.watch(l.child(fields)),
    };
  }

  /** The gist of a launch failure: its first line and how the process ended (Playwright's log is long). */
  private failure(): string {
    const cause = this.lastFailure;
    if (!cause) return "see the log with --log-level debug";
    const exit = /<process did exit: [^>]*>/.exec(cause)?.[0];
    return [cause.split("\n")[0], exit].filter(Boolean).join("; ");
  }

  /** Starts Chromium (and the sandbox with `ejs`); throws a StartupError when Chromium cannot come up. */
  async start(o: { ejs: boolean }): Promise<void> {
    const c = this.config;
    if (!(await Bun.file(c.chromiumPath).exists())) throw new StartupError(chromiumMissing(c.chromiumPath));
    // Chromium keeps crash-report settings in ~/.config/chromium and a dconf cache in ~/.cache: in a one-shot
    // command they go into the temporary folder too. This process is the CLI's own, and the render worker
    // (and its Chromium) copy the environment when they start.
    process.env.XDG_CONFIG_HOME = join(this.dir, "xdg-config");
    process.env.XDG_CACHE_HOME = join(this.dir, "xdg-cache");
    const registry = new ChildRegistry();
    if (c.allowHosts.length) this.egress = await startEgressProxy({ allowHosts: c.allowHosts, logger: this.logger });
    if (o.ejs) this.templating = new TemplatingPool(templatingOptions(c, { logger: this.logger, registry, processes: 1 }));
    this.pool = new RenderPool(
      renderPoolOptions(c, {
        logger: this.logger,
        registry,
        tmpRoot: browserTempRoot(this.dir),
        fontconfigFile: writeFontconfig(this.dir, c.fontsDir || undefined),
        proxy: this.egress,
        workers: 1,
        pages: 1,
      }),
    );
    await Promise.all([this.templating?.start(), this.pool.start()]);
    if (!this.pool.usable)
      throw new StartupError(`Chromium at ${c.chromiumPath} did not start (${this.failure()}); run "reportgen doctor" to find out why`);
    if (this.templating && !this.templating.usable) throw new StartupError(`the EJS sandbox process did not start (${this.failure()})`);
  }

  /** Stops Chromium and the sandbox, then removes the temporary folder. Safe to call twice. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      await Promise.all([this.pool?.stop(), this.templating?.stop()]).catch(() => {});
      await this.egress?.close().catch(() => {});
      rmSync(this.dir, { recursive: true, force: true });
    })();
    return this.stopped;
  }
}
