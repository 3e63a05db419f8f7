// What a post-processing step is: a name, its part of the plan (pure, from the stored options) and how
// it runs. Most steps are parts of one qpdf job, so that a report with a watermark, attachments and a
// password is read and written once; a step that needs another tool (or code) runs on its own, from
// one file to the next.

import type { PdfOptions, PdfPermission, PostOptions, StoredEInvoice } from "./options";
import type { PageSize } from "./overlay-pdf";
import type { QpdfUpdate } from "./qpdf-layout";
import type { RasterTools } from "./raster";
import type { PdfSigner } from "./signature/signer";

/** What a step plans from: the stored options, their passwords opened (the row holds only their seal). */
export interface PlanInput {
  /** The stored options: post-processing fields, and paged_media, which decides where a TOC is made. */
  options: Omit<PostOptions, "encryption" | "e_invoice"> & {
    encryption?: { permissions?: PdfPermission[] };
    e_invoice?: StoredEInvoice;
    paged_media?: boolean;
  };
  passwords?: { user: string; owner: string };
}

/** What a step may use while it runs on one report's PDF. */
export interface StepContext {
  reportId: string;
  /** The report's own folder in the work folder, created on first use and removed after the run. */
  dir(): string;
  /**
   * Whether every page's content is the service's own (Chromium's print, a table of contents), whose q
   * and Q are balanced, so a step may wrap it without having qpdf parse it. False for a merge of PDFs.
   */
  balancedContent: boolean;
  /**
   * A qpdf JSON update the step applies to its input in its own qpdf run (a chunked report's outline),
   * given only to the first step, and only when it appliesUpdate.
   */
  update?: QpdfUpdate;
  /** The size of the first page of the step's input (A4 when it cannot be read). */
  pageSize(): Promise<PageSize>;
  /** The stamp report's stored PDF as a local file, when the plan stamps with a report. */
  stampPath?: string;
  /** The file of `key` (a watermark's page), written once into the work folder and shared by every report. */
  sharedFile(key: string, bytes: () => Uint8Array): Promise<string>;
  /** The rasteriser and its encoders, under the render deadline and priority; a failure is a service fault. */
  raster: RasterTools;
  /** Keeps the report's thumbnail with its file (an image report's, made from its first picture's samples). */
  keepThumbnail?: (png: Uint8Array) => Promise<void>;
  /** Runs qpdf with these arguments (the render deadline and priority; a failure is a service fault). */
  qpdf(args: string[]): Promise<void>;
  /** qpdf's JSON of a PDF: only `keys`, and with "qpdf" only `objects` (see Qpdf.json). */
  json(file: string, keys: string[], objects?: string[]): Promise<Record<string, unknown>>;
  /** Prints HTML in the render pool (a table of contents' page); absent where nothing renders. */
  print?: (html: string, options: PdfOptions) => Promise<Uint8Array>;
  /** The signing identities and the TSA, for the sign step. */
  signer?: PdfSigner;
}

/**
 * A step qpdf runs: its keys of qpdf's JSON job. Consecutive qpdf steps share one run (one read and
 * one write of the PDF), however many there are.
 */
export interface QpdfStep<P, F = undefined> {
  readonly name: string;
  readonly tool: "qpdf";
  /** This step's part of the plan, or undefined when the options do not ask for it. Pure. */
  plan(o: PlanInput): P | undefined;
  /** Writes the files its job names (an overlay page, attachments); the job gets what it returns. */
  prepare?(p: P, ctx: StepContext): Promise<F>;
  /** Its keys of qpdf's JSON job. Pure: `files` is what prepare() returned. */
  job(p: P, files: F): Record<string, unknown>;
}

/** A step that runs alone: reads `input`, writes `output` (another tool than qpdf, or code). */
export interface FileStep<P> {
  readonly name: string;
  readonly tool: "file";
  /** It applies the pipeline's pending update itself (StepContext.update), sparing a qpdf run of its own. */
  readonly appliesUpdate?: true;
  plan(o: PlanInput): P | undefined;
  /** Resolves with the number of pages it added (a table of contents), if any. */
  run(p: P, ctx: StepContext, input: string, output: string): Promise<number | undefined>;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of steps holds each with its own parameters
export type Step = QpdfStep<any, any> | FileStep<any>;
