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
        const client = clientAddress(request, server?.requestIP(request)?.address, opts.trustProxy);
        // A client over its failure budget may still use a key it already proved; it just cannot
        // make the server pay for more argon2 guesses.
        const throttled = (authFailures?.wait(client) ?? 0) > 0;
        const principal = await keys.authenticate(request.headers.get("x-api-key"), { cachedOnly: throttled });
        if (!principal) {
          if (throttled) throw tooManyRequests("too_many_failed_authentications", "too many requests with invalid access keys from this address; wait, then retry with a valid X-API-Key", authFailures!.wait(client));
          authFailures?.take(client);
          throw unauthorized();
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
    .derive({ as: "global" }, ({ request }) => ({
      /** The caller; every /api/v1 route runs only after apiGuard admitted the request. */
      principal: principals.get(request) as Principal,
    }));
}

function checkBody(request: Request, limit: number) {
  if (request.method !== "POST" && request.method !== "PUT" && request.method !== "PATCH") return;
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > limit) throw new AppError(413, "payload_too_large", `the request body is ${length} bytes; the limit is ${limit}. Send a smaller template or less data.`);
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") {
    throw new AppError(415, "unsupported_media_type", `send the body as JSON with the header Content-Type: application/json (got ${type ? `"${type}"` : "none"})`);
  }
}

function clientAddress(request: Request, peer: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return peer ?? "unknown";
}
