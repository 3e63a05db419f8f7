// Guards /api/v1: the X-API-Key check (before routing, so unknown routes and bad bodies still
// answer 401 first), failed-auth throttling per client address, the per-key rate limit, and the
// Content-Type and body-size checks that must happen before a body is parsed.
import { Elysia } from "elysia";
import { AppError, tooManyRequests, unauthorized } from "../lib/errors";
import { RateLimiter } from "../lib/rate-limit";
import type { KeysService, Principal } from "../modules/keys/service";
import { errorResponse } from "./errors";

export const API_PREFIX = "/api/v1";
/** Documentation is public: it holds no account data and a browser cannot send X-API-Key. */
const PUBLIC_API_PATHS = new Set([`${API_PREFIX}/openapi.json`, `${API_PREFIX}/docs`]);

export interface GuardOptions {
  bodyLimit: number;
  rateLimit: number;
  authFailLimit: number;
  trustProxy: boolean;
}

const principals = new WeakMap<Request, Principal>();

export function apiGuard(keys: KeysService, opts: GuardOptions) {
  const perKey = opts.rateLimit > 0 ? new RateLimiter(opts.rateLimit, 1000, opts.rateLimit * 2) : undefined;
  const authFailures = opts.authFailLimit > 0 ? new RateLimiter(opts.authFailLimit, 60_000, opts.authFailLimit) : undefined;

  return new Elysia({ name: "api-guard" })
    .onRequest(async ({ request, server }) => {
      const url = request.url;
      const path = url.slice(url.indexOf("/", url.indexOf("//") + 2)).split("?")[0]!;
      if (!(path === API_PREFIX || path.startsWith(API_PREFIX + "/")) || PUBLIC_API_PATHS.has(path)) return;
      try {
        const presented = request.headers.get("x-api-key");
        // The common case, a key already verified, costs a hash and one lookup. Only the others
        // consult the failed-auth budget of the client's address: a client over it may still use a
        // key it already proved, but cannot make the server pay for more argon2 guesses.
        let principal = await keys.authenticate(presented, { cachedOnly: true });
        if (!principal) {
          const client = clientAddress(request, server?.requestIP(request)?.address, opts.trustProxy);
          const wait = authFailures?.wait(client) ?? 0;
          if (wait > 0) throw tooManyRequests("too_many_failed_authentications", "too many requests with invalid access keys from this address; wait, then retry with a valid X-API-Key", wait);
          principal = await keys.authenticate(presented);
          if (!principal) {
            authFailures?.take(client);
            throw unauthorized();
          }
        }
        const wait = perKey?.take(principal.keyId) ?? 0;
        if (wait > 0) throw tooManyRequests("rate_limited", `this access key is over its limit of ${opts.rateLimit} requests per second; slow down`, wait);
        checkBody(request, opts.bodyLimit);
        principals.set(request, principal);
      } catch (e) {
        if (e instanceof AppError) return errorResponse(e);
        throw e;
      }
    })
    // Our own JSON parser: the body limit holds for chunked bodies too (no Content-Length), and media
    // types are matched case-insensitively (Elysia's own parser would skip "Application/JSON").
    .onParse({ as: "global" }, async ({ request }) => {
      if (!isJson(request)) return;
      const bytes = await request.arrayBuffer();
      if (bytes.byteLength > opts.bodyLimit) throw tooLarge(bytes.byteLength, opts.bodyLimit);
      try {
        return JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        throw new AppError(400, "invalid_json", "the request body is not valid JSON; send a JSON object with Content-Type: application/json");
      }
    })
    .derive({ as: "global" }, ({ request }) => ({
      /** The caller; every /api/v1 route runs only after apiGuard admitted the request. */
      principal: principals.get(request) as Principal,
    }));
}

const tooLarge = (size: number, limit: number) =>
  new AppError(413, "payload_too_large", `the request body is ${size} bytes; the limit is ${limit}. Send a smaller template or less data.`);

const mediaType = (request: Request) => (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
const isJson = (request: Request) => mediaType(request) === "application/json";

/** Before the body is read: refuse what is declared too large or is not JSON (the API's only POST bodies). */
function checkBody(request: Request, limit: number) {
  if (request.method !== "POST") return;
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > limit) throw tooLarge(length, limit);
  if (!isJson(request)) {
    const type = mediaType(request);
    throw new AppError(415, "unsupported_media_type", `send the body as JSON with the header Content-Type: application/json (got ${type ? `"${type}"` : "none"})`);
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
