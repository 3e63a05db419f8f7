// Entry of a render worker thread: owns one BrowserHost and prints what the pool sends it.
// Keeping Chromium's protocol traffic (large base64 PDFs) off the main thread keeps the API responsive.
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { RenderError } from "../lib/errors";
import { BrowserHost } from "./browser";
import type { FromWorker, ToWorker, WorkerData } from "./worker-protocol";

const port = parentPort!;
const post = (m: FromWorker) => port.postMessage(m);
const { nice, ...browserOptions } = workerData as WorkerData;
// On Linux a thread's priority is its own and its child processes inherit it: lowering it here, before
// Chromium starts, leaves the main thread (HTTP, SQLite) ahead of rendering when the CPU is saturated.
if (nice > 0) setPriority(nice);
const host = new BrowserHost(browserOptions);
host.onFatal = (reason) => post({ type: "fatal", reason });

port.on("message", async (msg: ToWorker) => {
  if (msg.type === "stop") {
    await host.close().catch(() => {});
    post({ type: "stopped" });
    return;
  }
  try {
    post({ type: "done", id: msg.id, output: await host.render(msg.job) });
  } catch (e) {
    const err = e instanceof RenderError ? e : new RenderError("render_failed", String((e as Error)?.message ?? e), true);
    post({ type: "failed", id: msg.id, code: err.code, message: err.message, retryable: err.retryable });
  }
});

host.start().then(
  () => post({ type: "ready" }),
  (e) => post({ type: "fatal", reason: `Chromium did not start: ${(e as Error).message}` }),
);
