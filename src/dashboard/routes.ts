// The dashboard: server-rendered pages on the same services as the API, a session cookie instead of
// X-API-Key, and three layers against cross-site requests on every POST (see guards.ts).
import { Elysia } from "elysia";
import { dayRange } from "../modules/usage/service";
import { ASSETS_PREFIX, assetResponse } from "./assets";
import { DASHBOARD, type DashboardDeps, guards } from "./guards";
import { errorPage } from "./pages/common";
import { overviewPage } from "./pages/overview";
import { assetsRoutes } from "./routes/assets";
import { auditRoutes } from "./routes/audit";
import { keysRoutes } from "./routes/keys";
import { playgroundRoutes } from "./routes/playground";
import { reportsRoutes } from "./routes/reports";
import { signInRoutes } from "./routes/sign-in";
import { signingRoutes } from "./routes/signing";
import { templatesRoutes } from "./routes/templates";
import { htmlResponse, redirect } from "./security";

export { DASHBOARD, type DashboardDeps };

export function dashboardRoutes(d: DashboardDeps) {
  const g = guards(d);
  return (
    new Elysia({ name: "dashboard-routes", detail: { hide: true } })
      .get("/", () => redirect(DASHBOARD))
      .get(
        `${ASSETS_PREFIX}/:file`,
        ({ request }) =>
          assetResponse(new URL(request.url).pathname) ??
          htmlResponse(errorPage({ title: "Not found", message: "There is no such file." }), 404),
      )
      .use(signInRoutes(d, g))
      .get(
        DASHBOARD,
        g.page(async ({ request }, s) => {
          const o = await d.reports.overview(s.accountId);
          const { days } = await d.usage.byDay(s.accountId, dayRange({}));
          await d.health.refresh?.().catch(() => {});
          const service = {
            version: d.version,
            healthy: d.health.rendererReady(),
            queued: d.health.queued(),
            rendering: d.health.rendering(),
            origin: d.originOf(request),
          };
          return htmlResponse(overviewPage(await g.viewerOf(s), { ...o, ...service, usage: days }));
        }),
      )
      .use(keysRoutes(d, g))
      .use(reportsRoutes(d, g))
      .use(templatesRoutes(d, g))
      .use(assetsRoutes(d, g))
      .use(playgroundRoutes(d, g))
      .use(signingRoutes(d, g))
      .use(auditRoutes(d, g))
      // Anything else under /dashboard: a page, not the API's JSON 404.
      .get(`${DASHBOARD}/*`, async ({ request }) => {
        const s = await g.sessionOf(request);
        return htmlResponse(
          errorPage({ title: "Page not found", message: "There is no page at this address.", viewer: s ? await g.viewerOf(s) : undefined }),
          404,
        );
      })
  );
}
