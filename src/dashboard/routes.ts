// The dashboard: server-rendered pages on the same services as the API, a session cookie instead of
// X-API-Key, and three layers against cross-site requests on every POST (see guards.ts).
import { type AnyElysia, Elysia } from "elysia";
import { dayRange } from "../modules/usage/service";
import { ASSETS_PREFIX, assetResponse } from "./assets";
import { DASHBOARD, type DashboardDeps, type DashboardSection, guards } from "./guards";
import type { NavItem } from "./layout";
import { errorPage } from "./pages/common";
import { overviewPage } from "./pages/overview";
import { signInRoutes } from "./routes/sign-in";
import { htmlResponse, redirect } from "./security";

export { DASHBOARD, type DashboardDeps };

/** The overview, the dashboard's own page: first in the navigation. */
const OVERVIEW: NavItem = { id: "overview", href: DASHBOARD, label: "Overview", order: 0 };

/** The whole navigation: the overview and every section the modules declare, in their order. */
export const navOf = (sections: readonly DashboardSection[]): NavItem[] =>
  [OVERVIEW, ...sections.map((s) => s.nav)].sort((a, b) => a.order - b.order);

/** The dashboard: sign-in, the overview, then each module's section (`d.nav` must be navOf(sections)). */
export function dashboardRoutes(d: DashboardDeps, sections: readonly DashboardSection[]) {
  const g = guards(d);
  let app = new Elysia({ name: "dashboard-routes", detail: { hide: true } })
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
    ) as AnyElysia;
  for (const section of sections) app = app.use(section.pages(d, g));
  // Anything else under /dashboard: a page, not the API's JSON 404.
  return app.get(`${DASHBOARD}/*`, async ({ request }) => {
    const s = await g.sessionOf(request);
    return htmlResponse(
      errorPage({ title: "Page not found", message: "There is no page at this address.", viewer: s ? await g.viewerOf(s) : undefined }),
      404,
    );
  });
}
