// Reports: the list (filter, pages, live rows), download through a fresh signed link, delete.
import { Elysia } from "elysia";
import { requireScope } from "../../access/scopes";
import { type ReportStatus, reportStatuses } from "../../db/schema";
import { AppError } from "../../lib/errors";
import { DASHBOARD, type DashboardDeps, type Guards } from "../guards";
import { html } from "../html";
import { confirmPage, errorPage, type Notice } from "../pages/common";
import { goneRow, reportRow, reportsPage } from "../pages/reports";
import { htmlResponse, pageHeaders, redirect } from "../security";

export function reportsRoutes(d: DashboardDeps, g: Guards) {
  return new Elysia({ name: "dashboard-reports" })
    .get(
      `${DASHBOARD}/reports`,
      g.page(async ({ query }, s) => {
        requireScope(s.scopes, "reports:read", "listing reports");
        const status = reportStatuses.includes(query.status as ReportStatus) ? (query.status as ReportStatus) : undefined;
        const cursor = query.cursor || undefined;
        const { items, nextCursor } = await d.reports.list(s.accountId, { limit: 20, status, cursor });
        const message: Notice | undefined = query.deleted ? { kind: "ok", text: "The report and its PDF were deleted." } : undefined;
        const canDelete = s.scopes.includes("reports:write");
        const deliveries = await d.destinations.deliveriesOf(items.map((r) => r.id));
        return htmlResponse(reportsPage(await g.viewerOf(s), { items, status, cursor, nextCursor, message, canDelete, deliveries }));
      }),
    )
    .get(
      `${DASHBOARD}/reports/:id/row`,
      g.fragment(async ({ params: { id = "" } }, s) => {
        try {
          const r = await d.reports.get(s.accountId, id);
          return reportRow(r, s.scopes.includes("reports:write"), (await d.destinations.deliveriesOf([r.id])).get(r.id));
        } catch (e) {
          if (e instanceof AppError && e.status === 404) return goneRow(id);
          throw e;
        }
      }),
    )
    .get(
      `${DASHBOARD}/reports/:id/download`,
      g.page(async ({ params: { id = "" } }, s) => {
        requireScope(s.scopes, "reports:read", "downloading a report");
        const answer = await d.reports.download(s.accountId, id, "");
        if (!answer.ready)
          return htmlResponse(
            errorPage({
              title: "Not ready yet",
              message: `The report is ${answer.status}. Its PDF can be downloaded once it has succeeded.`,
              viewer: await g.viewerOf(s),
              section: "reports",
              back: { href: `${DASHBOARD}/reports`, label: "Back to reports" },
            }),
            409,
          );
        return redirect(answer.url);
      }),
    )
    .get(
      `${DASHBOARD}/reports/:id/thumbnail`,
      g.page(async ({ params: { id = "" } }, s) => {
        requireScope(s.scopes, "reports:read", "showing a report's thumbnail");
        const answer = await d.thumbnails.get(s.accountId, id);
        if ("ready" in answer) return new Response(null, { status: 404, headers: pageHeaders({}) });
        return new Response(new Blob([answer.png as Uint8Array<ArrayBuffer>]), {
          headers: pageHeaders({ "content-type": "image/png", "cache-control": "private, max-age=3600" }),
        });
      }),
    )
    .get(
      `${DASHBOARD}/reports/:id/factur-x.xml`,
      g.page(async ({ params: { id = "" } }, s) => {
        requireScope(s.scopes, "reports:read", "downloading an e-invoice's XML");
        const xml = await d.reports.embeddedInvoiceXml(s.accountId, id);
        if (!xml)
          return htmlResponse(
            errorPage({
              title: "Not ready yet",
              message: "The report is not finished. Its e-invoice XML can be downloaded once it has succeeded.",
              viewer: await g.viewerOf(s),
              section: "reports",
              back: { href: `${DASHBOARD}/reports`, label: "Back to reports" },
            }),
            409,
          );
        // The bytes embedded in the PDF, as a file to save (never shown inline under the dashboard's origin).
        return new Response(Buffer.from(xml), {
          headers: pageHeaders({
            "content-type": "application/xml; charset=utf-8",
            "content-disposition": 'attachment; filename="factur-x.xml"',
          }),
        });
      }),
    )
    .get(
      `${DASHBOARD}/reports/:id/delete`,
      g.page(async ({ params: { id = "" } }, s) => {
        requireScope(s.scopes, "reports:write", "deleting a report");
        const r = await d.reports.get(s.accountId, id);
        return htmlResponse(
          confirmPage({
            viewer: await g.viewerOf(s),
            section: "reports",
            title: "Delete this report?",
            question: html`Delete report <span class="mono">${r.id}</span> (${r.status})?`,
            consequence: "Its PDF is deleted too, and download links already handed out stop working.",
            action: `${DASHBOARD}/reports/${r.id}/delete`,
            button: "Delete report",
            cancel: `${DASHBOARD}/reports`,
          }),
        );
      }),
    )
    .post(
      `${DASHBOARD}/reports/:id/delete`,
      g.action(async ({ params: { id = "" } }, s) => {
        requireScope(s.scopes, "reports:write", "deleting a report");
        await d.reports.delete(s.accountId, id);
        return redirect(`${DASHBOARD}/reports?deleted=1`);
      }),
    );
}
