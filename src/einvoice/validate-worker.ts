// Runs validateEInvoice off the event loop: a small pool of worker threads, so that checking large
// e-invoices never delays other requests (/livez stays responsive). The check itself is pure
// (validate.ts); this file only moves bytes in and the result, or the refusal, out.
import { readFileSync } from "node:fs";
import { setPriority } from "node:os";
import { entrypointUrl } from "../lib/runtime";
import type { RuleSetId } from "./rules/report";
import { type EInvoiceValidation, type IncomingReading, NotAnEInvoice, readIncoming, validateEInvoice } from "./validate";
import { XmlRejected, type XmlRejection } from "./xml";

interface Job {
  id: number;
  bytes: Uint8Array;
  rules?: RuleSetId[];
  /** Also read the invoice for the readable copy (readIncoming), not only check it. */
  read?: boolean;
  /** The caller no longer needs `bytes`: their buffer may be transferred as it is (then detached). */
  handOver?: boolean;
}
type Answer =
  | { id: number; ok: EInvoiceValidation | IncomingReading }
  | { id: number; rejected: { kind: XmlRejection | "not_an_invoice"; message: string } }
  | { id: number; crashed: string };

declare const self: Worker;
const inWorker = typeof Bun !== "undefined" && !Bun.isMainThread;

/** What the pool tells a thread once, before any job: its niceness (--render-nice). */
interface Setup {
  nice: number;
}

/**
 * Lowers this thread's own priority (Linux: per thread, by its id) to `nice`, as the data_schema thread
 * does: a check is batch work, the event loop answers everyone. On a busy 2-core machine a checker thread
 * at the main thread's priority took turns with it, and /livez waited hundreds of ms; niced, the kernel
 * runs the main thread first whenever it has work. Elsewhere, or if refused, nothing.
 */
function yieldToEventLoop(nice: number) {
  try {
    const tid = Number(readFileSync("/proc/thread-self/stat", "utf8").split(" ")[0]);
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // Not Linux, or not allowed: the thread keeps its priority, which is only slower under load.
  }
}

if (inWorker) {
  self.onmessage = (e: MessageEvent<Job | Setup>) => {
    if ("nice" in e.data) return yieldToEventLoop(e.data.nice);
    const { id, bytes, rules, read } = e.data;
    let answer: Answer;
    try {
      answer = { id, ok: read ? readIncoming(bytes, { rules }) : validateEInvoice(bytes, { rules }) };
    } catch (err) {
      if (err instanceof XmlRejected) answer = { id, rejected: { kind: err.kind, message: err.message } };
      else if (err instanceof NotAnEInvoice) answer = { id, rejected: { kind: "not_an_invoice", message: err.message } };
      else answer = { id, crashed: String(err) };
    }
    self.postMessage(answer);
  };
}

/**
 * A pool of worker threads that check e-invoices; the same result and errors as validateEInvoice.
 * A thread that ends while it checks (it crashed, or ran out of memory) fails that one check with an
 * error, never leaving it waiting, and is replaced for the next.
 */
export class EInvoiceValidatorPool {
  private readonly workers = new Set<Worker>();
  private readonly idle: Worker[] = [];
  private readonly queue: { job: Job; resolve: (a: Answer) => void }[] = [];
  private readonly pending = new Map<number, (a: Answer) => void>();
  /** The job each busy worker checks. */
  private readonly busy = new Map<Worker, number>();
  private nextId = 1;
  private closed = false;

  /** `nice`: the threads' niceness, the service's --render-nice (0 leaves them at the event loop's priority). */
  constructor(
    size = 2,
    private readonly nice = 10,
  ) {
    for (let i = 0; i < size; i++) this.idle.push(this.spawn());
  }

  private spawn(): Worker {
    // This file is also the worker's entry point (scripts/build.ts compiles it in).
    const w = new Worker(entrypointUrl("einvoice/validate-worker.ts"));
    w.onmessage = (e: MessageEvent<Answer>) => {
      this.busy.delete(w);
      this.pending.get(e.data.id)?.(e.data);
      this.pending.delete(e.data.id);
      this.idle.push(w);
      this.pump();
    };
    w.addEventListener("close", () => this.lost(w));
    if (this.nice > 0) w.postMessage({ nice: this.nice } satisfies Setup);
    this.workers.add(w);
    return w;
  }

  private lost(w: Worker) {
    if (this.closed || !this.workers.delete(w)) return;
    const id = this.busy.get(w);
    this.busy.delete(w);
    const at = this.idle.indexOf(w);
    if (at >= 0) this.idle.splice(at, 1);
    if (id !== undefined) {
      this.pending.get(id)?.({ id, crashed: "the checking thread ended while it checked this document" });
      this.pending.delete(id);
    }
    this.idle.push(this.spawn());
    this.pump();
  }

  private pump() {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const w = this.idle.pop()!;
      const { job, resolve } = this.queue.shift()!;
      this.pending.set(job.id, resolve);
      this.busy.set(w, job.id);
      // The document goes as a transferred buffer, never cloned: Bun's structured clone of a Buffer (what
      // the body reader hands on) cost the event loop 0.8 ms median and 46 ms p90 for a 435 kB invoice, a
      // transfer 0.02 ms (measured side by side). A caller that hands its bytes over (handOver) gives up
      // their buffer, when the document fills it: no copy, and no 435 kB more for the event loop's
      // collector to count (0.6-0.9 ms of main-thread CPU per large check with the copy, measured
      // in-process). Otherwise a copy keeps the caller's bytes usable (render's archive embeds them).
      // Either way a plain Uint8Array goes, never the Buffer itself (the slow clone above).
      const { buffer, byteOffset, byteLength } = job.bytes;
      const whole = job.handOver && buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength;
      const bytes = whole ? new Uint8Array(buffer) : new Uint8Array(job.bytes);
      w.postMessage({ ...job, bytes }, [bytes.buffer]);
    }
  }

  /**
   * Checks one e-invoice in a worker. Rejects with XmlRejected or NotAnEInvoice like validateEInvoice.
   * With `handOver`, the caller gives `bytes` up: their buffer may be moved to the thread (left empty here).
   */
  async validate(bytes: Uint8Array, options: { rules?: RuleSetId[]; handOver?: boolean } = {}): Promise<EInvoiceValidation> {
    return (await this.run({ id: this.nextId++, bytes, rules: options.rules, handOver: options.handOver })) as EInvoiceValidation;
  }

  /** Checks one e-invoice and reads it for the readable copy, in a worker (readIncoming). */
  async read(bytes: Uint8Array, options: { rules?: RuleSetId[] } = {}): Promise<IncomingReading> {
    return (await this.run({ id: this.nextId++, bytes, rules: options.rules, read: true })) as IncomingReading;
  }

  private async run(job: Job): Promise<EInvoiceValidation | IncomingReading> {
    const answer = await new Promise<Answer>((resolve) => {
      this.queue.push({ job, resolve });
      this.pump();
    });
    if ("ok" in answer) return answer.ok;
    if ("rejected" in answer) {
      throw answer.rejected.kind === "not_an_invoice"
        ? new NotAnEInvoice(answer.rejected.message)
        : new XmlRejected(answer.rejected.kind, answer.rejected.message);
    }
    throw new Error(`the e-invoice check failed: ${answer.crashed}`);
  }

  close() {
    this.closed = true;
    for (const w of this.workers) w.terminate();
  }
}
