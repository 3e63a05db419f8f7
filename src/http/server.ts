// The HTTP application's frame: admission, the error mapper, the docs, the route plugins it is given
// (app/routes.ts builds them: this file knows no feature), and the request context around everything.
import { type AnyElysia, Elysia } from "elysia";
import { AppError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { StorageFault } from "../lib/storage";
import { API_PREFIX } from "./auth";
import { type BodyLimits, markArrival } from "./body";
import type { HttpDrain } from "./drain";
import { errorMapper, errorResponse, serverBusy } from "./errors";
import { isJson, parseJsonBody } from "./json-body";
import { docs, type FeatureDocs } from "./openapi";
import { type HttpMetrics, requestContext } from "./request-context";

/** The route plugins, in the order they are mounted. */
export interface HttpRoutes {
  /** /livez, /readyz and /metrics: every instance serves them, a worker (--role worker) nothing else. */
  probes: AnyElysia;
  /** Outside /api/v1: downloads, the dashboard. */
  site: AnyElysia[];
  /** Under /api/v1, the API key guard first. */
  api: AnyElysia[];
}

export interface HttpDeps {
  logger: Logger;
  version: string;
  body: BodyLimits;
  /** Most requests in progress at once (503 server_busy beyond); 0: unlimited. */
  maxRequests: number;
  /** Where the HTTP metrics per route go (the service's metrics, served by /metrics). */
  metrics: HttpMetrics;
  routes: HttpRoutes;
  /** What the features add to the OpenAPI document (webhooks). */
  docs: FeatureDocs;
  onStorageFault?: (fault: StorageFault, cause: unknown) => void;
  /** A worker instance (--role worker) answers only its probes: /livez, /readyz and /metrics. */
  probesOnly?: boolean;
  /** The graceful stop's part (drain.ts): `Connection: close` on every answer once the stop settles. */
  drain?: HttpDrain;
}

export function createHttpApp(d: HttpDeps) {
  if (!d.probesOnly) return createFullHttpApp(d);
  const probes = new Elysia()
    .use(admission(d.maxRequests))
    .use(probesOnly())
    .use(errorMapper(d.logger, d.body, d.onStorageFault))
    .use(d.routes.probes);
  // The same Elysia app with fewer routes: App only listens, handles and stops it.
  return requestContext(d.drain?.wrap(probes) ?? probes, d.metrics, d.logger) as unknown as ReturnType<typeof createFullHttpApp>;
}

/** What a worker instance answers; anything else is a 404 that says where the API is. */
export const WORKER_PATHS = ["/livez", "/readyz", "/metrics"];

function probesOnly() {
  const allowed = new Set(WORKER_PATHS);
  return new Elysia({ name: "probes-only" }).onRequest(({ request }) => {
    const path = new URL(request.url).pathname;
    if (allowed.has(path)) return;
    return errorResponse(
      new AppError(
        "route_not_found",
        `no route ${request.method} ${path}: this is a worker instance (--role worker), which serves only ${WORKER_PATHS.join(", ")}; send API and dashboard requests to an instance with --role api or all`,
      ),
    );
  });
}

function createFullHttpApp(d: HttpDeps) {
  // normalize: false makes unknown fields a 422 instead of silently dropping them.
  let app = new Elysia({ normalize: false })
    .use(admission(d.maxRequests))
    .use(errorMapper(d.logger, d.body, d.onStorageFault))
    .use(docs(d.version, d.docs))
    .use(d.routes.probes) as AnyElysia;
  // Outside /api/v1 (the dashboard), a JSON body is held to RFC 8259 like the API's (json-body.ts), where
  // Elysia's own parser would decode it leniently; forms go on to Elysia's parsers. Local to the site
  // routes: the API guard parses its bodies itself, once the route's scope is checked.
  let site = new Elysia().onParse(async ({ request }) =>
    isJson(request) ? parseJsonBody(new Uint8Array(await request.arrayBuffer())) : undefined,
  ) as AnyElysia;
  for (const routes of d.routes.site) site = site.use(routes);
  app = app.use(site);
  app = app.group(API_PREFIX, (api) => d.routes.api.reduce<AnyElysia>((group, routes) => group.use(routes), api));
  // X-Request-Id and HTTP metrics around everything, early answers (401, 404) included; so is the drain's
  // Connection: close.
  return requestContext(d.drain?.wrap(app) ?? app, d.metrics, d.logger);
}

/**
 * The origin of a request's download links and dashboard pages: --public-url, else the request's own,
 * or with --trust-proxy the one a proxy forwarded.
 */
export function originResolver(publicUrl: string, trustProxy: boolean): (request: Request) => string {
  return (request) => {
    if (publicUrl) return publicUrl;
    const url = new URL(request.url);
    if (trustProxy) {
      const host = request.headers.get("x-forwarded-host");
      const proto = request.headers.get("x-forwarded-proto");
      if (host) return `${proto === "https" ? "https" : "http"}://${host}`;
    }
    return url.origin;
  };
}

export type HttpApp = ReturnType<typeof createHttpApp>;

/**
 * Runs first for every request: notes its arrival (the body deadline counts from here) and refuses
 * work beyond `maxRequests` in progress, cheaply and without reading the body, so slow or stalled
 * clients cannot pile up without bound. Connections themselves are capped by the connection gate
 * (connection-gate.ts); those that never finish a request head are closed by Bun after ~10 s.
 */
function admission(maxRequests: number) {
  return new Elysia({ name: "admission" }).onRequest(({ request, server }) => {
    markArrival(request);
    if (maxRequests > 0 && (server?.pendingRequests ?? 0) > maxRequests) {
      return errorResponse(serverBusy(`more than ${maxRequests} requests at once`), { connection: "close" });
    }
  });
}
