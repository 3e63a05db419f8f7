// The report processor's post step: a report's row turned into the PDF pipeline's plan and input
// (src/pdf/), with the reports it uses (merge parts, a stamp) fetched as local files at their winning
// attempt. The producers (producers.ts) run it into the attempt's spool file. Every fault of this step that is the service's (qpdf, the store) is retried like any other.
import { join } from "node:path";
import { REPORT_FAILURES } from "../../lib/error-codes";
import { RenderError } from "../../lib/errors";
import type { PasswordSeal } from "../../lib/seal";
import { isEncryptedPdf } from "../../pdf/inspect";
import type { MergePart } from "../../pdf/merge";
import { hasPostOptions, type StoredPostOptions } from "../../pdf/options";
import type { PdfPipeline, PipelineInput } from "../../pdf/pipeline";
import { type PostPlan, paramsOf, storedPlan } from "../../pdf/plan";
import { pdfThumbnail } from "../../pdf/raster";
import { encryption } from "../../pdf/steps/encryption";
import { stamp } from "../../pdf/steps/stamp";
import { fenceOf, type PdfStore } from "../files/pdf-store";
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
    private readonly deps: PostDeps,
    private readonly files: PdfStore,
  ) {}

  /** The report's post-processing plan, or undefined when it has none (printed straight into its file). */
  planOf(job: ClaimedReport): PostPlan | undefined {
    const stored = job.options ? (JSON.parse(job.options) as StoredPostOptions) : undefined;
    if (!hasPostOptions(stored) && !job.mergeParts) return undefined;
    const plan = storedPlan(job.id, stored, this.deps.seal);
    if (!plan) throw new RenderError("passwords_unavailable", REPORT_FAILURES.passwords_unavailable);
    return plan.steps.length === 0 && !job.mergeParts ? undefined : plan;
  }

  /** Chromium's PDF where the pipeline reads it (the work folder), as the pipeline's input. */
  async printed(job: ClaimedReport, pdf: Uint8Array): Promise<{ input: string }> {
    const input = this.deps.pipeline.printPath(job.id);
    await Bun.write(input, pdf);
    return { input };
  }

  /** A merge's parts as local files, with their page counts; fails the report when one is gone. */
  async mergeParts(job: ClaimedReport): Promise<{ parts: MergePart[]; pageCounts: number[] }> {
    const ids = JSON.parse(job.mergeParts ?? "[]") as string[];
    const parts: MergePart[] = [];
    const pageCounts: number[] = [];
    for (const id of ids) {
      const u = await this.usable(job, id);
      parts.push({ id, path: u.path });
      pageCounts.push(u.pageCount);
    }
    return { parts, pageCounts };
  }

  /**
   * Applies the plan to its input (a print, a chunked report's joined parts with their outline, a
   * merge's parts) into `output`, the attempt's spool file. Resolves with the file's size and the pages
   * the plan added (a table of contents).
   */
  async apply(
    job: ClaimedReport,
    plan: PostPlan,
    io: Omit<PipelineInput, "output" | "stampPath">,
    output: string,
  ): Promise<{ bytes: number; addedPages: number }> {
    const stampPath = await this.stampPath(job, plan);
    // An image report's thumbnail is made by its image step, from its first picture's samples.
    const keepThumbnail = (png: Uint8Array) => this.files.putThumbnail(job.id, fenceOf(job), png);
    const result = await this.deps.pipeline.apply(job.id, plan, { ...io, output, stampPath, keepThumbnail });
    if (paramsOf(plan, encryption)) await this.encryptedThumbnail(job, io);
    return result;
  }

  /**
   * An encrypted PDF cannot be rasterised once its passwords are dropped with the finished report's
   * options: its thumbnail (thumbnail.ts) is made now, from the pipeline's input before encryption (a
   * merge's: its first part, whose page 1 is the merge's), and kept with the report.
   */
  private async encryptedThumbnail(job: ClaimedReport, io: Omit<PipelineInput, "output" | "stampPath">): Promise<void> {
    const pipeline = this.deps.pipeline;
    const input = io.input ?? io.merge?.parts[0]?.path;
    if (!input) return;
    const png = await pdfThumbnail(pipeline.rasterTools(job.id), input);
    await this.files.putThumbnail(job.id, fenceOf(job), png);
  }

  /** Removes what the report left in the work folder. */
  cleanUp(reportId: string): void {
    this.deps.pipeline.cleanUp(reportId);
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
    const r = await this.deps.reports.getForDownload(id);
    const gone = () =>
      new RenderError("part_unavailable", `report ${id} was deleted or expired before this report was processed; submit it again`);
    if (r?.status !== "succeeded") throw gone();
    const path = await this.files.localFile(id, fenceOf(r), join(this.deps.pipeline.workPath(job.id), `${id}.pdf`));
    if (!path) throw gone();
    if (isEncryptedPdf(path))
      throw new RenderError(
        "part_unavailable",
        `report ${id} is password-protected: use an unprotected report, and protect the result with options.encryption`,
      );
    return { pageCount: r.pageCount ?? 0, path };
  }
}
