// Runs validateEInvoice off the event loop: a small pool of worker threads, so that checking large
// e-invoices never delays other requests (/livez stays responsive). The check itself is pure
// (validate.ts); this file only moves bytes in and the result, or the refusal, out.
import { entrypointUrl } from "../lib/runtime";
import type { RuleSetId } from "./rules/report";
import { type EInvoiceValidation, NotAnEInvoice, validateEInvoice } from "./validate";
import { XmlRejected, type XmlRejection } from "./xml";

interface Job {
  id: number;
  bytes: Uint8Array;
  rules?: RuleSetId[];
}
type Answer =
  | { id: number; ok: EInvoiceValidation }
  | { id: number; rejected: { kind: XmlRejection | "not_an_invoice"; message: string } }
  | { id: number; crashed: string };

declare const self: Worker;
const inWorker = typeof Bun !== "undefined" && !Bun.isMainThread;

if (inWorker) {
  self.onmessage = (e: MessageEvent<Job>) => {
    const { id, bytes, rules } = e.data;
    let answer: Answer;
    try {
      answer = { id, ok: validateEInvoice(bytes, { rules }) };
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

  constructor(size = 2) {
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
      w.postMessage(job);
    }
  }

  /** Checks one e-invoice in a worker. Rejects with XmlRejected or NotAnEInvoice like validateEInvoice. */
  async validate(bytes: Uint8Array, options: { rules?: RuleSetId[] } = {}): Promise<EInvoiceValidation> {
    const answer = await new Promise<Answer>((resolve) => {
      this.queue.push({ job: { id: this.nextId++, bytes, rules: options.rules }, resolve });
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
