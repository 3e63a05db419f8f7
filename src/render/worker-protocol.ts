// Messages between the render pool (main thread) and a render worker thread.
import type { BrowserOptions, RenderJob, RenderOutput } from "./browser";
import type { ReportFailureCode } from "../lib/error-codes";

export type ToWorker = { type: "render"; id: number; job: RenderJob } | { type: "stop" };

export type FromWorker =
  | { type: "ready" }
  | { type: "done"; id: number; output: RenderOutput }
  | { type: "failed"; id: number; code: ReportFailureCode; message: string; retryable: boolean }
  | { type: "fatal"; reason: string }
  | { type: "stopped" };

export type WorkerData = BrowserOptions & {
  /** Nice value for this thread; Chromium, started from it, inherits it. */
  nice: number;
};
