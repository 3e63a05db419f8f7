// The parent's end of a supervised worker thread (the WAL checkpointer, the data_schema validator): the
// start-up handshake on the thread's "ready", the supervisor's probe as a ping the thread answers with
// "pong", and the thread's end (an error or an exit) failing the handshake and reported to the supervisor.
import type { Worker } from "node:worker_threads";
import { StartHandshake } from "./supervisor-group";

export class ThreadLink {
  private readonly handshake = new StartHandshake();
  private readonly pings = new Map<number, () => void>();
  private nextPing = 1;

  constructor(
    private readonly worker: Worker,
    died: (cause: string) => void,
  ) {
    const gone = (cause: string) => {
      this.handshake.fail(new Error(cause));
      died(cause);
    };
    worker.on("error", (e: Error) => gone(`thread error: ${e.message}`));
    worker.on("exit", () => gone("the thread exited"));
  }

  /** Takes a message of the thread's that every thread sends ("ready", "pong"); others are the caller's. */
  heard(m: { type: string; id?: number }): void {
    if (m.type === "ready") this.handshake.ready();
    if (m.type === "pong" && m.id !== undefined) this.pings.get(m.id)?.();
  }

  /** Resolves when the thread said it is ready; rejects when it ended before. */
  started(): Promise<void> {
    return this.handshake.started;
  }

  /** True once the thread answers a ping (the supervisor bounds the wait). */
  probe(): Promise<boolean> {
    const id = this.nextPing++;
    return new Promise<boolean>((resolve) => {
      this.pings.set(id, () => resolve(true));
      this.worker.postMessage({ type: "ping", id });
    }).finally(() => this.pings.delete(id));
  }

  /** Ends the thread without reporting it as died. */
  async kill(): Promise<void> {
    this.worker.removeAllListeners();
    await this.worker.terminate().catch(() => {});
  }
}
