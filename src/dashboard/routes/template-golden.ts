// Golden samples on a template's page: approving a version, and the comparisons' pictures (the page's
// <img> tags load them with the session, as the API serves them with a key). The panel is drawn by
// pages/template-golden.ts from what the editor's route reads.
import { Elysia } from "elysia";
import { requireScope } from "../../access/scopes";
import { DASHBOARD, type DashboardDeps, type Guards } from "../guards";
import { pageHeaders, redirect } from "../security";

export function templateGoldenRoutes(d: DashboardDeps, g: Guards) {
  return new Elysia({ name: "dashboard-template-golden" })
    .post(
      `${DASHBOARD}/templates/:id/versions/:version/approve`,
      g.action(async (c, s) => {
        requireScope(s.scopes, "templates:write", "approving a template version");
        const id = c.params.id ?? "";
        const version = Number((c.params as { version?: string }).version);
        await d.golden.approve(g.actorOf(c, s), id, Number.isInteger(version) ? version : Number.NaN);
        return redirect(`${DASHBOARD}/templates/${id}?version=${version}&approved=${version}`);
      }),
    )
    .get(
      `${DASHBOARD}/templates/:id/pictures/:picture`,
      g.page(async (c, s) => {
        requireScope(s.scopes, "templates:read", "showing a comparison's picture");
        const name = (c.params as { picture?: string }).picture ?? "";
        const sha = /^([0-9a-f]{64})\.png$/.exec(name)?.[1] ?? "";
        const png = await d.golden.picture(s.accountId, c.params.id ?? "", sha);
        if (!png) return new Response(null, { status: 404, headers: pageHeaders({}) });
        return new Response(new Blob([png as Uint8Array<ArrayBuffer>]), {
          headers: pageHeaders({ "content-type": "image/png", "cache-control": "private, max-age=86400, immutable" }),
        });
      }),
    );
}
