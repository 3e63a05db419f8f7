// Messages between the render pool (main thread) and a render worker thread.

import type { ReportFailureCode } from "../lib/error-codes";
import type { BrowserOptions, RenderJob } from "./browser";

export type ToWorker =
  /** The first message: the thread's settings (sent, not given as workerData, so the thread can start before they are known). */
  | { type: "init"; data: WorkerData }
  | { type: "render"; id: number; job: RenderJob }
  | { type: "probe"; id: number; timeoutMs: number }
  /** A full garbage collection of the thread's heap: the service has been quiet (lib/memory-trim.ts). */
  | { type: "gc" }
  | { type: "stop" };

export type FromWorker =
  | { type: "ready" }
  /** The PDF's bytes, transferred (not copied) to the main thread. */
  | { type: "done"; id: number; pdf: Uint8Array }
  | { type: "failed"; id: number; code: ReportFailureCode; message: string }
  | { type: "probed"; id: number; ok: boolean; error?: string }
  | { type: "fatal"; reason: string }
  /** This Chromium works on, but should be replaced as planned (a page could not be replaced). */
  | { type: "worn"; reason: string }
  | { type: "stopped" };

export type WorkerData = BrowserOptions & {
  /** Nice value for this thread; Chromium, started from it, inherits it. */
  nice: number;
  /**
   * This worker's own temp folder (under the data dir): Playwright puts Chromium's profile and
   * artifacts folders there, so leftovers of a killed Chromium are provably this service's, and the
   * supervisor finds this worker's Chromium by that path in its command line.
   */
  tmpDir: string;
  /** Chromium's own TMPDIR: tmpDir, unless that is too long for its singleton socket's path. */
  chromiumTmpDir: string;
};
