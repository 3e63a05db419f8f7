// How one attempt at a report becomes its PDF in the spool file: a printed report (template → print →
// post), a merge (the parts joined, then post) or a chunked report (the parts printed and joined, then
// post), each held to the page and size limits. The processor (processor.ts) drives an attempt through
// this and then stores and records it.

import { RenderError } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import { asStorageRenderError } from "../../lib/storage";
import { resolvePdfOptions } from "../../pdf/options";
import type { PostPlan } from "../../pdf/plan";
import { checkPdfLimits } from "../../render/pdf-limits";
import type { RenderPool } from "../../render/pool";
import type { TemplatingPool } from "../../render/templating";
import type { PdfSpool } from "../files/spool";
import { type ChunkedRenderer, chunkOf } from "./chunked";
import { withEInvoiceData } from "./post-options";
import type { PostStep } from "./post-step";
import type { ProcessorOptions } from "./processor-options";
import type { ClaimedReport } from "./queue";

/** What ties a log line to its report and to the request that submitted it. */
export const logFields = (job: ClaimedReport) => ({ report_id: job.id, ...(job.requestId ? { request_id: job.requestId } : {}) });

/** A PDF's pages and bytes. */
export type PdfSize = { pages: number; bytes: number };

/** One attempt at a report, on its way through the steps. */
export interface Attempt {
  job: ClaimedReport;
  log: Logger;
  /** The claim's attempt: it fences the outcome in the database and names the attempt's PDF in the store. */
  fence: string;
  started: number;
  /** The report's post-processing plan; undefined when the print goes into its file as it is. */
  plan?: PostPlan;
  /** The spool file's reservation, made while the template renders. */
  reserved: Promise<void>;
  /** The PDF pipeline ran for it: its work folder is cleaned up after. */
  postProcessed?: boolean;
  /** Its success is recorded: its file stays. */
  succeeded: boolean;
}

export class AttemptPdf {
  constructor(
    private readonly templating: TemplatingPool,
    private readonly pool: RenderPool,
    private readonly spool: PdfSpool,
    private readonly postStep: PostStep,
    private readonly chunks: ChunkedRenderer,
    private readonly opts: ProcessorOptions,
    /** Our claim still holds the report (processor.ts). */
    private readonly stillWanted: (job: ClaimedReport) => Promise<boolean>,
  ) {}

  /** template → print → post: the report's PDF in its spool file. */
  async printed(a: Attempt): Promise<PdfSize | undefined> {
    const html = await this.template(a);
    if (html === undefined) return undefined;
    const { pdf, size } = await this.print(a, html);
    return this.post(a, pdf, size);
  }

  /** The HTML to print: the EJS sandbox's, or the raw template. The spool file is reserved meanwhile. */
  private async template(a: Attempt): Promise<string | undefined> {
    const { job } = a;
    const t0 = performance.now();
    const ejs = job.engine === "ejs";
    const templated = ejs
      ? this.templating.render(job.template ?? "", withEInvoiceData(job.data, job.options), logFields(job))
      : Promise.resolve(job.template ?? "");
    templated.catch(() => {}); // awaited below, unless reserving the file fails first
    // Durable before it is recorded: the file's folder entry (fsync'ed while the report renders),
    // then the PDF's bytes (storePdf fsyncs them). The file is created while the sandbox renders,
    // not before, so its synchronous creation is off the report's critical path.
    a.reserved = this.spool.reserve(job.id, a.fence);
    a.reserved.catch(() => {}); // awaited later, unless the report ends before
    const html = await templated;
    if (ejs) this.opts.metrics.templateSeconds.observe((performance.now() - t0) / 1000);
    return (await this.stillWanted(job)) ? html : undefined;
  }

  /** Chromium's PDF of the HTML, held to the page and size limits (a template fault past them). */
  private async print(a: Attempt, html: string): Promise<{ pdf: Uint8Array; size: PdfSize }> {
    const t1 = performance.now();
    const options = resolvePdfOptions(a.job.options);
    // The account's asset: references as data: URLs, header and footer included (Chromium loads nothing
    // there); an unknown asset fails the report with asset_not_found, the template's fault.
    const page = await this.opts.assets.inline(a.job.accountId, {
      html,
      headerTemplate: options.headerTemplate,
      footerTemplate: options.footerTemplate,
    });
    Object.assign(options, { headerTemplate: page.headerTemplate, footerTemplate: page.footerTemplate });
    html = page.html;
    const pdf = await this.pool.render({ html, options }, logFields(a.job));
    this.opts.metrics.renderSeconds.observe((performance.now() - t1) / 1000);
    return { pdf, size: checkPdfLimits(pdf, this.opts) };
  }

  /** The PDF pipeline on the print, into the spool file; a print without a plan goes there as it is. */
  private async post(a: Attempt, pdf: Uint8Array, size: PdfSize): Promise<PdfSize | undefined> {
    // Before post-processing (qpdf: worth not starting for a deleted report); a plain PDF is only
    // written to its file, and the check before the commit covers it (one query less per report).
    if (a.plan && !(await this.stillWanted(a.job))) return undefined;
    await a.reserved;
    if (!a.plan) {
      this.storePdf(a.job, a.fence, pdf);
      return size;
    }
    a.postProcessed = true;
    const { bytes, addedPages } = await this.postStep.apply(a.job, a.plan, pdf, a.fence);
    return this.withinLimit({ pages: size.pages + addedPages, bytes });
  }

  /** A merge: the parts' stored PDFs joined, then the plan, into the spool file (no template, no print). */
  async merge(a: Attempt, plan: PostPlan): Promise<PdfSize | undefined> {
    a.postProcessed = true;
    const merged = await this.postStep.merge(a.job, plan, a.fence, () => this.stillWanted(a.job));
    return merged && this.withinLimit(merged);
  }

  /** A chunked report: its parts printed and joined (chunked.ts), then the plan, into the spool file. */
  async chunked(a: Attempt): Promise<PdfSize | undefined> {
    a.postProcessed = true;
    a.reserved = this.spool.reserve(a.job.id, a.fence);
    a.reserved.catch(() => {}); // awaited below, unless the report ends before
    const joined = await this.chunks.render(a.job, chunkOf(a.job)!, logFields(a.job));
    if (!joined) return undefined;
    await a.reserved;
    const { bytes, addedPages } = await this.postStep.applyJoined(a.job, a.plan ?? { steps: [] }, joined, a.fence);
    return this.withinLimit({ pages: joined.pages + addedPages, bytes });
  }

  /** Post-processing grows a PDF (attachments, merges, a table of contents): the limits hold for the result too. */
  private withinLimit(size: PdfSize): PdfSize {
    if (size.pages > this.opts.maxPages)
      throw new RenderError(
        "too_many_pages",
        `the PDF has ${size.pages} pages with its post-processing (a table of contents); the limit is ${this.opts.maxPages}`,
      );
    if (size.bytes > this.opts.maxPdfSize)
      throw new RenderError(
        "pdf_too_large",
        `the PDF is ${size.bytes} bytes with its post-processing; the limit is ${this.opts.maxPdfSize}`,
      );
    return size;
  }

  /** Writes the PDF where the store commits it from (the spool); a disk fault is the service's. */
  private storePdf(job: ClaimedReport, fence: string, pdf: Uint8Array): void {
    try {
      this.spool.writePrinted(job.id, fence, pdf);
    } catch (e) {
      throw asStorageRenderError(e);
    }
  }
}
