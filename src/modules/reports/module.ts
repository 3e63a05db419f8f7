// The reports feature: submitting, reading, merging and deleting reports (the queue and the PDF
// pipeline behind them are wired in app/renderer.ts).
import type { FeatureModule } from "../../app/module";
import { playgroundRoutes as playgroundPages } from "../../dashboard/routes/playground";
import { reportsRoutes as reportsPages } from "../../dashboard/routes/reports";
import { reports } from "../../db/schema";
import { reportsRoutes } from "./index";

/** Its scopes, and what each allows. */
const SCOPES = {
  "reports:write": "Submit reports (generate and merge) and delete them.",
  "reports:read": "Read reports: status, list, download links.",
} as const;

declare module "../../access/scopes" {
  interface ScopeNames extends Record<keyof typeof SCOPES, true> {}
}

export const reportsModule: FeatureModule = {
  name: "reports",
  tables: [reports],
  scopes: SCOPES,
  routes: {
    // Merge counts as a submission.
    "POST /api/v1/generate-pdf-async": { access: "reports:write", quota: true, chunked: true },
    "POST /api/v1/reports/merge": { access: "reports:write", quota: true },
    "DELETE /api/v1/reports/:reportID": "reports:write",
    "GET /api/v1/reports": "reports:read",
    "GET /api/v1/reports/:reportID": "reports:read",
    "GET /api/v1/reports/:reportID/download": "reports:read",
    "GET /api/v1/reports/:reportID/thumbnail": "reports:read",
    "GET /api/v1/reports/:reportID/e-invoice": "reports:read",
    // Its dashboard pages.
    "GET /dashboard/reports": "dashboard",
    "GET /dashboard/reports/:id/row": "dashboard",
    "GET /dashboard/reports/:id/download": "dashboard",
    "GET /dashboard/reports/:id/thumbnail": "dashboard",
    "GET /dashboard/reports/:id/factur-x.xml": "dashboard",
    "GET /dashboard/reports/:id/delete": "dashboard",
    "POST /dashboard/reports/:id/delete": "dashboard",
    "GET /dashboard/playground": "dashboard",
    "POST /dashboard/playground": "dashboard",
    "GET /dashboard/playground/result/:id": "dashboard",
  },
  // The rasteriser's thread (pictures, thumbnails): started by its first picture, counted among the App's children.
  start: ({ services: s, children }) => s.rasteriser.start(children),
  stop: (s) => s.rasteriser.stop(),
  api: ({ services: s, guard, config: c, originOf }) =>
    reportsRoutes(s.reports, guard, {
      templateMaxLength: c.templateMaxLength,
      originOf,
      idempotency: s.idempotency,
      webhookLog: (id) => s.webhooks.log(id),
      deliveryLog: (id) => s.destinations.log(id),
      thumbnails: s.thumbnails,
    }),
  dashboard: [
    { nav: { id: "reports", href: "/dashboard/reports", label: "Reports", order: 10 }, pages: reportsPages },
    { nav: { id: "playground", href: "/dashboard/playground", label: "Playground", order: 40 }, pages: playgroundPages },
  ],
};
