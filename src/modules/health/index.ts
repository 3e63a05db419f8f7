// GET /healthz: liveness and readiness for load balancers and systemd (no X-API-Key).
import { Elysia, t } from "elysia";

export interface HealthProbe {
  rendererReady: () => boolean;
  queued: () => number;
  rendering: () => number;
}

export const healthRoutes = (probe: HealthProbe, version: string) =>
  new Elysia({ name: "health-routes", detail: { tags: ["Service"] } }).get(
    "/healthz",
    ({ set }) => {
      const ready = probe.rendererReady();
      if (!ready) set.status = 503;
      return { status: ready ? "ok" : "degraded", version, renderer: ready ? "ready" : "starting", queued: probe.queued(), rendering: probe.rendering() };
    },
    {
      response: { 200: t.Any(), 503: t.Any() },
      detail: { summary: "Health", description: "200 when the renderer is ready, 503 while Chromium is (re)starting.", security: [] },
    },
  );
