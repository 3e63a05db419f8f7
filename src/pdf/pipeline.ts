// The PDF pipeline: everything that happens to a PDF after Chromium's bytes, behind two functions.
//
//   plan(options)        which named steps, in which order (plan.ts; pure, unit-tested)
//   apply(plan, input)   runs them on a file, in that order, into the report's file
//
// Each step is one file in steps/: its part of the plan and how it runs. Steps qpdf runs (overlay,
// attachments, linearize, encryption) share one qpdf run; a step with its own tool runs from one file
// to the next. Adding a step (PDF/A, Factur-X, page numbers, a table of contents, a signature) is one
// step file and one line in STEP_ORDER (plan.ts); a signature is always the last line. A merge is
// the same pipeline with the joined parts as its input (merge.ts).
//
// A tool's failure here is a service fault (postprocess_failed, retried by the processor). A step may also
// raise a client fault of its own, a RenderError with its code (steps/sign.ts: a signing identity that is
// gone, an unusable one); the processor tells the two apart by the code's class (lib/error-codes.ts).
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RenderError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { flush, readPageSize } from "./inspect";
import { joinParts, type MergePart } from "./merge";
import type { PageSize } from "./overlay-pdf";
import { type PlannedStep, type PostPlan, stepNamed } from "./plan";
import { Qpdf, qpdfJob, runServiceTool } from "./qpdf";
import { type QpdfUpdate, writeUpdate } from "./qpdf-layout";
import type { RasterTools } from "./raster";
import type { Rasteriser } from "./raster-thread";
import type { PdfSigner } from "./signature/signer";
import type { FileStep, StepContext } from "./step";

export interface PdfPipelineOptions {
  qpdfPath: string;
  /** Bound on each tool run (the render deadline). */
  timeoutMs: number;
  /** CPU priority of the tools (the render nice value). */
  nice: number;
  /** A folder of its own for intermediate files; emptied at start. */
  workDir: string;
  logger: Logger;
  /** Prints HTML in the render pool: a table of contents' pages (options.toc). */
  print?: StepContext["print"];
  /** The signing identities and the TSA (options.signature). */
  signer?: PdfSigner;
  /** Draws pages (options.image, an encrypted report's thumbnail). */
  rasteriser: Rasteriser;
}

/** What one apply() reads and writes. */
export interface PipelineInput {
  /** The printed PDF; a merge has none (its input is its joined parts). */
  input?: string;
  /** The report's file, flushed to the disk when apply() resolves. */
  output: string;
  /** The stored PDF of a stamp report, as a local file. */
  stampPath?: string;
  /** Joins these parts, with one bookmark each, before the steps. */
  merge?: { parts: MergePart[]; pageCounts: number[] };
  /** A qpdf JSON update applied to the input before the steps (a chunked report's outline: chunk-join.ts). */
  update?: QpdfUpdate;
  /** Keeps the report's thumbnail, when a step makes one (StepContext.keepThumbnail). */
  keepThumbnail?: StepContext["keepThumbnail"];
}

/** Shared files (watermark pages) kept in the work folder for reuse. */
const SHARED_KEPT = 64;

/** A run of the plan: consecutive qpdf steps together, any other step alone. */
type Run = { tool: "qpdf"; steps: PlannedStep[] } | { tool: "file"; step: PlannedStep };

export class PdfPipeline {
  private readonly qpdf: Qpdf;
  /** Shared files on disk, by their key, least recently used first. */
  private readonly shared = new Map<string, Promise<string>>();

  constructor(private readonly opts: PdfPipelineOptions) {
    this.qpdf = new Qpdf(opts);
  }

  /** Creates the work folder, removing what a crash left there. */
  init(): void {
    mkdirSync(this.opts.workDir, { recursive: true, mode: 0o700 });
    for (const f of readdirSync(this.opts.workDir)) rmSync(join(this.opts.workDir, f), { recursive: true, force: true });
  }

  /** Where the printer writes a report's PDF before post-processing. */
  printPath(reportId: string): string {
    return join(this.opts.workDir, `${reportId}.print.pdf`);
  }

  /**
   * qpdf as the pipeline runs it (niced), each run bounded by `timeoutMs` instead of the render deadline:
   * joining the thousands of pages of a chunked report is one run over all of them.
   */
  qpdfWithin(timeoutMs: number): Qpdf {
    return new Qpdf({ ...this.opts, timeoutMs: Math.max(this.opts.timeoutMs, timeoutMs) });
  }

  /** The report's own folder in the work folder, created: copies of the PDFs it uses go there. */
  workPath(reportId: string): string {
    const dir = join(this.opts.workDir, reportId);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** Removes what the report left in the work folder: its print and its own folder. */
  cleanUp(reportId: string): void {
    rmSync(this.printPath(reportId), { force: true });
    rmSync(join(this.opts.workDir, reportId), { recursive: true, force: true });
  }

  /**
   * Runs the plan's steps in order from `io.input` (or the joined parts) into `io.output`; returns its
   * size in bytes and the pages the steps added (a table of contents).
   */
  async apply(reportId: string, plan: PostPlan, io: PipelineInput): Promise<{ bytes: number; addedPages: number }> {
    // A folder of its own only when a step writes files of this report (attachments, a JPEG stamp, a
    // merge): creating and removing files costs ~0.5 ms of CPU each here, a third of the server's share of a run.
    const dir = join(this.opts.workDir, reportId);
    let own = false;
    const ownDir = () => {
      if (!own) mkdirSync(dir, { recursive: true, mode: 0o700 });
      own = true;
      return dir;
    };
    try {
      let input: string;
      let outline = io.update;
      if (io.merge) {
        input = join(ownDir(), "joined.pdf");
        outline = await joinParts(this.qpdf, reportId, io.merge, input);
      } else if (io.input) input = io.input;
      else throw new Error("a pipeline run needs a printed PDF or parts to merge");
      const runs = runsOf(plan);
      let addedPages = 0;
      // A merge's outline rides in the first qpdf run, or in the first step's when it applies an update
      // itself; otherwise in a qpdf run of its own.
      const first = runs[0]?.tool === "file" ? stepNamed(runs[0].step.name) : undefined;
      const folded = outline !== undefined && first?.tool === "file" && first.appliesUpdate === true;
      if (outline && runs[0]?.tool !== "qpdf" && !folded) runs.unshift({ tool: "qpdf", steps: [] });
      for (const [i, run] of runs.entries()) {
        const output = i === runs.length - 1 ? io.output : join(ownDir(), `step-${i}.pdf`);
        const ctx = this.context(reportId, input, ownDir, io, i === 0 && folded ? outline : undefined);
        if (run.tool === "qpdf") {
          const files: Record<string, unknown> = {};
          for (const s of run.steps) {
            const step = stepNamed(s.name);
            if (step.tool === "qpdf" && step.prepare) files[s.name] = await step.prepare(s.params, ctx);
          }
          const update = i === 0 && outline ? await writeUpdate(ownDir(), "outline.json", outline) : undefined;
          await this.qpdf.job(qpdfJob({ steps: run.steps }, { input, output, ...files }, update), reportId);
        } else addedPages += (await (stepNamed(run.step.name) as FileStep<unknown>).run(run.step.params, ctx, input, output)) ?? 0;
        input = output;
      }
      return { bytes: await flush(io.output), addedPages };
    } finally {
      if (own) rmSync(dir, { recursive: true, force: true });
    }
  }

  private context(reportId: string, input: string, dir: () => string, io: PipelineInput, update?: QpdfUpdate): StepContext {
    let size: Promise<PageSize> | undefined;
    return {
      reportId,
      dir,
      update,
      balancedContent: !io.merge,
      pageSize: () => (size ??= readPageSize(input)),
      stampPath: io.stampPath,
      sharedFile: (key, bytes) => this.sharedFile(key, bytes),
      raster: this.rasterTools(reportId),
      keepThumbnail: io.keepThumbnail,
      qpdf: (args) => this.qpdf.run(args, reportId),
      json: (file, keys, objects) => this.qpdf.json(file, reportId, keys, objects),
      print: this.opts.print,
      signer: this.opts.signer,
    };
  }

  /**
   * The rasteriser for a report's pictures, and their encoders run as qpdf runs (niced, under the
   * deadline): a failure of either is a service fault (postprocess_failed, retried), logged.
   */
  rasterTools(reportId: string): RasterTools {
    return {
      run: (cmd, env) => runServiceTool(this.opts, cmd, reportId, { env }),
      draw: (task) =>
        this.opts.rasteriser.draw(task).catch((e: Error) => {
          this.opts.logger.warn("the rasteriser failed", { report_id: reportId, error: e.message });
          throw new RenderError("postprocess_failed", `the pages could not be drawn (${e.message}): a service fault, not the template's`);
        }),
    };
  }

  /**
   * A file written once into the work folder and reused by every report that asks for the same key
   * (a batch carries the same watermark on every report), at most SHARED_KEPT of them.
   */
  private sharedFile(key: string, bytes: () => Uint8Array): Promise<string> {
    const known = this.shared.get(key);
    if (known) {
      this.shared.delete(key); // most recently used last
      this.shared.set(key, known);
      return known;
    }
    // The promise is kept at once, so reports asking for the same new file meanwhile wait for this
    // one instead of rewriting it under a qpdf that is reading it.
    const path = join(this.opts.workDir, `shared-${createHash("sha256").update(key).digest("hex").slice(0, 16)}.pdf`);
    const written = writeFile(path, bytes()).then(() => path);
    written.catch(() => this.shared.delete(key));
    this.shared.set(key, written);
    if (this.shared.size > SHARED_KEPT) {
      const [oldKey, oldPath] = this.shared.entries().next().value!;
      this.shared.delete(oldKey);
      // A run already reading it goes on (an unlinked file stays readable while open); one that has not
      // opened it yet fails and is retried: with 64 kept, that needs 64 other files meanwhile.
      void oldPath.then((p) => rmSync(p, { force: true })).catch(() => {});
    }
    return written;
  }
}

/** The plan's steps grouped into runs: consecutive qpdf steps share one. */
function runsOf(plan: PostPlan): Run[] {
  const runs: Run[] = [];
  for (const s of plan.steps) {
    const last = runs[runs.length - 1];
    if (stepNamed(s.name).tool !== "qpdf") runs.push({ tool: "file", step: s });
    else if (last?.tool === "qpdf") last.steps.push(s);
    else runs.push({ tool: "qpdf", steps: [s] });
  }
  return runs;
}
