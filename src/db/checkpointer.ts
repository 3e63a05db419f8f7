// Moves SQLite's WAL checkpoints off the main thread. By default the connection that commits
// also checkpoints, every 1000 pages: with 60 KB report bodies that was every ~65 submissions,
// and those POSTs waited 10-25 ms for it (in-process POST loop on this machine's ext4: p99 12 ms,
// 2-3 ms without). A worker thread checkpoints every 100 ms instead; the main
// connection keeps a far higher threshold as a fallback, so the log stays bounded even if the
// thread stalls.
import type { Database } from "bun:sqlite";
import { Worker } from "node:worker_threads";
import type { Logger } from "../lib/logger";
import { entrypointUrl } from "../lib/runtime";

const INTERVAL_MS = 100;
/** SQLite's default auto-checkpoint threshold, in pages. */
const DEFAULT_AUTOCHECKPOINT = 1_000;
/** The main connection's threshold while the thread runs (~40 MB of log at 4 KB pages). */
const FALLBACK_AUTOCHECKPOINT = 10_000;

type FromCheckpointer = { type: "ready" } | { type: "stopped" } | { type: "error"; message: string };

export class WalCheckpointer {
  private worker?: Worker;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
  ) {}

  /** Resolves once the thread runs; if it cannot start, SQLite's own checkpointing stays on. */
  async start(): Promise<void> {
    // scripts/build.ts lists db/checkpoint-worker.ts as an entrypoint of the executable.
    const worker = new Worker(entrypointUrl("db/checkpoint-worker.ts"), { workerData: { file: this.db.filename, intervalMs: INTERVAL_MS } });
    this.worker = worker;
    const ready = new Promise<boolean>((resolve) => {
      worker.on("message", (m: FromCheckpointer) => {
        if (m.type === "ready") resolve(true);
        if (m.type === "error") this.logger.warn("WAL checkpoint failed; will retry", { error: m.message });
      });
      worker.on("error", (e: Error) => {
        this.logger.warn("WAL checkpoint thread failed; the main connection checkpoints again", { error: e.message });
        resolve(false);
      });
      worker.on("exit", () => {
        if (this.worker === worker) this.setAutocheckpoint(DEFAULT_AUTOCHECKPOINT);
        resolve(false);
      });
    });
    if (await ready) this.setAutocheckpoint(FALLBACK_AUTOCHECKPOINT);
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const stopped = new Promise<void>((resolve) => {
      worker.on("message", (m: FromCheckpointer) => m.type === "stopped" && resolve());
      worker.on("exit", () => resolve());
    });
    worker.postMessage({ type: "stop" });
    await Promise.race([stopped, Bun.sleep(2_000)]);
    await worker.terminate();
    this.setAutocheckpoint(DEFAULT_AUTOCHECKPOINT);
  }

  private setAutocheckpoint(pages: number) {
    this.db.exec(`PRAGMA wal_autocheckpoint = ${pages}`);
  }
}
