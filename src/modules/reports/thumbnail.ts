// GET /reports/{id}/thumbnail: page 1 of a succeeded report as a small PNG (src/pdf/raster.ts's
// THUMBNAIL). A PDF's is made on the first request, not at print time: most reports are never looked at
// in the dashboard, and it costs a rasterisation of one page. An image report's (and an encrypted PDF's)
// is made at print time, where it costs little: from the samples its first picture was drawn from. Either
// is kept with the report's file in the store (both backends), and removed with it (delete, retention).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "../../lib/logger";
import { runTool } from "../../lib/run-tool";
import { firstStoredEntry } from "../../lib/zip";
import { pdfThumbnail, pictureThumbnail, type RasterTools, type ToolRunner } from "../../pdf/raster";
import type { Rasteriser } from "../../pdf/raster-thread";
import { fenceOf, type PdfStore } from "../files/pdf-store";
import type { ReportConformance } from "./model";
import { pdfMissing } from "./pdf-missing";
import type { ReportsRepo } from "./repo";
import type { DownloadAnswer, ReportsService } from "./service";

export interface ThumbnailOptions {
  rasteriser: Rasteriser;
  /** Bound on each tool run (the render deadline). */
  timeoutMs: number;
  nice?: number;
  logger: Logger;
}

export class ReportThumbnails {
  constructor(
    private readonly reports: ReportsService,
    private readonly repo: ReportsRepo,
    private readonly files: PdfStore,
    private readonly opts: ThumbnailOptions,
  ) {}

  /**
   * The thumbnail of the account's report, or the download's answer while it is unfinished; 404 for
   * an unknown or another account's report, the download's errors for a failed or expired one.
   */
  async get(accountId: string, reportId: string): Promise<{ png: Uint8Array } | Extract<DownloadAnswer, { ready: false }>> {
    const answer = await this.reports.download(accountId, reportId, "");
    if (!answer.ready) return answer;
    const r = await this.reports.get(accountId, reportId);
    const fence = fenceOf(r);
    const kept = await this.files.thumbnail(r.id, fence);
    if (kept) return { png: kept };
    const dir = await mkdtemp(join(tmpdir(), "reportgen-thumb-"));
    try {
      const file = await this.files.localFile(r.id, fence, join(dir, "report"));
      if (!file) throw await pdfMissing(this.repo, r);
      const png = await this.make(r.id, file, r.conformance, r.pageCount, dir);
      await this.files.putThumbnail(r.id, fence, png);
      return { png };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async make(id: string, file: string, conformance: string | null, pages: number | null, dir: string): Promise<Uint8Array> {
    const run = this.runner(id);
    const tools: RasterTools = {
      run,
      draw: (task) =>
        this.opts.rasteriser.draw(task).catch((e: Error) => {
          this.opts.logger.warn("a thumbnail could not be made", { report_id: id, error: e.message });
          throw e;
        }),
    };
    const image = conformance ? (JSON.parse(conformance) as ReportConformance).image : undefined;
    // An image report printed before its thumbnail was made at print time.
    if (image) {
      let picture = file;
      if ((pages ?? 1) > 1) {
        picture = join(dir, "page-1");
        await writeFile(picture, firstStoredEntry(new Uint8Array(await Bun.file(file).arrayBuffer())));
      }
      return pictureThumbnail(run, picture, dir);
    }
    // An encrypted PDF's thumbnail was made at print time (post-step.ts): its passwords are gone since.
    return pdfThumbnail(tools, file);
  }

  private runner(id: string): ToolRunner {
    return async (cmd, env) => {
      const run = await runTool(cmd, { timeoutMs: this.opts.timeoutMs, nice: this.opts.nice, env });
      if (run.code === 0) return;
      this.opts.logger.warn("a thumbnail could not be made", {
        report_id: id,
        tool: cmd[0],
        exit_code: run.code,
        stderr: run.stderr.slice(-500),
      });
      throw new Error(`${cmd[0]} could not make the thumbnail of report ${id} (exit ${run.code ?? run.signal})`);
    };
  }
}
