// The one place where errors become HTTP responses. Every client mistake gets a 4xx with a stable
// `error` code and a message saying how to fix it; anything else is logged and answered 500
// without leaking the cause.
import { Elysia, type ValidationError } from "elysia";
import { isDatabaseUnreachable } from "../db/errors";
import { INTERNAL_MESSAGE } from "../lib/error-codes";
import { AppError, retryLater, storageRefusal } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { type StorageFault, storageFault } from "../lib/storage";
import { type BodyLimits, discardBody } from "./body";
import { requestFields } from "./request-context";

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
}

export function errorResponse(e: AppError, headers: Record<string, string> = {}): Response {
  // 401 is exactly what the interface specifies, nothing more.
  if (e.status === 401) return json(401, { error: "unauthorized" }, headers);
  const body: Record<string, unknown> = { error: e.code, message: e.message };
  if (e.details !== undefined) body.details = e.details;
  return json(e.status, body, { ...e.headers, ...headers });
}

/** 503 server_busy; `what` names the limit reached ("more than 1000 requests at once"). */
export const serverBusy = (what: string) => retryLater("server_busy", `the server is handling ${what}; retry after Retry-After seconds`, 1);

const REASONS: Record<number, string> = { 503: "Service Unavailable" };

/** A response as the bytes of a complete HTTP/1.1 message, for the connection gate, which answers below HTTP. */
export async function rawResponse(r: Response): Promise<Uint8Array> {
  const body = new Uint8Array(await r.arrayBuffer());
  const head = [`HTTP/1.1 ${r.status} ${REASONS[r.status] ?? ""}`.trimEnd()];
  for (const [name, value] of r.headers) head.push(`${name}: ${value}`);
  head.push(`content-length: ${body.byteLength}`, "", "");
  return Buffer.concat([Buffer.from(head.join("\r\n")), body]);
}

function validationDetails(e: ValidationError) {
  const all = (e.all ?? []) as { path?: string; message?: string; summary?: string; schema?: { error?: unknown } }[];
  const details = all.map((i) => ({
    field: (i.path ?? "").replace(/^\//, "").replace(/\//g, ".") || "(body)",
    // A schema's own `error` text says what is expected better than the generic summary.
    problem: typeof i.schema?.error === "string" ? i.schema.error : (i.summary ?? i.message ?? "invalid"),
    own: typeof i.schema?.error === "string",
  }));
  const seen = new Set<string>();
  return details.filter((d) => !seen.has(d.field + d.problem) && seen.add(d.field + d.problem)).slice(0, 20);
}

const places: Record<string, string> = { body: "request body", query: "query string", params: "path" };

function describeValidation(e: ValidationError): AppError {
  const details = validationDetails(e);
  const where = places[e.type] ?? "request";
  const fields = [...new Set(details.map((d) => d.field))].join(", ");
  // A schema's own text reads as a sentence after its field ("wait must be a number of seconds from 0 to 30").
  const said = details.filter((d) => d.own).map((d) => `${d.field} ${d.problem}`);
  return new AppError(
    "validation_failed",
    `the ${where} is invalid (${fields})${said.length ? `: ${said.slice(0, 3).join("; ")}` : ""}; see details, and the OpenAPI document at /api/v1/openapi.json`,
    details.map(({ field, problem }) => ({ field, problem })),
  );
}

/** `onStorageFault` hears of every full or read-only disk a request ran into (see lib/storage.ts). */
export const errorMapper = (logger: Logger, body: BodyLimits, onStorageFault?: (fault: StorageFault, cause: unknown) => void) =>
  new Elysia({ name: "error-mapper" }).onError({ as: "global" }, async ({ code, error, request }) => {
    // A route refused before reading the body (404, 422 on the path…): read it away so a client still
    // sending can read the answer.
    await discardBody(request, body);
    if (error instanceof AppError) return errorResponse(error);
    // Elysia wraps what a parse hook throws (our 413 for an oversized chunked body) in its ParseError.
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof AppError) return errorResponse(cause);
    switch (code) {
      case "VALIDATION":
        return errorResponse(describeValidation(error as ValidationError));
      case "PARSE":
        return errorResponse(
          new AppError("invalid_json", "the request body is not valid JSON; send a JSON object with Content-Type: application/json"),
        );
      case "NOT_FOUND":
        return errorResponse(
          new AppError("route_not_found", `no route ${request.method} ${new URL(request.url).pathname}; see /api/v1/docs`),
        );
    }
    // A full or read-only disk is not a bug: the client is told to retry, the service recovers by itself.
    const fault = storageFault(error) ?? storageFault(cause);
    if (fault) {
      onStorageFault?.(fault, error);
      logger.warn("request refused: storage fault", {
        ...requestFields(request),
        fault,
        method: request.method,
        path: new URL(request.url).pathname,
        error,
      });
      return errorResponse(storageRefusal(fault));
    }
    // PostgreSQL unreachable (restarting, network): a service fault the client retries, not a bug.
    if (isDatabaseUnreachable(error) || isDatabaseUnreachable(cause)) {
      logger.warn("request refused: database unreachable", { ...requestFields(request), method: request.method, error });
      return errorResponse(
        new AppError("database_unavailable", "the server cannot reach its database right now; nothing was saved. Retry later", undefined, {
          "Retry-After": "5",
        }),
      );
    }
    // The cause (which may name files or hold a stack) goes to the log only; the client gets the generic code.
    logger.error("unhandled error", { ...requestFields(request), error, method: request.method, path: new URL(request.url).pathname });
    return json(500, { error: "internal_error", message: INTERNAL_MESSAGE });
  });
