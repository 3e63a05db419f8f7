// Runs a report's post-processing plan with qpdf, and merges reports: the one place that turns a
// PostPlan into files and a qpdf command. Every run is bounded by the render deadline (the whole
// process group is killed when it passes); whatever goes wrong with the tool is a service fault
// (postprocess_failed, retried by the processor), never the template's.

import { createHash } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, rmSync } from "node:fs";
import { open, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RenderError } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import { runTool } from "../../lib/run-tool";
import { A4, firstPageSize, jpegStampPdf, type PageSize, watermarkPdf } from "../../render/overlay-pdf";
import { readPdfTitle } from "../../render/pdf-metadata";
import { jpegSize, type PlanFiles, type PostPlan, qpdfJob } from "../../render/post-process";

export interface PostRunnerOptions {
  qpdfPath: string;
  /** Bound on each qpdf run (the render deadline). */
  timeoutMs: number;
  /** CPU priority of qpdf (the render nice value). */
  nice: number;
  /** A folder of its own for intermediate files; emptied at start. */
  workDir: string;
  logger: Logger;
}

/** A report to merge: its id (its bookmark's title when its PDF has none) and its stored PDF. */
export interface MergePart {
  id: string;
  path: string;
}

const MESSAGE = "the PDF post-processing tool (qpdf) failed: a service fault, not the template's";

/** Watermark overlay files kept in the work folder for reuse. */
const OVERLAYS_KEPT = 64;

export class PostRunner {
  /** Watermark overlays on disk, by their drawing's key, least recently used first. */
  private readonly overlays = new Map<string, Promise<string>>();

  constructor(private readonly opts: PostRunnerOptions) {}

  /** Creates the work folder, removing what a crash left there. */
  init(): void {
    mkdirSync(this.opts.workDir, { recursive: true, mode: 0o700 });
    for (const f of readdirSync(this.opts.workDir)) rmSync(join(this.opts.workDir, f), { recursive: true, force: true });
  }

  /** Where the printer writes a report's PDF before post-processing. */
  printPath(reportId: string): string {
    return join(this.opts.workDir, `${reportId}.print.pdf`);
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
   * Applies `plan` to `input`, writing the result to `output` (flushed to the disk). `stampPath` is the
   * stored PDF of a stamp report. Returns the result's size in bytes.
   */
  async apply(reportId: string, plan: PostPlan, input: string, output: string, stampPath?: string): Promise<number> {
    // A folder of its own only when the plan writes files of this report (attachments, a JPEG stamp):
    // creating and removing files costs ~0.5 ms of CPU each here, a third of the server's share of a run.
    const own = plan.attachments.length > 0 || plan.stamp?.kind === "jpeg";
    const dir = join(this.opts.workDir, reportId);
    if (own) mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      const files = await this.prepare(dir, plan, input, output, stampPath);
      await this.qpdfJob(qpdfJob(plan, files), reportId);
      return await flush(output);
    } finally {
      if (own) rmSync(dir, { recursive: true, force: true });
    }
  }

  /**
   * Concatenates the parts' PDFs into `output` with one bookmark per part (its PDF title, else its
   * report id), then applies `plan` to the result in the same qpdf run.
   */
  async merge(reportId: string, parts: MergePart[], pageCounts: number[], plan: PostPlan, output: string, stampPath?: string) {
    const dir = join(this.opts.workDir, reportId);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      // First the parts alone, to learn where each one's first page landed; then, in one run, the same
      // join with an outline naming the parts and the plan applied.
      const joined = join(dir, "joined.pdf");
      // Part paths are ours (reports/<uuid>.pdf): nothing in them can read as an option.
      const paths = parts.map((p) => p.path);
      await this.qpdf(["--warning-exit-0", "--no-warn", "--empty", "--pages", ...paths, "--", joined], reportId);
      const titles = await Promise.all(parts.map((p) => partTitle(p)));
      const layout = await this.qpdfJson(joined, reportId);
      const outline = join(dir, "outline.json");
      await writeFile(outline, JSON.stringify(outlineUpdate(layout, titles, pageCounts)));
      const files = await this.prepare(dir, plan, joined, output, stampPath);
      await this.qpdfJob(qpdfJob(plan, files, outline), reportId);
      return await flush(output);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  private async prepare(dir: string, plan: PostPlan, input: string, output: string, stampPath?: string): Promise<PlanFiles> {
    const files: PlanFiles = { input, output, attachments: [] };
    let size: PageSize | undefined;
    const pageSize = async () => (size ??= await readPageSize(input));
    if (plan.watermark) files.watermark = await this.watermarkFile(plan.watermark, await pageSize());
    if (plan.stamp?.kind === "report") files.stamp = stampPath;
    else if (plan.stamp) {
      files.stamp = join(dir, "stamp.pdf");
      await writeFile(files.stamp, jpegStampPdf(plan.stamp.bytes, jpegSize(plan.stamp.bytes)!, plan.stamp.opacity, await pageSize()));
    }
    for (const [i, a] of plan.attachments.entries()) {
      const path = join(dir, `attachment-${i}`);
      await writeFile(path, a.bytes);
      files.attachments.push(path);
    }
    return files;
  }

  /**
   * The overlay PDF of a watermark on pages of `size`: written once into the work folder and reused
   * (a batch carries the same watermark on every report), at most OVERLAYS_KEPT of them.
   */
  private watermarkFile(w: NonNullable<PostPlan["watermark"]>, size: PageSize): Promise<string> {
    const key = JSON.stringify([w.text, w.opacity, w.angle, Math.round(size.width), Math.round(size.height)]);
    const known = this.overlays.get(key);
    if (known) {
      this.overlays.delete(key); // most recently used last
      this.overlays.set(key, known);
      return known;
    }
    // The promise is kept at once, so reports asking for the same new watermark meanwhile wait for this
    // one file instead of rewriting it under a qpdf that is reading it.
    const path = join(this.opts.workDir, `watermark-${createHash("sha256").update(key).digest("hex").slice(0, 16)}.pdf`);
    const written = writeFile(path, watermarkPdf(w, size)).then(() => path);
    written.catch(() => this.overlays.delete(key));
    this.overlays.set(key, written);
    if (this.overlays.size > OVERLAYS_KEPT) {
      const [oldKey, oldPath] = this.overlays.entries().next().value!;
      this.overlays.delete(oldKey);
      // A run already reading it goes on (an unlinked file stays readable while open); one that has not
      // opened it yet fails and is retried: with 64 kept, that needs 64 other watermarks meanwhile.
      void oldPath.then((p) => rmSync(p, { force: true })).catch(() => {});
    }
    return written;
  }

  /** Runs a qpdf job given as JSON on standard input (it may hold the PDF passwords). */
  private qpdfJob(job: Record<string, unknown>, reportId: string): Promise<void> {
    return this.qpdf(["--job-json-file=/dev/stdin"], reportId, JSON.stringify(job));
  }

  private async qpdf(args: string[], reportId: string, stdin?: string): Promise<void> {
    let run: Awaited<ReturnType<typeof runTool>>;
    try {
      run = await runTool([this.opts.qpdfPath, ...args], { timeoutMs: this.opts.timeoutMs, nice: this.opts.nice, stdin });
    } catch (e) {
      this.opts.logger.error("qpdf could not be started", { report_id: reportId, qpdf: this.opts.qpdfPath, error: e });
      throw new RenderError("postprocess_failed", MESSAGE, true);
    }
    if (run.code === 0) return;
    // The job is not logged: it holds the PDF passwords.
    this.opts.logger.warn("qpdf failed", {
      report_id: reportId,
      exit_code: run.code,
      signal: run.signal,
      timed_out: run.timedOut,
      ms: Math.round(run.ms),
      stderr: run.stderr.trim().slice(-500),
    });
    throw new RenderError(
      "postprocess_failed",
      run.timedOut
        ? `the PDF post-processing tool (qpdf) did not finish within ${this.opts.timeoutMs} ms: a service fault, not the template's`
        : MESSAGE,
      true,
    );
  }

  private async qpdfJson(file: string, reportId: string): Promise<QpdfLayout> {
    const out = `${file}.json`;
    await this.qpdf(["--json=2", "--json-key=pages", "--json-key=qpdf", file, out], reportId);
    return JSON.parse(await readFile(out, "utf8")) as QpdfLayout;
  }
}

/** The parts of qpdf's JSON (version 2) that an outline needs. */
interface QpdfLayout {
  pages: { object: string }[];
  qpdf: [{ maxobjectid: number }, Record<string, { value: Record<string, unknown> }>];
}

/**
 * A qpdf JSON update that gives the document an outline with one entry per part, each opening the
 * part's first page: new objects after the highest one, and the catalog pointing at them.
 */
export function outlineUpdate(layout: QpdfLayout, titles: string[], pageCounts: number[]) {
  const [head, objects] = layout.qpdf;
  const rootRef = (objects.trailer!.value as { "/Root": string })["/Root"];
  const ref = (n: number) => `${n} 0 R`;
  const outlines = head.maxobjectid + 1;
  const item = (i: number) => outlines + 1 + i;
  const update: Record<string, { value: unknown }> = {
    [`obj:${rootRef}`]: { value: { ...objects[`obj:${rootRef}`]!.value, "/Outlines": ref(outlines), "/PageMode": "/UseOutlines" } },
    [`obj:${ref(outlines)}`]: {
      value: { "/Type": "/Outlines", "/First": ref(item(0)), "/Last": ref(item(titles.length - 1)), "/Count": titles.length },
    },
  };
  let firstPage = 0;
  titles.forEach((title, i) => {
    const v: Record<string, unknown> = {
      "/Title": `u:${title}`,
      "/Parent": ref(outlines),
      "/Dest": [layout.pages[firstPage]!.object, "/Fit"],
    };
    if (i > 0) v["/Prev"] = ref(item(i - 1));
    if (i < titles.length - 1) v["/Next"] = ref(item(i + 1));
    update[`obj:${ref(item(i))}`] = { value: v };
    firstPage += pageCounts[i]!;
  });
  const header = { jsonversion: 2, pushedinheritedpageresources: false, calledgetallpages: false, maxobjectid: head.maxobjectid };
  return { qpdf: [header, update] };
}

/** The bookmark of a part: the title Chromium wrote (the document's <title> or metadata.title), else its id. */
async function partTitle(p: MergePart): Promise<string> {
  try {
    const title = readPdfTitle(await readFile(p.path)).trim();
    if (title) return title.slice(0, 200);
  } catch {
    // Not laid out as Skia writes it (a post-processed part): no title to read.
  }
  return `Report ${p.id}`;
}

/** The first page's size from the head of the PDF, where Skia writes the first page; A4 when not found. */
async function readPageSize(path: string): Promise<PageSize> {
  const fh = await open(path, "r");
  try {
    // Skia writes the first page's dictionary near the start: at byte 1 552 of an invoice, 41 834 of a 1 MB report.
    const buf = Buffer.allocUnsafe(128 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return firstPageSize(buf.subarray(0, bytesRead)) ?? A4;
  } finally {
    await fh.close();
  }
}

/** Flushes a file qpdf wrote to the disk; returns its size. */
async function flush(path: string): Promise<number> {
  const fh = await open(path, "r+");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
  return (await stat(path)).size;
}

/**
 * Whether a stored PDF is encrypted: qpdf writes /Encrypt into the trailer at the end of the file, and
 * into the first-page trailer near its start when linearized; Chromium's own PDFs never have it there.
 * Synchronous (two 8 KB reads): a merge request checks its parts before it is queued.
 */
export function isEncryptedPdf(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const chunk = Buffer.alloc(Math.min(size, 8192));
    const look = (at: number) => chunk.subarray(0, readSync(fd, chunk, 0, chunk.length, at)).includes("/Encrypt");
    return look(0) || look(Math.max(0, size - chunk.length));
  } finally {
    closeSync(fd);
  }
}
