// Probes for load balancers, systemd and Prometheus (no X-API-Key):
// /livez (the process answers), /readyz (renderer, database and disk can take work), /healthz (the
// renderer is ready; kept for existing checks), /metrics (Prometheus text; optionally behind a token).
import { timingSafeEqual } from "node:crypto";
import { Elysia, t } from "elysia";
import { METRICS_CONTENT_TYPE } from "../../lib/metrics";
import type { StorageMonitor } from "../../lib/storage";
import type { ServiceMetrics } from "./metrics";

export interface HealthProbe {
  rendererReady: () => boolean;
  /** Reports waiting (as of the last refresh()). */
  queued: () => number;
  rendering: () => number;
  /** True once the instance is shutting down: /readyz answers 503 at once, while requests are still served. */
  draining?: () => boolean;
  /** Re-reads the counts behind queued() (and the metrics' gauges) from the database; cheap to call often. */
  refresh?: () => Promise<void>;
}

export interface ReadinessChecks {
  /** Commits a small write; rejects when the database cannot take one. */
  probeDatabaseWrite: () => Promise<void>;
  storage: StorageMonitor;
  /** The PDF store, shown (not required) by /readyz: during a bucket outage reports are still accepted. */
  files?: { kind: string; writable: boolean };
  metrics: ServiceMetrics;
  /** When set, /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string;
}

/** A write probe per readiness check would add a WAL fsync per probe: reuse a recent answer. */
const DB_PROBE_EVERY_MS = 2_000;
/** A database that does not answer within this long (PostgreSQL unreachable) is not ready: /readyz must not hang. */
const DB_PROBE_TIMEOUT_MS = 2_000;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export const healthRoutes = (probe: HealthProbe, version: string, checks?: ReadinessChecks) => {
  let dbCheckedAt = 0;
  let dbError: string | undefined;
  const databaseWritable = async () => {
    const now = Date.now();
    if (checks && now - dbCheckedAt >= DB_PROBE_EVERY_MS) {
      dbCheckedAt = now;
      try {
        await withTimeout(checks.probeDatabaseWrite(), DB_PROBE_TIMEOUT_MS, "the database");
        await probe.refresh?.();
        dbError = undefined;
      } catch (e) {
        dbError = String((e as { code?: string }).code ?? (e as Error).message);
      }
    }
    return dbError === undefined;
  };
  const tokenOk = (header: string | null) => {
    const want = Buffer.from(`Bearer ${checks?.metricsToken ?? ""}`);
    const got = Buffer.from(header ?? "");
    return got.length === want.length && timingSafeEqual(got, want);
  };
  return new Elysia({ name: "health-routes", detail: { tags: ["Service"] } })
    .get(
      "/healthz",
      async ({ set }) => {
        await probe.refresh?.().catch(() => {});
        const ready = probe.rendererReady();
        if (!ready) set.status = 503;
        return {
          status: ready ? "ok" : "degraded",
          version,
          renderer: ready ? "ready" : "starting",
          queued: probe.queued(),
          rendering: probe.rendering(),
        };
      },
      {
        response: { 200: t.Any(), 503: t.Any() },
        detail: {
          operationId: "getHealth",
          summary: "Health",
          description: "200 when the renderer is ready, 503 while Chromium is (re)starting.",
          security: [],
        },
      },
    )
    .get("/livez", () => ({ status: "ok", version }), {
      response: { 200: t.Any() },
      detail: {
        operationId: "getLiveness",
        summary: "Liveness",
        description: "200 whenever the process answers HTTP. Restart the service only when this fails.",
        security: [],
      },
    })
    .get(
      "/readyz",
      async ({ set }) => {
        if (probe.draining?.()) {
          set.status = 503;
          set.headers["retry-after"] = "5";
          return { status: "draining", version, queued: probe.queued(), rendering: probe.rendering() };
        }
        const renderer = probe.rendererReady();
        const database = checks ? await databaseWritable() : true;
        const disk = checks?.storage.status();
        const diskOk = !disk || disk.state === "ok";
        const ready = renderer && database && diskOk;
        if (!ready) {
          set.status = 503;
          set.headers["retry-after"] = "5";
        }
        return {
          status: ready ? "ready" : "not_ready",
          version,
          checks: {
            renderer: renderer ? "ready" : "not_ready",
            database: database ? "writable" : `not_writable (${dbError})`,
            disk: disk ? { state: disk.state, free_bytes: disk.freeBytes, min_free_bytes: checks!.storage.minFreeBytes } : "unchecked",
            ...(checks?.files ? { files: `${checks.files.kind}: ${checks.files.writable ? "ok" : "unavailable (reports wait)"}` } : {}),
          },
          queued: probe.queued(),
          rendering: probe.rendering(),
        };
      },
      {
        response: { 200: t.Any(), 503: t.Any() },
        detail: {
          operationId: "getReadiness",
          summary: "Readiness",
          description:
            "200 when reports can be taken and rendered: a renderer is ready, the database commits a write, and the data dir has room above --min-free-space. 503 (with the failing check) otherwise, and `draining` from SIGTERM on (the instance still serves for --drain-period: take it out of the load balancer).",
          security: [],
        },
      },
    )
    .get(
      "/metrics",
      async ({ request, set }) => {
        if (!checks) return new Response("metrics are not collected here\n", { status: 404 });
        if (checks.metricsToken && !tokenOk(request.headers.get("authorization"))) {
          return new Response("unauthorized: send Authorization: Bearer <--metrics-token>\n", {
            status: 401,
            headers: { "www-authenticate": "Bearer" },
          });
        }
        set.headers["content-type"] = METRICS_CONTENT_TYPE;
        set.headers["cache-control"] = "no-store";
        // The gauges read the last counts: refresh them first (a database that does not answer leaves the previous ones).
        await withTimeout(probe.refresh?.() ?? Promise.resolve(), DB_PROBE_TIMEOUT_MS, "the database").catch(() => {});
        return checks.metrics.render();
      },
      {
        detail: {
          operationId: "getMetrics",
          summary: "Prometheus metrics",
          description: "Text exposition format. Open unless --metrics-token is set (then `Authorization: Bearer <token>`).",
          security: [],
          responses: {
            200: { description: "Prometheus text exposition (version 0.0.4)", content: { "text/plain": { schema: { type: "string" } } } },
            401: {
              description: "--metrics-token is set and the request's bearer token does not match",
              content: { "text/plain": { schema: { type: "string" } } },
            },
          },
        },
      },
    );
};
