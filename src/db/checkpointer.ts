// Moves SQLite's WAL checkpoints off the main thread. By default the connection that commits
// also checkpoints, every 1000 pages: with 60 KB report bodies that was every ~65 submissions,
// and those POSTs waited 10-25 ms for it (an in-process POST loop on ext4: p99 12 ms, 2-3 ms without;
// tests/integration/wal-checkpoint.test.ts guards the behaviour). A worker thread checkpoints instead
// (once a second, every 100 ms while the log is big: see checkpoint-worker.ts); the main connection
// keeps a far higher threshold as a fallback, so the log stays bounded even if the thread stalls. The
// thread runs under the supervisor: restarted with backoff if it fails, probed with a ping, and while
// it is down the main connection checkpoints at SQLite's default again.
import type { Database } from "bun:sqlite";
import { Worker } from "node:worker_threads";
import type { Logger } from "../lib/logger";
import { entrypointUrl } from "../lib/runtime";
import { type Child, ChildRegistry, Supervisor } from "../lib/supervisor";
import { ThreadLink } from "../lib/thread-link";

/** The thread copies once per CALM_INTERVAL_MS, or every BUSY_INTERVAL_MS after a pass that found BUSY_LOG_FRAMES or more. */
const CALM_INTERVAL_MS = 1_000;
const BUSY_INTERVAL_MS = 100;
/** 1 MB of log at 4 KB pages. */
const BUSY_LOG_FRAMES = 256;
/** SQLite's default auto-checkpoint threshold, in pages. */
const DEFAULT_AUTOCHECKPOINT = 1_000;
/** The main connection's threshold while the thread runs (~40 MB of log at 4 KB pages). */
const FALLBACK_AUTOCHECKPOINT = 10_000;

export interface CheckpointerData {
  file: string;
  calmIntervalMs: number;
  busyIntervalMs: number;
  busyLogFrames: number;
  /** Post a "pass" message after every pass (only when someone listens: WalCheckpointer's onPass). */
  reportPasses: boolean;
}
/**
 * One pass of the thread, as it decided it: the log's size in frames (0 when nothing was committed since
 * the previous pass: it did not checkpoint) and the interval it scheduled the next pass after.
 */
export interface CheckpointPass {
  logFrames: number;
  nextInMs: number;
}
export type FromCheckpointer =
  | { type: "ready" }
  | { type: "stopped" }
  | { type: "pong"; id: number }
  | { type: "error"; message: string }
  | ({ type: "pass" } & CheckpointPass);
export type ToCheckpointer = { type: "stop" } | { type: "ping"; id: number };

class CheckpointThread implements Child {
  private readonly worker: Worker;
  private readonly link: ThreadLink;
  private stopped?: () => void;

  constructor(file: string, logger: Logger, died: (cause: string) => void, onPass?: (p: CheckpointPass) => void) {
    // scripts/build.ts lists db/checkpoint-worker.ts as an entrypoint of the executable.
    this.worker = new Worker(entrypointUrl("db/checkpoint-worker.ts"), {
      workerData: {
        file,
        calmIntervalMs: CALM_INTERVAL_MS,
        busyIntervalMs: BUSY_INTERVAL_MS,
        busyLogFrames: BUSY_LOG_FRAMES,
        reportPasses: onPass !== undefined,
      } satisfies CheckpointerData,
    });
    this.link = new ThreadLink(this.worker, died);
    this.worker.on("message", (m: FromCheckpointer) => {
      this.link.heard(m);
      if (m.type === "stopped") this.stopped?.();
      if (m.type === "error") logger.warn("WAL checkpoint failed; will retry", { error: m.message });
      if (m.type === "pass") onPass?.({ logFrames: m.logFrames, nextInMs: m.nextInMs });
    });
  }

  start(): Promise<void> {
    return this.link.started();
  }

  probe(): Promise<boolean> {
    return this.link.probe();
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.stopped = resolve;
      this.worker.postMessage({ type: "stop" } satisfies ToCheckpointer);
    });
  }

  async kill(): Promise<void> {
    await this.link.kill();
  }
}

export class WalCheckpointer {
  private sup?: Supervisor<CheckpointThread>;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly registry: ChildRegistry = new ChildRegistry(),
    /** Called after every pass of the thread with what it decided (tests: what it scheduled, not when it ran). */
    private readonly onPass?: (p: CheckpointPass) => void,
  ) {}

  /** Resolves once the thread ran or failed its first start; until it runs, SQLite's own checkpointing stays on. */
  async start(): Promise<void> {
    this.sup = new Supervisor<CheckpointThread>({
      kind: "checkpointer",
      name: "checkpointer",
      create: (died) => new CheckpointThread(this.db.filename, this.logger, died, this.onPass),
      startTimeoutMs: 10_000,
      stopTimeoutMs: 2_000,
      // A pass takes milliseconds; a thread that cannot answer a ping for 10 s is stuck.
      probe: { intervalMs: 5_000, timeoutMs: 10_000, failures: 2 },
      logger: this.logger,
      registry: this.registry,
      onReady: () => this.setAutocheckpoint(FALLBACK_AUTOCHECKPOINT),
      onDown: () => this.setAutocheckpoint(DEFAULT_AUTOCHECKPOINT),
    });
    await this.sup.start();
  }

  async stop(): Promise<void> {
    await this.sup?.stop();
    this.setAutocheckpoint(DEFAULT_AUTOCHECKPOINT);
  }

  private setAutocheckpoint(pages: number) {
    this.db.exec(`PRAGMA wal_autocheckpoint = ${pages}`);
  }
}
