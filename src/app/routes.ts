// The HTTP application: every module's routes (app/modules.ts lists them) and the dashboard in the
// frame of http/server.ts. Built by the App's constructor; nothing listens yet.
import type { Config } from "../config/settings";
import { apiGuard } from "../http/auth";
import type { BodyLimits } from "../http/body";
import type { HttpDrain } from "../http/drain";
import { createHttpApp, type HttpApp, originResolver } from "../http/server";
import type { Logger } from "../lib/logger";
import type { HealthProbe } from "../modules/health/index";
import type { ServiceMetrics } from "../modules/health/metrics";
import { VERSION } from "../version";
import type { ModuleContext } from "./module";
import { AUDIT_EVENTS, FEATURE_DOCS, MODULES, ROUTES } from "./modules";
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
  const guard = apiGuard(
    (value) => s.keyAuth.authenticate(value),
    { routes: ROUTES, body, submitRateLimit: c.submitRateLimit, readRateLimit: c.readRateLimit, trustProxy: c.trustProxy },
    (p) => s.reports.checkQuota(p),
  );
  const x: ModuleContext = {
    config: c,
    services: s,
    guard,
    originOf: originResolver(c.publicUrl, c.trustProxy),
    logger: w.logger,
    metrics: w.metrics,
    probe: w.probe,
    version: VERSION,
    auditEvents: AUDIT_EVENTS,
    dashboard: MODULES.flatMap((m) => m.dashboard ?? []),
  };
  const mount = (part: "probes" | "site" | "api") => MODULES.flatMap((m) => m[part]?.(x) ?? []);
  const [probes, ...moreProbes] = mount("probes");
  if (!probes || moreProbes.length) throw new Error("exactly one module serves the probes");
  return createHttpApp({
    logger: w.logger,
    version: VERSION,
    body,
    maxRequests: c.maxRequests,
    metrics: w.metrics,
    routes: w.probesOnly
      ? { probes, site: [], api: [] }
      : // The user guide, downloads and the dashboard; the /api/v1 routes behind the API key guard, in this order.
        { probes, site: mount("site"), api: [guard, ...mount("api")] },
    docs: FEATURE_DOCS,
    onStorageFault: (fault, cause) => s.storage.report(fault, cause),
    probesOnly: w.probesOnly,
    drain: w.drain,
  });
}

/** An over-limit body is read and discarded up to 4x the limit (at least 1 MB more than a chunked report's), then cut off. */
export function bodyLimits(c: Config): BodyLimits {
  const chunkedLimit = Math.max(c.bodyLimit, c.chunkedBodyLimit);
  return {
    limit: c.bodyLimit,
    chunkedLimit,
    discardLimit: Math.max(c.bodyLimit * 4, chunkedLimit + 1024 ** 2),
    timeoutMs: c.bodyTimeout,
  };
}
