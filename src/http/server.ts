// Assembles the HTTP application: error mapper, docs, health, downloads and the /api/v1 routes.
import { Elysia } from "elysia";
import { dashboardRoutes } from "../dashboard/routes";
import type { SessionsService } from "../dashboard/sessions";
import { AppError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { StorageFault } from "../lib/storage";
import { auditRoutes } from "../modules/audit/index";
import type { AuditService } from "../modules/audit/service";
import { filesRoutes } from "../modules/files/index";
import type { LinkSigner } from "../modules/files/links";
import type { PdfStore } from "../modules/files/pdf-store";
import { guideRoutes } from "../modules/guide/index";
import { type HealthProbe, healthRoutes, type ReadinessChecks } from "../modules/health/index";
import type { IdempotencyService } from "../modules/idempotency/service";
import { keysRoutes } from "../modules/keys/index";
import type { KeysService } from "../modules/keys/service";
import { reportsRoutes } from "../modules/reports/index";
import type { ReportsRepo } from "../modules/reports/repo";
import type { ReportsService } from "../modules/reports/service";
import { templatesRoutes } from "../modules/templates/routes";
import type { TemplatesService } from "../modules/templates/service";
import { usageRoutes } from "../modules/usage/index";
import type { UsageService } from "../modules/usage/service";
import { webhooksRoutes } from "../modules/webhooks/index";
import type { WebhookSecrets } from "../modules/webhooks/secrets";
import type { WebhooksService } from "../modules/webhooks/service";
import { API_PREFIX, apiGuard, type GuardOptions } from "./auth";
import { markArrival } from "./body";
import { errorMapper, errorResponse, serverBusy } from "./errors";
import { docs } from "./openapi";
import { requestContext } from "./request-context";

export interface HttpDeps {
  logger: Logger;
  version: string;
  keys: KeysService;
  reports: ReportsService;
  reportsRepo: ReportsRepo;
  files: PdfStore;
  links: LinkSigner;
  health: HealthProbe;
  guard: GuardOptions;
  /** Most requests in progress at once (503 server_busy beyond); 0: unlimited. */
  maxRequests: number;
  templateMaxLength: number;
  publicUrl: string;
  idempotency: IdempotencyService;
  webhooks: WebhooksService;
  webhookSecrets: WebhookSecrets;
  templates: TemplatesService;
  usage: UsageService;
  audit: AuditService;
  /** Days audit events are kept (shown in the OpenAPI document). */
  auditRetentionDays: number;
  dashboard: { sessions: SessionsService; sessionMaxAgeMs: number; signInFailLimit: number };
  /** /readyz's database and disk checks, and the metrics /metrics serves. */
  readiness: ReadinessChecks;
  onStorageFault?: (fault: StorageFault, cause: unknown) => void;
  /** A worker instance (--role worker) answers only its probes: /livez, /readyz and /metrics. */
  probesOnly?: boolean;
}

export function createHttpApp(d: HttpDeps) {
  if (!d.probesOnly) return createFullHttpApp(d);
  const probes = new Elysia()
    .use(admission(d.maxRequests))
    .use(probesOnly())
    .use(errorMapper(d.logger, d.guard.body, d.onStorageFault))
    .use(healthRoutes(d.health, d.version, d.readiness));
  // The same Elysia app with fewer routes: App only listens, handles and stops it.
  return requestContext(probes, d.readiness.metrics, d.logger) as unknown as ReturnType<typeof createFullHttpApp>;
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
  const guard = apiGuard(d.keys, d.guard, (p) => d.reports.checkQuota(p));
  const originOf = (request: Request) => {
    if (d.publicUrl) return d.publicUrl;
    const url = new URL(request.url);
    if (d.guard.trustProxy) {
      const host = request.headers.get("x-forwarded-host");
      const proto = request.headers.get("x-forwarded-proto");
      if (host) return `${proto === "https" ? "https" : "http"}://${host}`;
    }
    return url.origin;
  };
  // normalize: false makes unknown fields a 422 instead of silently dropping them.
  const app = new Elysia({ normalize: false })
    .use(admission(d.maxRequests))
    .use(errorMapper(d.logger, d.guard.body, d.onStorageFault))
    .use(docs(d.version))
    .use(guideRoutes())
    .use(healthRoutes(d.health, d.version, d.readiness))
    .use(filesRoutes(d.reportsRepo, d.files, d.links))
    .use(
      dashboardRoutes({
        ...d.dashboard,
        logger: d.logger,
        version: d.version,
        keys: d.keys,
        reports: d.reports,
        templates: d.templates,
        usage: d.usage,
        audit: d.audit,
        auditRetentionDays: d.auditRetentionDays,
        health: d.health,
        originOf,
        publicUrl: d.publicUrl,
        trustProxy: d.guard.trustProxy,
        templateMaxLength: d.templateMaxLength,
      }),
    )
    .group(API_PREFIX, (api) =>
      api
        .use(guard)
        .use(keysRoutes(d.keys, guard, d.idempotency))
        .use(
          reportsRoutes(d.reports, guard, {
            templateMaxLength: d.templateMaxLength,
            originOf,
            idempotency: d.idempotency,
            webhookLog: (id) => d.webhooks.log(id),
          }),
        )
        .use(templatesRoutes(d.templates, guard, { templateMaxLength: d.templateMaxLength, idempotency: d.idempotency }))
        .use(webhooksRoutes(d.webhookSecrets, guard))
        .use(usageRoutes(d.usage, guard))
        .use(auditRoutes(d.audit, guard, d.auditRetentionDays)),
    );
  // X-Request-Id and HTTP metrics around everything, early answers (401, 404) included.
  return requestContext(app, d.readiness.metrics, d.logger);
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
