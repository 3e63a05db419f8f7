// Typed domain errors. Services throw these; http/errors.ts is the one place that maps them to HTTP.
// Their codes come from the closed lists in error-codes.ts.
import { type ApiErrorCode, isReportFailureCode, type ReportFailureCode } from "./error-codes";

/** A failure a client caused and can fix: carries a stable code, a status and a human message. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const unauthorized = () => new AppError(401, "unauthorized", "unauthorized");

export const notFound = (what: string, id?: string) =>
  new AppError(404, "not_found", id ? `${what} ${id} does not exist (or belongs to another account).` : `${what} does not exist.`);

export const badRequest = (code: ApiErrorCode, message: string, details?: unknown) => new AppError(400, code, message, details);

export const validationFailed = (message: string, details?: unknown) => new AppError(422, "validation_failed", message, details);

export const tooManyRequests = (code: ApiErrorCode, message: string, retryAfterSeconds: number) =>
  new AppError(429, code, message, undefined, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });

export const serviceUnavailable = (code: ApiErrorCode, message: string, retryAfterSeconds: number) =>
  new AppError(503, code, message, undefined, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/**
 * The data dir is full (507 Insufficient Storage) or read-only / failing (503): the request stored
 * nothing. The service recovers by itself once the disk takes writes again.
 */
export const storageRefusal = (fault: "full" | "read_only" | "io") =>
  fault === "full"
    ? new AppError(
        507,
        "storage_full",
        "the server's disk is full, so nothing new can be stored; nothing was saved. Retry later: the service resumes by itself once space is freed",
        undefined,
        { "Retry-After": "10" },
      )
    : new AppError(
        503,
        "storage_unavailable",
        "the server cannot write to its disk right now (read-only or failing); nothing was saved. Retry later",
        undefined,
        { "Retry-After": "10" },
      );

/** Raised while rendering a report: ends the report `failed` with this code and message. */
export class RenderError extends Error {
  readonly code: ReportFailureCode;
  constructor(
    code: ReportFailureCode,
    message: string,
    /** A transient failure (browser crash, worker restart) may be retried; a template's own fault is not. */
    readonly retryable = false,
  ) {
    // Codes also arrive over the worker and sandbox protocols as plain strings: one outside the closed
    // set is a bug, answered like any unexpected failure rather than shown to the client.
    const known = isReportFailureCode(code);
    super(known ? message : "an unexpected internal error stopped this report; the cause has been logged");
    this.code = known ? code : "internal_error";
    if (!known) this.retryable = false;
    this.name = "RenderError";
  }
}

/** A reason the service cannot start that the operator can fix; printed without a stack trace. */
export class StartupError extends Error {}
