// The reports feature: submitting, reading, merging and deleting reports (the queue and the PDF
// pipeline behind them are wired in app/renderer.ts).
import type { FeatureModule } from "../../app/module";
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
    "POST /api/v1/generate-pdf-async": { access: "reports:write", quota: true },
    "POST /api/v1/reports/merge": { access: "reports:write", quota: true },
    "DELETE /api/v1/reports/:reportID": "reports:write",
    "GET /api/v1/reports": "reports:read",
    "GET /api/v1/reports/:reportID": "reports:read",
    "GET /api/v1/reports/:reportID/download": "reports:read",
  },
  api: ({ services: s, guard, config: c, originOf }) =>
    reportsRoutes(s.reports, guard, {
      templateMaxLength: c.templateMaxLength,
      originOf,
      idempotency: s.idempotency,
      webhookLog: (id) => s.webhooks.log(id),
    }),
};
