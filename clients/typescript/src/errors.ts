// The one error the client throws for an answer of 400 or more: the server's stable code (a closed list,
// generated from the OpenAPI document), its message, details and the request id to quote in a report.
import { ERROR_CODES, type ErrorCode } from "./error-codes.js";

export { ERROR_CODES, type ErrorCode };

/** The field-level problems of 422 validation_failed (and the rules of e_invoice_invalid). */
export interface FieldProblem {
  field: string;
  problem: string;
  rule?: string;
}

export class ReportgenError extends Error {
  override readonly name = "ReportgenError";
  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The stable code: switch on it. A code this client's list lacks (a newer server) is kept as sent. */
    readonly code: ErrorCode,
    message: string,
    /** What the server added: `[{field, problem}]` for validation_failed, `{byte_offset}` for invalid_json, … */
    readonly details: unknown,
    /** X-Request-Id of the answer: the server's log names the same id. */
    readonly requestId: string | null,
    /** Retry-After in seconds, when the answer had one (429, 503, 507). */
    readonly retryAfter: number | null,
  ) {
    super(`${status} ${code}: ${message}`);
  }

  /** details as field problems when the server sent a list of them, else []. */
  get problems(): FieldProblem[] {
    return Array.isArray(this.details) ? (this.details as FieldProblem[]) : [];
  }
}

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === "string" && (ERROR_CODES as readonly string[]).includes(code);

/** Retry-After in seconds: a number of seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === "") return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The error an answer of 400 or more stands for (a body that is not JSON still gives a status and a code). */
export async function errorFrom(res: Response): Promise<ReportgenError> {
  const text = await res.text();
  let body: { error?: unknown; message?: unknown; details?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {}
  const code = typeof body.error === "string" ? (body.error as ErrorCode) : res.status === 401 ? "unauthorized" : "internal_error";
  const message = typeof body.message === "string" ? body.message : text.slice(0, 200) || res.statusText;
  return new ReportgenError(
    res.status,
    code,
    message,
    body.details,
    res.headers.get("x-request-id"),
    retryAfterSeconds(res.headers.get("retry-after")),
  );
}
