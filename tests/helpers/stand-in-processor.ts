// A real ReportProcessor on the test app's real queue, with stand-ins for its two pools: for tests of
// what the processor does with a render's outcome (pure logic of the processor, no Chromium).
import { join } from "node:path";
import { settings } from "../../src/config/settings";
import type { Logger } from "../../src/lib/logger";
import { ReportProcessor } from "../../src/modules/reports/processor";
import { PdfPipeline } from "../../src/pdf/pipeline";
import type { RenderPool } from "../../src/render/pool";
import type { TemplatingPool } from "../../src/render/templating";
import type { TestApp } from "./app";

/** Starts a processor whose Chromium pool answers with `render` (given the HTML it was asked to print). */
export function standInProcessor(
  t: TestApp,
  render: (html: string) => Promise<Uint8Array>,
  logger: Logger = t.app.logger,
): ReportProcessor {
  const ready = { usable: true, whenUsable: async () => {}, handBackWaiting: () => 0 };
  const pool = { ...ready, render: async (job: { html: string }) => render(job.html) } as unknown as RenderPool;
  const templating = { ...ready, render: async () => "<p>never printed</p>" } as unknown as TemplatingPool;
  const s = t.app.services;
  const c = t.app.config;
  // The real PDF pipeline (qpdf), in a work folder of its own: a plain report never reaches it.
  const pipeline = new PdfPipeline({
    qpdfPath: c.qpdfPath,
    timeoutMs: c.renderTimeout,
    nice: c.renderNice,
    workDir: join(t.dir, "stand-in-post"),
    logger,
    rasteriser: s.rasteriser,
  });
  const processor = new ReportProcessor(s.repos.queue, s.files, s.spool, templating, pool, s.reports.events, {
    lanes: 1,
    maxPages: 2000,
    maxPdfSize: 200 * 1024 ** 2,
    maxAttempts: 3,
    retentionMs: 60_000,
    reportTimeoutMs: settings.reportTimeout.default,
    chunkParallel: settings.chunkParallel.default,
    chunkHtmlInFlight: settings.chunkHtmlInFlight.default,
    chunkPartHtml: settings.chunkPartHtml.default,
    logger,
    storage: s.storage,
    metrics: t.app.metrics,
    post: { pipeline, seal: s.seal, reports: s.repos.reports },
    assets: s.assetResolver,
  });
  processor.start();
  return processor;
}
