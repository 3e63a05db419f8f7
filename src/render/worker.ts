// Entry of a render worker thread: owns one BrowserHost and prints what the pool sends it.
// Keeping Chromium's protocol traffic (large base64 PDFs) off the main thread keeps the API responsive.
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { RenderError } from "../lib/errors";
import { BrowserHost } from "./browser";
import type { FromWorker, ToWorker, WorkerData } from "./worker-protocol";

const port = parentPort!;
const post = (m: FromWorker) => port.postMessage(m);
let host: BrowserHost | undefined;

/** Starts Chromium with the settings the pool sent (the thread may have been started before they were known: pool.ts). */
function init(data: WorkerData) {
  const { nice, tmpDir, chromiumTmpDir, ...browserOptions } = data;
  // Playwright makes Chromium's profile folder in os.tmpdir(), which reads TMPDIR; a worker thread has
  // its own copy of the environment, so this changes it for this thread (and its Chromium) only.
  process.env.TMPDIR = tmpDir;
  // On Linux a thread's priority is its own and its child processes inherit it: lowering it here, before
  // Chromium starts, leaves the main thread (HTTP, SQLite) ahead of rendering when the CPU is saturated.
  if (nice > 0) setPriority(nice);
  const h = new BrowserHost({ ...browserOptions, env: { ...process.env, TMPDIR: chromiumTmpDir }, processTag: tmpDir });
  h.onFatal = (reason) => post({ type: "fatal", reason });
  h.onWornOut = (reason) => post({ type: "worn", reason });
  host = h;
  h.start().then(
    () => post({ type: "ready" }),
    (e) => post({ type: "fatal", reason: `Chromium did not start: ${(e as Error).message}` }),
  );
}

port.on("message", async (msg: ToWorker) => {
  if (msg.type === "init") return init(msg.data);
  // The pool sends nothing else before this thread said it is ready, nor after a stop.
  if (!host) return;
  if (msg.type === "stop") {
    await host.close().catch(() => {});
    post({ type: "stopped" });
    return;
  }
  if (msg.type === "gc") {
    Bun.gc(true);
    return;
  }
  if (msg.type === "probe") {
    try {
      post({ type: "probed", id: msg.id, ok: await host.responsive(msg.timeoutMs) });
    } catch (e) {
      post({ type: "probed", id: msg.id, ok: false, error: (e as Error).message });
    }
    return;
  }
  try {
    const pdf = await host.render(msg.job);
    // Moved, not copied, when the PDF owns its whole buffer (a small Buffer may share a pool: copied).
    const own = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength;
    port.postMessage({ type: "done", id: msg.id, pdf } satisfies FromWorker, own ? [pdf.buffer as ArrayBuffer] : []);
  } catch (e) {
    // Anything but a classified RenderError is a bug of ours: reported as such, never retried as if
    // the render had merely been interrupted.
    const err =
      e instanceof RenderError
        ? e
        : new RenderError("internal_error", `an internal error stopped this render: ${String((e as Error)?.message ?? e).slice(0, 300)}`);
    post({ type: "failed", id: msg.id, code: err.code, message: err.message });
  }
});
