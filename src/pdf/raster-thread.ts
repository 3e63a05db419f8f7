// The rasteriser: one supervised thread (raster-worker.ts) that draws PDF pages with PDFium in
// WebAssembly, for every picture reportgen makes (raster.ts: image reports, thumbnails, the golden
// samples' compare, `reportgen diff`). One thread, one page at a time: pictures take at most one core, at
// the render priority. It starts with the first picture and ends after a minute without one, which gives
// back its memory (its heap grows to the largest page drawn: A4 at 150 dpi is 6.5 MB).
import type { Logger } from "../lib/logger";
import { entrypointUrl } from "../lib/runtime";
import type { ChildRegistry } from "../lib/supervisor";
import { TaskThread } from "../lib/task-thread";

/** Pages `first`..`last` (from 1, both included, `last` clipped to the document) of `pdf`, drawn. */
export interface RasterTask {
  /** The PDF's bytes: moved to the thread, not copied (the caller's buffer is emptied). */
  pdf: Uint8Array<ArrayBuffer>;
  /** Opens an encrypted PDF. */
  password?: string;
  first: number;
  last: number;
  /** Dots per inch (a paper size is drawn at that paper's pixels: page-pixels.ts), or a width in pixels. */
  size: { dpi: number } | { width: number };
  /** A PNG file (rows unfiltered, at zlib's `level`), or the bare RGB samples, row by row. */
  encode: "png" | "rgb";
  level?: number;
  /** A PNG larger than this is written in grey instead (a thumbnail's bound). */
  maxBytes?: number;
  /** Also a thumbnail of the task's first page (raster.ts's shrinkFrame), from the samples it was drawn into. */
  thumbnail?: boolean;
}

export interface RasterPage {
  width: number;
  height: number;
  bytes: Uint8Array<ArrayBuffer>;
}

export interface RasterResult {
  /** The document's pages, all of them. */
  pageCount: number;
  pages: RasterPage[];
  /** The first page's thumbnail, when the task asked for one. */
  thumbnail?: Uint8Array;
}

/** The rasteriser could not draw: an unreadable PDF, its deadline, a crash, or no room in its queue. */
export class RasterFailed extends Error {}

export interface RasteriserOptions {
  /** The deadline of one task (the render deadline), in the thread's CPU time. */
  timeoutMs: number;
  /** --render-nice. */
  nice: number;
  logger: Logger;
}

export class Rasteriser {
  private readonly thread: TaskThread<RasterTask, RasterResult>;

  constructor(opts: RasteriserOptions) {
    this.thread = new TaskThread({
      kind: "rasteriser",
      name: "rasteriser",
      // scripts/build.ts lists pdf/raster-worker.ts as an entrypoint of the executable.
      entry: entrypointUrl("pdf/raster-worker.ts"),
      timeoutMs: opts.timeoutMs,
      nice: opts.nice,
      // Compiling PDFium's 4.6 MB of WebAssembly takes ~200 ms of CPU; this allows for a saturated machine.
      startTimeoutMs: 15_000,
      // Every report's picture waits its turn (the render queue bounds them already); a flood of thumbnail
      // requests is bounded here.
      queueMax: 256,
      idleStopMs: 60_000,
      logger: opts.logger,
      errors: {
        overran: (what, s) => new RasterFailed(`${what} took longer than ${s} s`),
        busy: (reason) => new RasterFailed(reason),
        failed: (message) => new RasterFailed(message),
      },
    });
  }

  /** Counts the thread's restarts in `registry` (the App's); the thread itself starts with the first picture. */
  start(registry: ChildRegistry): void {
    this.thread.start(registry);
  }

  stop(): Promise<void> {
    return this.thread.stop();
  }

  /** Draws the task's pages; rejects with RasterFailed. `task.pdf`'s buffer is moved to the thread. */
  draw(task: RasterTask): Promise<RasterResult> {
    return this.thread.run(task, `drawing pages ${task.first}-${task.last} of a PDF`, [task.pdf.buffer]);
  }
}
