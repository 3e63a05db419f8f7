// Typed domain errors. Services throw these; http/errors.ts is the one place that maps them to HTTP.
// Their codes come from the closed lists in error-codes.ts.
import { API_ERRORS, type ApiErrorCode, isReportFailureCode, type ReportFailureCode } from "./error-codes";

/** A failure a client caused and can fix: carries a stable code and a human message; its HTTP status is API_ERRORS[code]'s. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = API_ERRORS[code].status;
    this.name = "AppError";
  }
}

export const unauthorized = () => new AppError("unauthorized", "unauthorized");

export const notFound = (what: string, id?: string) =>
  new AppError("not_found", id ? `${what} ${id} does not exist (or belongs to another account).` : `${what} does not exist.`);

export const validationFailed = (message: string, details?: unknown) => new AppError("validation_failed", message, details);

/** An error the client should retry after `retryAfterSeconds` (a 429 or 503 by its code), with Retry-After set. */
export const retryLater = (code: ApiErrorCode, message: string, retryAfterSeconds: number) =>
  new AppError(code, message, undefined, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/**
 * The data dir is full (507 Insufficient Storage) or read-only / failing (503): the request stored
 * nothing. The service recovers by itself once the disk takes writes again.
 */
export const storageRefusal = (fault: "full" | "read_only" | "io") =>
  fault === "full"
    ? new AppError(
        "storage_full",
        "the server's disk is full, so nothing new can be stored; nothing was saved. Retry later: the service resumes by itself once space is freed",
        undefined,
        { "Retry-After": "10" },
      )
    : new AppError(
        "storage_unavailable",
        "the server cannot write to its disk right now (read-only or failing); nothing was saved. Retry later",
        undefined,
        { "Retry-After": "10" },
      );

/**
 * Raised while rendering a report: ends the report `failed` with this code and message. Whether it is
 * tried again is its code's (RETRYABLE_FAILURES in error-codes.ts), not the thrower's.
 */
export class RenderError extends Error {
  readonly code: ReportFailureCode;
  constructor(code: ReportFailureCode, message: string) {
    // Codes also arrive over the worker and sandbox protocols as plain strings: one outside the closed
    // set is a bug, answered like any unexpected failure rather than shown to the client.
    const known = isReportFailureCode(code);
    super(known ? message : "an unexpected internal error stopped this report; the cause has been logged");
    this.code = known ? code : "internal_error";
    this.name = "RenderError";
  }
}

/** A reason the service cannot start that the operator can fix; printed without a stack trace. */
export class StartupError extends Error {}
