// What makes an attempt's PDF in its spool file: a printed report (template → print → post), a merge
// (the parts joined, then post) or a chunked report (the parts printed and joined, then post), each held
// to the page and size limits. They are producers behind one interface: the processor (processor.ts)
// picks one for the report, then stores and records what it made. The attempt (attempt.ts) owns the
// state; a producer only tells it when to reserve its file and that the PDF pipeline ran for it.

import { RenderError } from "../../lib/errors";
import { resolvePdfOptions } from "../../pdf/options";
import type { PostPlan } from "../../pdf/plan";
import { checkPdfLimits } from "../../render/pdf-limits";
import type { RenderPool } from "../../render/pool";
import type { TemplatingPool } from "../../render/templating";
import { type Attempt, logFields, type PdfSize } from "./attempt";
import { type ChunkedRenderer, chunkOf } from "./chunked";
import { withEInvoiceData } from "./post-options";
import type { PostStep } from "./post-step";
import type { ProcessorOptions } from "./processor-options";

/** Makes an attempt's PDF in its spool file. */
export interface PdfProducer {
  /** The PDF's size once it is in the attempt's spool file; undefined when the report is no longer wanted. */
  produce(a: Attempt, plan: PostPlan | undefined): Promise<PdfSize | undefined>;
}

/** The largest PDF a report may produce (--max-pages, --max-pdf-size). */
type Limits = Pick<ProcessorOptions, "maxPages" | "maxPdfSize">;

/** template → print → post: a report printed by Chromium. */
export class PrintProducer implements PdfProducer {
  constructor(
    private readonly templating: TemplatingPool,
    private readonly pool: RenderPool,
    private readonly post: PostStep,
    private readonly opts: Limits & Pick<ProcessorOptions, "metrics" | "assets">,
  ) {}

  async produce(a: Attempt, plan: PostPlan | undefined): Promise<PdfSize | undefined> {
    const html = await this.template(a);
    if (html === undefined) return undefined;
    const { pdf, size } = await this.print(a, html);
    return this.postProcess(a, plan, pdf, size);
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
    // then the PDF's bytes (writePrinted fsyncs them). The file is created while the sandbox renders,
    // not before, so its synchronous creation is off the report's critical path.
    a.reserve();
    const html = await templated;
    if (ejs) this.opts.metrics.templateSeconds.observe((performance.now() - t0) / 1000);
    return (await a.stillWanted()) ? html : undefined;
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
    const pdf = await this.pool.render({ html: page.html, options }, logFields(a.job));
    this.opts.metrics.renderSeconds.observe((performance.now() - t1) / 1000);
    return { pdf, size: checkPdfLimits(pdf, this.opts) };
  }

  /** The PDF pipeline on the print, into the spool file; a print without a plan goes there as it is. */
  private async postProcess(a: Attempt, plan: PostPlan | undefined, pdf: Uint8Array, size: PdfSize): Promise<PdfSize | undefined> {
    // Before post-processing (qpdf: worth not starting for a deleted report); a plain PDF is only
    // written to its file, and the check before the commit covers it (one query less per report).
    if (plan && !(await a.stillWanted())) return undefined;
    if (!plan) {
      await a.writePrinted(pdf);
      return size;
    }
    const output = await a.file();
    a.postProcess();
    const { bytes, addedPages } = await this.post.apply(a.job, plan, await this.post.printed(a.job, pdf), output);
    return withinLimits({ pages: size.pages + addedPages, bytes }, this.opts);
  }
}

/** A merge: the parts' stored PDFs joined, then the plan, into the spool file (no template, no print). */
export class MergeProducer implements PdfProducer {
  constructor(
    private readonly post: PostStep,
    private readonly limits: Limits,
  ) {}

  async produce(a: Attempt, plan: PostPlan | undefined): Promise<PdfSize | undefined> {
    a.postProcess();
    const parts = await this.post.mergeParts(a.job);
    const output = await a.file();
    if (!(await a.stillWanted())) return undefined;
    const { bytes, addedPages } = await this.post.apply(a.job, plan ?? { steps: [] }, { merge: parts }, output);
    return withinLimits({ pages: parts.pageCounts.reduce((n, c) => n + c, 0) + addedPages, bytes }, this.limits);
  }
}

/** A chunked report: its parts printed and joined (chunked.ts), then the plan, into the spool file. */
export class ChunkedProducer implements PdfProducer {
  constructor(
    private readonly chunks: ChunkedRenderer,
    private readonly post: PostStep,
    private readonly limits: Limits,
  ) {}

  async produce(a: Attempt, plan: PostPlan | undefined): Promise<PdfSize | undefined> {
    a.postProcess();
    a.reserve(); // while the parts print
    const joined = await this.chunks.render(a.job, chunkOf(a.job)!, logFields(a.job));
    if (!joined) return undefined;
    const output = await a.file();
    const io = { input: joined.path, update: joined.update };
    const { bytes, addedPages } = await this.post.apply(a.job, plan ?? { steps: [] }, io, output);
    return withinLimits({ pages: joined.pages + addedPages, bytes }, this.limits);
  }
}

/** Post-processing grows a PDF (attachments, merges, a table of contents): the limits hold for the result too. */
function withinLimits(size: PdfSize, limits: Limits): PdfSize {
  if (size.pages > limits.maxPages)
    throw new RenderError(
      "too_many_pages",
      `the PDF has ${size.pages} pages with its post-processing (a table of contents); the limit is ${limits.maxPages}`,
    );
  if (size.bytes > limits.maxPdfSize)
    throw new RenderError("pdf_too_large", `the PDF is ${size.bytes} bytes with its post-processing; the limit is ${limits.maxPdfSize}`);
  return size;
}
