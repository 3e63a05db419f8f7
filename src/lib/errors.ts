// Typed domain errors. Services throw these; http/errors.ts is the one place that maps them to HTTP.

/** A failure a client caused and can fix: carries a stable code, a status and a human message. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
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

export const badRequest = (code: string, message: string, details?: unknown) =>
  new AppError(400, code, message, details);

export const validationFailed = (message: string, details?: unknown) =>
  new AppError(422, "validation_failed", message, details);

export const tooManyRequests = (code: string, message: string, retryAfterSeconds: number) =>
  new AppError(429, code, message, undefined, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });

export const serviceUnavailable = (code: string, message: string, retryAfterSeconds: number) =>
  new AppError(503, code, message, undefined, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** Raised while rendering a report: ends the report `failed` with this code and message. */
export class RenderError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** A transient failure (browser crash, worker restart) may be retried; a template's own fault is not. */
    readonly retryable = false,
  ) {
    super(message);
    this.name = "RenderError";
  }
}

/** A reason the service cannot start that the operator can fix; printed without a stack trace. */
export class StartupError extends Error {}
