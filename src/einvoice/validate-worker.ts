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

/** A pool of worker threads that check e-invoices; the same result and errors as validateEInvoice. */
export class EInvoiceValidatorPool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: { job: Job; resolve: (a: Answer) => void }[] = [];
  private readonly pending = new Map<number, (a: Answer) => void>();
  private nextId = 1;

  constructor(size = 2) {
    for (let i = 0; i < size; i++) {
      // This file is also the worker's entry point (scripts/build.ts compiles it in).
      const w = new Worker(entrypointUrl("einvoice/validate-worker.ts"));
      w.onmessage = (e: MessageEvent<Answer>) => {
        this.pending.get(e.data.id)?.(e.data);
        this.pending.delete(e.data.id);
        this.idle.push(w);
        this.pump();
      };
      this.workers.push(w);
      this.idle.push(w);
    }
  }

  private pump() {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const w = this.idle.pop()!;
      const { job, resolve } = this.queue.shift()!;
      this.pending.set(job.id, resolve);
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
    for (const w of this.workers) w.terminate();
  }
}
