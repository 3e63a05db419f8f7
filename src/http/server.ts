// Assembles the HTTP application: error mapper, docs, health, downloads and the /api/v1 routes.
import { Elysia } from "elysia";
import type { Logger } from "../lib/logger";
import { keysRoutes } from "../modules/keys/index";
import type { KeysService } from "../modules/keys/service";
import { reportsRoutes } from "../modules/reports/index";
import type { ReportsService } from "../modules/reports/service";
import type { ReportsRepo } from "../modules/reports/repo";
import { filesRoutes } from "../modules/files/index";
import type { FileStore } from "../modules/files/store";
import type { LinkSigner } from "../modules/files/links";
import { healthRoutes, type HealthProbe } from "../modules/health/index";
import type { IdempotencyService } from "../modules/idempotency/service";
import { webhooksRoutes } from "../modules/webhooks/index";
import type { WebhookSecrets } from "../modules/webhooks/secrets";
import type { WebhooksService } from "../modules/webhooks/service";
import { API_PREFIX, apiGuard, type GuardOptions } from "./auth";
import { errorMapper } from "./errors";
import { docs } from "./openapi";
import { dashboardRoutes } from "../dashboard/routes";
import type { SessionsService } from "../dashboard/sessions";

export interface HttpDeps {
  logger: Logger;
  version: string;
  keys: KeysService;
  reports: ReportsService;
  reportsRepo: ReportsRepo;
  files: FileStore;
  links: LinkSigner;
  health: HealthProbe;
  guard: GuardOptions;
  templateMaxLength: number;
  publicUrl: string;
  idempotency: IdempotencyService;
  webhooks: WebhooksService;
  webhookSecrets: WebhookSecrets;
  dashboard: { sessions: SessionsService; sessionMaxAgeMs: number; signInFailLimit: number };
}

export function createHttpApp(d: HttpDeps) {
  const guard = apiGuard(d.keys, d.guard);
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
  return new Elysia({ normalize: false })
    .use(errorMapper(d.logger))
    .use(docs(d.version))
    .use(healthRoutes(d.health, d.version))
    .use(filesRoutes(d.reportsRepo, d.files, d.links))
    .use(dashboardRoutes({ ...d.dashboard, logger: d.logger, version: d.version, keys: d.keys, reports: d.reports, health: d.health, originOf, publicUrl: d.publicUrl, trustProxy: d.guard.trustProxy, templateMaxLength: d.templateMaxLength }))
    .group(API_PREFIX, (api) =>
      api
        .use(guard)
        .use(keysRoutes(d.keys, guard, d.idempotency))
        .use(reportsRoutes(d.reports, guard, { templateMaxLength: d.templateMaxLength, originOf, idempotency: d.idempotency, webhookLog: (id) => d.webhooks.log(id) }))
        .use(webhooksRoutes(d.webhookSecrets, guard)),
    );
}

export type HttpApp = ReturnType<typeof createHttpApp>;
