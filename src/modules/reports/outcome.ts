// What becomes of a report whose attempt failed: one function reads the failure and decides, so that
// every fault is answered in one place. Back to the queue (with its attempt given back, or after a
// retry's backoff), failed with a code, or left as it is (the lease or stop() brings it back). Pure:
// the processor applies the outcome (outcome side effects, logging, the fenced write).
import { isDatabaseUnreachable } from "../../db/errors";
import { isRetryable, REPORT_FAILURES, type ReportFailureCode } from "../../lib/error-codes";
import { RenderError } from "../../lib/errors";
import { type StorageFault, storageFailureCode, storageFault } from "../../lib/storage";
import { StoreUnavailableError } from "../files/pdf-store";
import { retryDelayMs } from "./processor-options";

/** A log line the outcome asks for. */
export interface Note {
  level: "error" | "warn" | "info";
  message: string;
  fields?: Record<string, unknown>;
}

export type Outcome = (
  | { kind: "leave" }
  | { kind: "requeue"; refund: boolean; delayMs?: number }
  | { kind: "fail"; code: ReportFailureCode; message: string }
) & {
  notes: Note[];
  /** Counted as a retry with this cause (the metric's label). */
  retried?: string;
  /** A disk fault to report to the storage monitor (it pauses the lanes until the disk takes writes). */
  storage?: { fault: StorageFault; cause: unknown };
};

/** Where the attempt stands when it failed. */
export interface FailedAttempt {
  attempts: number;
  maxAttempts: number;
  /** False once the processor is stopping: a render cut short by the stop is re-queued by stop(). */
  running: boolean;
}

const STORAGE_CODES = new Set(["storage_full", "storage_error"]);

/** The outcome of a failed attempt. */
export function outcomeOf(e: unknown, a: FailedAttempt): Outcome {
  if (isDatabaseUnreachable(e))
    // Not the report's fault, and nothing can be recorded now: the claim's lease runs out and the
    // reaper (here or on another instance) puts it back in the queue once the database answers.
    return {
      kind: "leave",
      notes: [
        {
          level: "warn",
          message: "database unreachable while recording the report; it goes back to the queue when its lease runs out",
          fields: { error: e },
        },
      ],
    };
  if (e instanceof StoreUnavailableError) return storeOutcome(e, a);
  const fault =
    storageFault(e) ?? (e instanceof RenderError && STORAGE_CODES.has(e.code) ? (e.code === "storage_full" ? "full" : "io") : undefined);
  if (fault) return storageOutcome(fault, e, a);
  // An unexpected exception is a bug, not an interruption: logged with its cause, failed as internal_error, not retried.
  // The render worker reports its own unexpected exceptions as internal_error with their message:
  // that message is logged here, and the client gets only the generic one.
  const unexpected = !(e instanceof RenderError) || e.code === "internal_error";
  const notes: Note[] = unexpected ? [{ level: "error", message: "report processing failed unexpectedly", fields: { error: e } }] : [];
  const err = unexpected ? new RenderError("internal_error", REPORT_FAILURES.internal_error) : e;
  if (!a.running && err.code === "shutting_down") return { kind: "leave", notes };
  // It never reached a renderer: the attempt is given back.
  if (err.code === "renderer_unavailable") return { kind: "requeue", refund: true, notes };
  // Whether it is tried again is the code's (RETRYABLE_FAILURES), wherever it was thrown.
  const retryable = isRetryable(err.code);
  if (retryable && a.attempts < a.maxAttempts) {
    const delayMs = retryDelayMs(a.attempts);
    notes.push({
      level: "warn",
      message: "report render interrupted; will retry",
      fields: { code: err.code, attempt: a.attempts, error: err.message, retry_in_ms: delayMs },
    });
    return { kind: "requeue", refund: false, delayMs, notes, retried: err.code };
  }
  const message = retryable ? `${err.message} (gave up after ${a.attempts} attempts)` : err.message;
  notes.push({ level: "info", message: "report failed", fields: { code: err.code, error: message, attempt: a.attempts } });
  return { kind: "fail", code: err.code, message, notes };
}

/**
 * The disk refused a write for this report. It goes back to the queue (the lanes pause until the
 * disk recovers, so waiting costs no attempts); a report that keeps failing once space is back
 * (its PDF alone does not fit) ends failed after its attempts.
 */
function storageOutcome(fault: StorageFault, cause: unknown, a: FailedAttempt): Outcome {
  const storage = { fault, cause };
  if (a.attempts < a.maxAttempts)
    return {
      kind: "requeue",
      refund: false,
      storage,
      retried: storageFailureCode(fault),
      notes: [
        {
          level: "warn",
          message: "report interrupted by a storage fault; re-queued until the disk takes writes again",
          fields: { fault, attempt: a.attempts, error: cause },
        },
      ],
    };
  const message =
    fault === "full"
      ? `the server's disk was full each of the ${a.attempts} times this report was rendered; submit it again once the operator has freed space`
      : `the server could not write to its disk (read-only or failing) each of the ${a.attempts} times this report was rendered; submit it again later`;
  return { kind: "fail", code: storageFailureCode(fault), message, storage, notes: [] };
}

/**
 * The file store refused the PDF: a service fault, never the template's. During an outage the report
 * goes back to the queue with its attempt refunded (the lanes wait for the store, so this costs no
 * attempts however long it lasts), unless its upload was abandoned unanswered; a store that works but
 * refused this PDF is retried with backoff like any interruption, and after the last attempt the
 * report ends storage_error.
 */
function storeOutcome(e: StoreUnavailableError, a: FailedAttempt): Outcome {
  const retried = "storage_error";
  if (e.outage && (e.settled || a.attempts < a.maxAttempts))
    // An upload abandoned at its deadline may still land under this attempt's key: that attempt is
    // spent, so that no later attempt writes the same key.
    return {
      kind: "requeue",
      refund: e.settled,
      retried,
      notes: [
        {
          level: "warn",
          message: "report waits in the queue: the file store is unavailable",
          fields: { attempt: a.attempts, error: e.message },
        },
      ],
    };
  if (a.attempts < a.maxAttempts) {
    const delayMs = retryDelayMs(a.attempts);
    return {
      kind: "requeue",
      refund: false,
      delayMs,
      retried,
      notes: [
        {
          level: "warn",
          message: "the file store refused the report's PDF; will retry",
          fields: { attempt: a.attempts, error: e.message, retry_in_ms: delayMs },
        },
      ],
    };
  }
  return {
    kind: "fail",
    code: "storage_error",
    message: `the file store refused this report's PDF each of the ${a.attempts} times it was rendered (${e.message}); submit it again later`,
    retried,
    notes: [],
  };
}
