// Guards /api/v1, in this order, each before the body is read: the X-API-Key check (before routing, so
// unknown routes and bad bodies still answer 401 first), the optional per-key request limits, the
// route's scope, the key's daily quota on submissions, then the Content-Type and body-size checks.
// A key outside its scopes or over its quota learns nothing from the body it sent (not even that it was
// malformed). Guessing keys is made cheap to refuse inside `authenticate` (KeyAuthenticator), not by refusing addresses: a
// request with a valid key is never answered 429 for what others did.
import { Elysia } from "elysia";
import type { Authenticate, KeyActor, Principal } from "../access/principal";
import { missingScope } from "../access/scopes";
import { AppError, retryLater, unauthorized } from "../lib/errors";
import { RateLimiter } from "../lib/rate-limit";
import { type BodyLimits, discardBody, type Oversize, readBody, readOversizeBody, tooLarge } from "./body";
import { peerOf } from "./connection-gate";
import { errorResponse } from "./errors";
import { isJson, jsonObject, mediaType, parseJsonBody } from "./json-body";
import { multipartBody } from "./multipart";
import type { RouteTable } from "./route-access";

export const API_PREFIX = "/api/v1";
/** Documentation is public: it holds no account data and a browser cannot send X-API-Key. */
const PUBLIC_API_PATHS = new Set([`${API_PREFIX}/openapi.json`, `${API_PREFIX}/docs`]);

export interface GuardOptions {
  /** Every route's access rule (app/modules.ts joins the features' own). */
  routes: RouteTable;
  body: BodyLimits;
  /** Submissions (POST, DELETE) per second per key, bursts of twice that; 0: unlimited. */
  submitRateLimit: number;
  /** Reads (GET, HEAD) per second per key, bursts of twice that; 0: unlimited. */
  readRateLimit: number;
  trustProxy: boolean;
}

/** Throws 429 quota_exceeded when the key has used up its daily quota (a cheap read; the insert counts atomically). */
export type QuotaCheck = (principal: Principal) => Promise<void>;

const principals = new WeakMap<Request, { principal: Principal; address: string }>();
/** Requests whose scope, quota and body headers were checked (once: by the parser, or by the transform for GETs). */
const checked = new WeakSet<Request>();

const limiter = (rate: number) => (rate > 0 ? new RateLimiter(rate, 1000, rate * 2) : undefined);

/**
 * The /api/v1 guard. `authenticate` turns an X-API-Key value into its principal (app/routes.ts passes
 * KeyAuthenticator's); `quota` is the daily quota's early check; `opts.routes` every route's access rule,
 * joined from the modules' descriptors by app/modules.ts. All come in as values: http/ imports no
 * feature module.
 */
export function apiGuard(authenticate: Authenticate, opts: GuardOptions, quota?: QuotaCheck) {
  // Separate budgets: polling one's reports must never use up the budget for submitting them.
  const submits = limiter(opts.submitRateLimit);
  const reads = limiter(opts.readRateLimit);
  const oversize = oversizePlaces(opts.body.chunkedLimit);

  /**
   * The checks that need the route: its scope (a route of /api/v1 without an access rule is
   * refused: fail closed), then the daily quota on submissions, then the body's declared size and type.
   * A request carrying an Idempotency-Key skips the quota's early read: its replay must be answered even
   * after the quota is used up, and a new submission is still counted, and refused, at its insert.
   */
  async function admit(request: Request, route: string): Promise<void> {
    const a = principals.get(request);
    if (!a || checked.has(request)) return;
    checked.add(request);
    const access = opts.routes.accessOf(request.method, route);
    if (access === undefined)
      throw new AppError(
        "forbidden",
        `${request.method} ${route} has no access rule in its module's descriptor, so it is refused (a server defect: report it)`,
      );
    if (access !== "public" && access !== "dashboard" && !a.principal.scopes.includes(access))
      throw missingScope(access, `${request.method} ${route}`);
    if (quota && opts.routes.countsAgainstQuota(request.method, route) && !request.headers.has("idempotency-key")) await quota(a.principal);
    const limit = opts.routes.takesChunked(request.method, route) ? opts.body.chunkedLimit : opts.body.limit;
    checkBody(request, limit, opts.routes.acceptsMultipart(request.method, route), opts.routes.rawTypes(request.method, route));
  }

  return (
    new Elysia({ name: "api-guard" })
      .onRequest(async ({ request, server }) => {
        const url = request.url;
        const path = url.slice(url.indexOf("/", url.indexOf("//") + 2)).split("?")[0]!;
        if (!(path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) || PUBLIC_API_PATHS.has(path)) return;
        try {
          const principal = await authenticate(request.headers.get("x-api-key"));
          if (!principal) throw unauthorized();
          const reading = request.method === "GET" || request.method === "HEAD";
          const wait = (reading ? reads : submits)?.take(principal.keyId) ?? 0;
          if (wait > 0) {
            const rate = reading ? opts.readRateLimit : opts.submitRateLimit;
            throw retryLater(
              "rate_limited",
              `this access key is over its limit of ${rate} ${reading ? "reads" : "submissions"} per second; wait Retry-After seconds, then retry`,
              wait,
            );
          }
          principals.set(request, { principal, address: clientAddress(request, peerOf(server, request), opts.trustProxy) });
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
          // Refused before its body was read: read it away first, or a client still sending never sees the answer.
          await discardBody(request, opts.body);
          return errorResponse(e);
        }
      })
      // Our own JSON parser: the body limit holds for chunked bodies too (no Content-Length), the body is
      // never buffered much past the limit, and media types are matched case-insensitively (Elysia's own
      // parser would skip "Application/JSON"). Elysia calls it for every request that may have a body,
      // once the route is known: the route's scope and the quota are checked first, so the body of a
      // refused request is never parsed. An empty body is no body, whatever Content-Type says: it is
      // handed on as {}, so a route that needs fields answers 422 naming them. JSON is held to RFC 8259
      // (UTF-8, no lone surrogates: json-body.ts).
      .onParse({ as: "global" }, async ({ request, route }) => {
        await admit(request, route);
        if (!hasBody(request)) return {};
        if (isMultipart(request) && opts.routes.acceptsMultipart(request.method, route))
          return multipartBody(request, await readBody(request, opts.body));
        // A route that takes a document as the body (an e-invoice's XML or PDF) gets its bytes as they came.
        if (opts.routes.rawTypes(request.method, route).includes(mediaType(request)))
          return { raw: await readBody(request, opts.body), type: mediaType(request) };
        if (!isJson(request)) return;
        if (opts.routes.takesChunked(request.method, route)) return chunkedBody(request, opts.body, oversize);
        const bytes = await readBody(request, opts.body);
        return bytes.byteLength === 0 ? {} : jsonObject(parseJsonBody(bytes));
      })
      // Requests Elysia parses no body for (GET, HEAD) are admitted here, once the route is known.
      .onTransform({ as: "global" }, ({ request, route }) => admit(request, route))
      .derive({ as: "global" }, ({ request }) => {
        const admitted = principals.get(request);
        return {
          /** The caller; every /api/v1 route runs only after apiGuard admitted the request. */
          principal: admitted?.principal as Principal,
          /** The caller as the audit trail records it (key and client address). */
          actor: (admitted
            ? { kind: "key", accountId: admitted.principal.accountId, keyId: admitted.principal.keyId, address: admitted.address }
            : undefined) as KeyActor,
        };
      })
  );
}

const isMultipart = (request: Request) => mediaType(request) === "multipart/form-data";

/** Bodies past the body limit held at once (each up to the chunked body limit): what bounds their memory. */
const OVERSIZE_PLACES = 2;

/** The places of OVERSIZE_PLACES bodies, shared by the routes that take chunked reports. */
function oversizePlaces(limit: number): Oversize {
  let held = 0;
  return {
    limit,
    take: () => {
      if (held >= OVERSIZE_PLACES) return undefined;
      held++;
      let given = false;
      return () => {
        if (!given) held--;
        given = true;
      };
    },
  };
}

/**
 * The JSON body of a route that takes chunked reports: up to the chunked body limit, but past the body
 * limit only when it asks for options.chunk (whose data limits hold per chunk: a 100,000-row ledger is
 * ~15 MB). Anything else that big, JSON or not, is refused with 413 as on any route.
 */
async function chunkedBody(request: Request, limits: BodyLimits, oversize: Oversize): Promise<Record<string, unknown>> {
  const { bytes, release } = await readOversizeBody(request, limits, oversize);
  try {
    if (bytes.byteLength === 0) return {};
    if (bytes.byteLength <= limits.limit) return jsonObject(parseJsonBody(bytes)) as Record<string, unknown>;
    let body: unknown;
    try {
      body = parseJsonBody(bytes);
    } catch {}
    const options = (body as { options?: unknown } | undefined)?.options;
    if (typeof options !== "object" || options === null || !("chunk" in options))
      throw tooLarge(
        limits.limit,
        bytes.byteLength,
        `, or print it as a chunked report (options.chunk), whose body may be up to ${oversize.limit} bytes`,
      );
    return body as Record<string, unknown>;
  } finally {
    release();
  }
}

/**
 * Whether the request may carry a body: a non-zero Content-Length, or without one a body stream (chunks).
 * A body of zero bytes is no body, on every method (many clients set Content-Type: application/json on
 * every request); a chunked body that turns out empty is treated the same once read.
 */
const hasBody = (request: Request) => {
  const declared = request.headers.get("content-length");
  return declared !== null ? Number(declared) > 0 : request.body !== null;
};

/** Before the body is read: refuse what is declared too large or is not JSON (the API's only bodies: POST and PATCH). */
function checkBody(request: Request, limit: number, multipart: boolean, raw: readonly string[]) {
  if ((request.method !== "POST" && request.method !== "PATCH") || !hasBody(request)) return;
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > limit) throw tooLarge(limit, length);
  const type = mediaType(request);
  if (!isJson(request) && !(multipart && isMultipart(request)) && !raw.includes(type)) {
    const others = [...(multipart ? ["multipart/form-data"] : []), ...raw];
    throw new AppError(
      "unsupported_media_type",
      `send the body as JSON with the header Content-Type: application/json${others.length ? ` (or as ${others.join(", ")})` : ""} (got ${type ? `"${type}"` : "none"})`,
    );
  }
}

/** The client's address: the peer, or with trustProxy the first X-Forwarded-For hop. */
export function clientAddress(request: Request, peer: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return peer ?? "unknown";
}
