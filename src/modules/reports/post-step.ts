// The report processor's post step: a report's row turned into the PDF pipeline's plan and input
// (src/pdf/), with the reports it uses (merge parts, a stamp) fetched as local files at their winning
// attempt. Every fault of this step that is the service's (qpdf, the store) is retried like any other.
import { join } from "node:path";
import { REPORT_FAILURES } from "../../lib/error-codes";
import { RenderError } from "../../lib/errors";
import type { PasswordSeal } from "../../lib/seal";
import { isEncryptedPdf } from "../../pdf/inspect";
import { hasPostOptions, type StoredPostOptions } from "../../pdf/options";
import type { PdfPipeline } from "../../pdf/pipeline";
import { type PostPlan, paramsOf, storedPlan } from "../../pdf/plan";
import { pdfThumbnail } from "../../pdf/raster";
import { encryption } from "../../pdf/steps/encryption";
import { stamp } from "../../pdf/steps/stamp";
import { fenceOf, type PdfStore } from "../files/pdf-store";
import type { PdfSpool } from "../files/spool";
import type { ClaimedReport } from "./queue";
import type { ReportsRepo } from "./repo";

export interface PostDeps {
  pipeline: PdfPipeline;
  seal: PasswordSeal;
  /** Where the reports a merge or a stamp uses are looked up. */
  reports: ReportsRepo;
}

export class PostStep {
  constructor(
    private readonly deps: PostDeps | undefined,
    private readonly files: PdfStore,
    private readonly spool: PdfSpool,
  ) {}

  /** The report's post-processing plan, or undefined when it has none (printed straight into its file). */
  planOf(job: ClaimedReport): PostPlan | undefined {
    const stored = job.options ? (JSON.parse(job.options) as StoredPostOptions) : undefined;
    if (!hasPostOptions(stored) && !job.mergeParts) return undefined;
    const plan = storedPlan(job.id, stored, this.post().seal);
    if (!plan) throw new RenderError("passwords_unavailable", REPORT_FAILURES.passwords_unavailable);
    return plan.steps.length === 0 && !job.mergeParts ? undefined : plan;
  }

  /**
   * Applies the plan to the printed PDF: the print goes to the work folder and qpdf writes the report's
   * file. Resolves with its size and the pages the plan added (a table of contents).
   */
  async apply(job: ClaimedReport, plan: PostPlan, pdf: Uint8Array, fence: string): Promise<{ bytes: number; addedPages: number }> {
    const pipeline = this.post().pipeline;
    const printed = pipeline.printPath(job.id);
    await Bun.write(printed, pdf);
    const stampPath = await this.stampPath(job, plan);
    const result = await pipeline.apply(job.id, plan, { input: printed, output: this.spool.pathOf(job.id, fence), stampPath });
    // An encrypted PDF cannot be rasterised once its passwords are dropped with the finished report's
    // options: its thumbnail (thumbnail.ts) is made now, from the print, and kept with the report.
    if (paramsOf(plan, encryption)) {
      const png = await pdfThumbnail((cmd) => pipeline.tool(cmd, job.id), printed, pipeline.workPath(job.id));
      await this.files.putThumbnail(job.id, fence, png);
    }
    return result;
  }

  /** Applies the plan to a chunked report's joined parts (chunked.ts), with their outline, into the report's file. */
  applyJoined(
    job: ClaimedReport,
    plan: PostPlan,
    joined: { path: string; update: string },
    fence: string,
  ): Promise<{ bytes: number; addedPages: number }> {
    return this.stampPath(job, plan).then((stampPath) =>
      this.post().pipeline.apply(job.id, plan, {
        input: joined.path,
        update: joined.update,
        output: this.spool.pathOf(job.id, fence),
        stampPath,
      }),
    );
  }

  /** The PDF pipeline, for the chunked renderer's joins; throws when the processor was made without it. */
  get pipeline(): PdfPipeline {
    return this.post().pipeline;
  }

  /** Joins the parts' PDFs into the report's file with the plan applied; undefined when the report is no longer wanted. */
  async merge(
    job: ClaimedReport,
    plan: PostPlan,
    fence: string,
    stillWanted: () => Promise<boolean>,
  ): Promise<{ pages: number; bytes: number } | undefined> {
    const ids = JSON.parse(job.mergeParts ?? "[]") as string[];
    const parts: { id: string; path: string }[] = [];
    const counts: number[] = [];
    for (const id of ids) {
      const u = await this.usable(job, id);
      parts.push({ id, path: u.path });
      counts.push(u.pageCount);
    }
    await this.spool.reserve(job.id, fence);
    if (!(await stillWanted())) return undefined;
    const stampPath = await this.stampPath(job, plan);
    const output = this.spool.pathOf(job.id, fence);
    const { bytes, addedPages } = await this.post().pipeline.apply(job.id, plan, {
      output,
      stampPath,
      merge: { parts, pageCounts: counts },
    });
    return { pages: counts.reduce((a, b) => a + b, 0) + addedPages, bytes };
  }

  /** Removes what the report left in the work folder. */
  cleanUp(reportId: string): void {
    this.deps?.pipeline.cleanUp(reportId);
  }

  /** The stored PDF of the plan's stamp report, as a local file; fails the report when that report is gone. */
  private async stampPath(job: ClaimedReport, plan: PostPlan): Promise<string | undefined> {
    const s = paramsOf(plan, stamp);
    if (s?.kind !== "report") return undefined;
    return (await this.usable(job, s.reportId)).path;
  }

  /**
   * A report this one uses (a merge part, a stamp) as a local file: the stored file itself on the data
   * dir, a copy in the work folder from a bucket. It must still be there and unprotected: it may have
   * been deleted or expired since the request (and with a bucket, its protection is only seen here).
   */
  private async usable(job: ClaimedReport, id: string): Promise<{ pageCount: number; path: string }> {
    const r = await this.post().reports.getForDownload(id);
    const gone = () =>
      new RenderError("part_unavailable", `report ${id} was deleted or expired before this report was processed; submit it again`);
    if (r?.status !== "succeeded") throw gone();
    const path = await this.files.localFile(id, fenceOf(r), join(this.post().pipeline.workPath(job.id), `${id}.pdf`));
    if (!path) throw gone();
    if (isEncryptedPdf(path))
      throw new RenderError(
        "part_unavailable",
        `report ${id} is password-protected: use an unprotected report, and protect the result with options.encryption`,
      );
    return { pageCount: r.pageCount ?? 0, path };
  }

  private post(): PostDeps {
    if (!this.deps) throw new Error("this processor was made without post-processing");
    return this.deps;
  }
}
