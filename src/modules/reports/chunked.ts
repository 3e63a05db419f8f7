// A chunked report (options.chunk): the template renders once per slice of one data array, each part is
// printed on the render pool's pages, written to the work folder, then joined (src/pdf/chunk-join.ts)
// with one outline (options.page_numbers then numbers the whole, like any report's). A slice is at most
// chunk.size rows, and fewer when that many would make a part of more than `partHtml` of HTML: Chromium
// lays out a long table in more than linear time (the outside benchmark's ledger: 0.6 s per 1,000 rows in
// parts of 1,000, 1.0 s in parts of 2,500, two at a time), so the user's size only bounds the parts. Chromium's memory
// grows with the document it lays out, so a 100,000-row report printed as parts of a few thousand rows
// stays within a few hundred MiB where one print took gigabytes. Parts print `parallel` at a time (one
// print keeps about one core busy), but those beyond the first only while the HTML being printed stays
// within `htmlInFlight`: two big parts at once would double that memory. A lane renders its next part's
// template while it waits, so the templating overlaps the printing. Each part has the render
// deadline of a report; the whole has --report-timeout. The limits (--max-pages, --max-pdf-size) hold
// for the whole report: it fails as soon as the parts printed so far pass them.
import { join } from "node:path";
import { ByteBudget } from "../../lib/byte-budget";
import { RenderError } from "../../lib/errors";
import { type ChunkPart, joinChunks, readOutline } from "../../pdf/chunk-join";
import { CHUNK_SIZE, type ChunkRequest, chunkCount, chunkData, valueAt } from "../../pdf/chunk-options";
import { resolvePdfOptions, type StoredPdfOptions } from "../../pdf/options";
import type { PdfPipeline } from "../../pdf/pipeline";
import type { QpdfUpdate } from "../../pdf/qpdf-layout";
import { countPdfPages } from "../../render/pdf-page-count";
import type { RenderPool } from "../../render/pool";
import type { TemplatingPool } from "../../render/templating";
import type { ClaimedReport, ReportQueue } from "./queue";

export interface ChunkedOptions {
  maxPages: number;
  maxPdfSize: number;
  /** Deadline of a whole chunked report (--report-timeout). */
  reportTimeoutMs: number;
  /** Parts printed at once (each is a Chromium page laying out one chunk). */
  parallel: number;
  /** Most HTML (bytes) of the parts being printed at once; one part always prints. */
  htmlInFlight: number;
  /** HTML (bytes) one part is cut to: its rows are chosen from a first template run of a few rows. */
  partHtml: number;
}

/** Rows of the first template run that sizes the parts: enough to make the page's fixed HTML negligible. */
const PROBE_ROWS = 200;

/** The joined parts of a chunked report, before its post-processing plan. */
export interface JoinedReport {
  /** The joined PDF, in the report's work folder. */
  path: string;
  /** The qpdf JSON update giving it its outline (pipeline.ts's PipelineInput.update). */
  update: QpdfUpdate;
  pages: number;
}

/** options.chunk of a report row, or undefined when it is not chunked. */
export function chunkOf(job: ClaimedReport): ChunkRequest | undefined {
  if (job.engine !== "ejs" || !job.options?.includes('"chunk"')) return undefined;
  return (JSON.parse(job.options) as StoredPdfOptions).chunk;
}

export class ChunkedRenderer {
  constructor(
    private readonly queue: ReportQueue,
    private readonly templating: TemplatingPool,
    private readonly pool: RenderPool,
    private readonly pipeline: PdfPipeline,
    private readonly opts: ChunkedOptions,
  ) {}

  /** Renders, prints and joins the parts; undefined when the report is no longer wanted (deleted, taken over). */
  async render(job: ClaimedReport, chunk: ChunkRequest, fields: Record<string, unknown>): Promise<JoinedReport | undefined> {
    const started = Date.now();
    const data = JSON.parse(job.data ?? "{}") as Record<string, unknown>;
    const rows = valueAt(data, chunk.array);
    if (!Array.isArray(rows)) throw new RenderError("template_error", `data.${chunk.array} is not an array (options.chunk.array)`);
    const template = job.template ?? "";
    const size = await this.partRows(template, data, chunk, rows, fields);
    const count = chunkCount(rows.length, size);
    // Chromium builds an outline only with the structure tree of a tagged print; the join keeps the outline.
    const resolved = resolvePdfOptions(job.options);
    const options = { ...resolved, tagged: resolved.tagged || resolved.outline };
    const pipeline = this.pipeline;
    const dir = pipeline.workPath(job.id);
    const parts: ChunkPart[] = new Array(count);
    const total = { pages: 0, bytes: 0, done: 0 };
    let next = 0;
    let wanted = await this.queue.progress(job.id, job.attempts, 0, count);
    const printing = new ByteBudget(this.opts.htmlInFlight);
    const part = async (i: number): Promise<void> => {
      const first = i * size;
      const slice = chunkData(data, chunk.array, rows.slice(first, first + size), { index: i, count, first_row: first });
      const html = await this.templating.render(template, JSON.stringify(slice), fields);
      const release = await printing.take(Buffer.byteLength(html));
      const pdf = await this.pool.render({ html, options }, { ...fields, chunk: i }).finally(release);
      const pages = countPdfPages(pdf);
      total.pages += pages;
      total.bytes += pdf.length;
      this.withinLimits(total, i, count);
      const path = join(dir, `part-${i}.pdf`);
      await Bun.write(path, pdf);
      parts[i] = { path, pages, outline: options.outline ? await readOutline(pipeline.qpdfWithin(0), path, job.id) : [] };
      wanted = await this.queue.progress(job.id, job.attempts, ++total.done, count);
    };
    // `parallel` lanes take the next chunk in order; the first failure stops them all, and the parts in
    // flight are awaited before it is thrown (the caller then removes the work folder they write to).
    let failed = false;
    const lane = async (): Promise<void> => {
      try {
        while (wanted && !failed && next < count) {
          if (Date.now() - started > this.opts.reportTimeoutMs) throw this.timedOut(total.done, count);
          await part(next++);
        }
      } catch (e) {
        failed = true;
        throw e;
      }
    };
    const lanes = await Promise.allSettled(Array.from({ length: Math.min(this.opts.parallel, count) }, lane));
    const failure = lanes.find((l) => l.status === "rejected");
    if (failure) throw failure.reason;
    if (!wanted) return undefined;
    const path = join(dir, "joined.pdf");
    // The join reads and writes every page at once: bounded by what is left of the report's deadline
    // (at least the render deadline).
    const qpdf = pipeline.qpdfWithin(this.opts.reportTimeoutMs - (Date.now() - started));
    const update = await joinChunks(qpdf, job.id, parts, path);
    return { path, update, pages: total.pages };
  }

  /**
   * Rows per part: chunk.size, or fewer when its first PROBE_ROWS rows show that chunk.size rows would
   * make more than partHtml of HTML (never under the smallest chunk size).
   */
  private async partRows(
    template: string,
    data: Record<string, unknown>,
    chunk: ChunkRequest,
    rows: unknown[],
    fields: Record<string, unknown>,
  ): Promise<number> {
    const probe = Math.min(chunk.size, rows.length, PROBE_ROWS);
    if (chunk.size <= CHUNK_SIZE.min || probe === 0) return chunk.size;
    const info = { index: 0, count: chunkCount(rows.length, chunk.size), first_row: 0 };
    const html = await this.templating.render(template, JSON.stringify(chunkData(data, chunk.array, rows.slice(0, probe), info)), fields);
    const perRow = Buffer.byteLength(html) / probe;
    return Math.max(CHUNK_SIZE.min, Math.min(chunk.size, Math.floor(this.opts.partHtml / perRow)));
  }

  /** The whole report is held to the limits as its parts come in: no point printing on past them. */
  private withinLimits(total: { pages: number; bytes: number }, i: number, count: number): void {
    const so = i + 1 < count ? ` after ${i + 1} of ${count} chunks` : "";
    if (total.pages > this.opts.maxPages)
      throw new RenderError("too_many_pages", `the report has ${total.pages} pages${so}; the limit is ${this.opts.maxPages}`);
    if (total.bytes > this.opts.maxPdfSize)
      throw new RenderError("pdf_too_large", `the report's PDF is ${total.bytes} bytes${so}; the limit is ${this.opts.maxPdfSize}`);
  }

  private timedOut(done: number, count: number): RenderError {
    return new RenderError(
      "render_timeout",
      `the report took longer than ${this.opts.reportTimeoutMs} ms (--report-timeout) with ${done} of its ${count} chunks printed: split it, or ask the operator for a longer --report-timeout`,
    );
  }
}
