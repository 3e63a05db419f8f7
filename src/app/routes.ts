// The HTTP application with every feature's routes: the one place that knows them all (http/server.ts
// is only the frame). Built by the App's constructor; nothing listens yet.
import type { Config } from "../config/settings";
import { dashboardRoutes } from "../dashboard/routes";
import { apiGuard } from "../http/auth";
import type { BodyLimits } from "../http/body";
import type { HttpDrain } from "../http/drain";
import { createHttpApp, type HttpApp, type HttpRoutes, originResolver } from "../http/server";
import type { Logger } from "../lib/logger";
import { assetsRoutes } from "../modules/assets/routes";
import { auditRoutes } from "../modules/audit/index";
import { filesRoutes } from "../modules/files/index";
import { guideRoutes } from "../modules/guide/index";
import { type HealthProbe, healthRoutes } from "../modules/health/index";
import type { ServiceMetrics } from "../modules/health/metrics";
import { keysRoutes } from "../modules/keys/index";
import { reportsRoutes } from "../modules/reports/index";
import { signingRoutes } from "../modules/signing/index";
import { templatesRoutes } from "../modules/templates/routes";
import { usageRoutes } from "../modules/usage/index";
import { webhooksDescription, webhooksDocumentation } from "../modules/webhooks/docs";
import { webhooksRoutes } from "../modules/webhooks/index";
import { VERSION } from "../version";
import type { Services } from "./services";

/** What the routes need of the App besides the configuration and the services. */
export interface HttpWiring {
  logger: Logger;
  metrics: ServiceMetrics;
  /** Readiness and queue figures for /readyz, /metrics and the dashboard. */
  probe: HealthProbe;
  /** A worker instance (--role worker) answers only /livez, /readyz and /metrics. */
  probesOnly: boolean;
  /** Connection: close on every answer once the stop settles (http/drain.ts). */
  drain?: HttpDrain;
}

export function httpApp(c: Config, s: Services, w: HttpWiring): HttpApp {
  const body = bodyLimits(c);
  const probes = healthRoutes(w.probe, VERSION, {
    probeDatabaseWrite: () => s.repos.health.probeWrite(Date.now()),
    storage: s.storage,
    files: s.files,
    metrics: w.metrics,
    metricsToken: c.metricsToken,
  });
  return createHttpApp({
    logger: w.logger,
    version: VERSION,
    body,
    maxRequests: c.maxRequests,
    metrics: w.metrics,
    routes: w.probesOnly ? { probes, site: [], api: [] } : { probes, ...featureRoutes(c, s, w, body) },
    docs: { description: webhooksDescription, webhooks: webhooksDocumentation },
    onStorageFault: (fault, cause) => s.storage.report(fault, cause),
    probesOnly: w.probesOnly,
    drain: w.drain,
  });
}

/** The user guide, downloads and the dashboard, then the /api/v1 routes behind the API key guard, in this order. */
function featureRoutes(c: Config, s: Services, w: HttpWiring, body: BodyLimits): Omit<HttpRoutes, "probes"> {
  const guard = apiGuard(
    (value) => s.keyAuth.authenticate(value),
    { body, submitRateLimit: c.submitRateLimit, readRateLimit: c.readRateLimit, trustProxy: c.trustProxy },
    (p) => s.reports.checkQuota(p),
  );
  const originOf = originResolver(c.publicUrl, c.trustProxy);
  const auditRetentionDays = Math.round(c.auditRetention / 86_400_000);
  const { templateMaxLength } = c;
  return {
    site: [
      guideRoutes(),
      filesRoutes(s.repos.reports, s.files, s.links),
      dashboardRoutes({
        sessions: s.sessions,
        sessionMaxAgeMs: c.sessionMaxAge,
        signInFailLimit: c.signInFailLimit,
        logger: w.logger,
        version: VERSION,
        keys: s.keys,
        keyAuth: s.keyAuth,
        reports: s.reports,
        thumbnails: s.thumbnails,
        templates: s.templates,
        signing: s.signing,
        usage: s.usage,
        audit: s.audit,
        auditRetentionDays,
        health: w.probe,
        originOf,
        publicUrl: c.publicUrl,
        trustProxy: c.trustProxy,
        templateMaxLength,
        assets: s.assets,
        assetMaxSize: c.assetMaxSize,
      }),
    ],
    api: [
      guard,
      keysRoutes(s.keys, guard, s.idempotency),
      reportsRoutes(s.reports, guard, {
        templateMaxLength,
        originOf,
        idempotency: s.idempotency,
        webhookLog: (id) => s.webhooks.log(id),
        thumbnails: s.thumbnails,
      }),
      templatesRoutes(s.templates, guard, { templateMaxLength, idempotency: s.idempotency }),
      assetsRoutes(s.assets, guard),
      webhooksRoutes(s.webhookSecrets, guard),
      usageRoutes(s.usage, guard),
      auditRoutes(s.audit, guard, auditRetentionDays),
      signingRoutes(s.signing, guard),
    ],
  };
}

/** An over-limit body is read and discarded up to 4x the limit (at least 1 MB more), then cut off. */
export function bodyLimits(c: Config): BodyLimits {
  return { limit: c.bodyLimit, discardLimit: Math.max(c.bodyLimit * 4, c.bodyLimit + 1024 ** 2), timeoutMs: c.bodyTimeout };
}
