// The renderer's parts, wired for an App that renders: the EJS sandboxes, Chromium's render pool, qpdf,
// the egress proxy, and the report processor that drives them. Wiring only: App.start() starts them and
// App.stop() stops them (app/app.ts).
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { Config } from "../config/settings";
import type { Logger } from "../lib/logger";
import type { ChildRegistry } from "../lib/supervisor";
import { browserTempRoot } from "../lib/temp";
import type { ServiceMetrics } from "../modules/health/metrics";
import { ReportProcessor } from "../modules/reports/processor";
import { LEASE_MS } from "../modules/reports/queue";
import { tsaClient } from "../modules/signing/tsa";
import { sampleRenderer } from "../modules/templates/sample-renderer";
import { PdfPipeline } from "../pdf/pipeline";
import { createEgressProxy, type EgressProxy } from "../render/egress-proxy";
import { fontconfigPath } from "../render/fonts";
import { RenderPool } from "../render/pool";
import { renderPoolOptions, templatingOptions } from "../render/standalone";
import { TemplatingPool } from "../render/templating";
import type { Services } from "./services";

/** The renderer's parts, present when the App renders. */
export interface Renderer {
  templating: TemplatingPool;
  /** The PDF pipeline, for post-processing and merges. */
  post: PdfPipeline;
  pool: RenderPool;
  processor: ReportProcessor;
  egress?: EgressProxy;
}

export function wireRenderer(c: Config, s: Services, d: { logger: Logger; children: ChildRegistry; metrics: ServiceMetrics }): Renderer {
  const log = d.logger;
  const egress = c.allowHosts.length ? createEgressProxy({ allowHosts: c.allowHosts, logger: log }) : undefined;
  // The same option mapping as `reportgen render` and `doctor` (render/standalone.ts): one place.
  const templating = new TemplatingPool(templatingOptions(c, { logger: log, registry: d.children }));
  const pool = new RenderPool(
    renderPoolOptions(c, {
      logger: log,
      registry: d.children,
      tmpRoot: browserTempRoot(c.dataDir),
      fontconfigFile: fontconfigPath(c.dataDir),
      proxy: egress,
    }),
  );
  const post = new PdfPipeline({
    qpdfPath: c.qpdfPath,
    timeoutMs: c.renderTimeout,
    nice: c.renderNice,
    workDir: join(c.dataDir, "post"),
    logger: log,
    // A table of contents is printed like any report: the same Chromium, network policy and deadline.
    print: (html, options) => pool.render({ html, options }),
    rasteriser: s.rasteriser,
    signer: {
      key: (id) => s.signing.key(id),
      timestamp: c.tsaUrl ? tsaClient({ url: c.tsaUrl, allowHosts: c.tsaAllowHosts, timeoutMs: c.tsaTimeout, logger: log }) : undefined,
    },
  });
  const shared = s.backend.kind === "postgres";
  const processor = new ReportProcessor(s.repos.queue, s.files, s.spool, templating, pool, s.reports.events, {
    // Enough lanes that the next report's templating and queue work overlap with printing.
    lanes: pool.capacity + Math.max(2, Math.ceil(availableParallelism() / 2)),
    maxAttempts: c.maxAttempts,
    maxPages: c.maxPages,
    maxPdfSize: c.maxPdfSize,
    reportTimeoutMs: c.reportTimeout,
    chunkParallel: c.chunkParallel,
    chunkHtmlInFlight: c.chunkHtmlInFlight,
    chunkPartHtml: c.chunkPartHtml,
    retentionMs: c.retention,
    logger: log,
    storage: s.storage,
    metrics: d.metrics,
    post: { pipeline: post, seal: s.seal, reports: s.repos.reports },
    assets: s.assetResolver,
    // Run by the processor before its first report, and again if the disk refused it. With SQLite this
    // process owns the queue, so whatever is `processing` was left by a crash; with PostgreSQL other
    // instances are rendering: only reports whose lease ran out are taken back (as the reaper does, jobs/reaper.ts).
    resume: async () => {
      const recovered = await s.repos.queue.reap(c.maxAttempts, shared ? Date.now() : Number.POSITIVE_INFINITY);
      if (recovered.requeued || recovered.failed) log.info("recovered interrupted reports", recovered);
    },
    leaseMs: LEASE_MS,
    // Covers queue notifications missed while the connection was down (peers.ts).
    ...(shared && { pollMs: 2_000 }),
  });
  // A submission here with a free render slot claims its own report in its insert (reports/slots.ts).
  if (shared) s.reports.claimOnSubmit(processor);
  // Stored templates' sample renders and live previews: the same sandboxes, Chromium and limits, no report row.
  s.templates.useRenderer(sampleRenderer(templating, pool, { maxPages: c.maxPages, maxPdfSize: c.maxPdfSize }, s.assetResolver));
  return { templating, post, pool, processor, egress };
}
