// The audit trail: who changed what in the account.
import type { FeatureModule } from "../../app/module";
import { auditRoutes as auditPages } from "../../dashboard/routes/audit";
import { auditEvents } from "../../db/schema";
import { auditRoutes } from "./index";

export const auditModule: FeatureModule = {
  name: "audit",
  tables: [auditEvents],
  routes: {
    "GET /api/v1/audit-events": "keys:manage",
    "GET /dashboard/audit": "dashboard",
  },
  api: ({ services: s, guard, config: c, auditEvents }) =>
    auditRoutes(s.audit, guard, Math.round(c.auditRetention / 86_400_000), Object.keys(auditEvents)),
  dashboard: [{ nav: { id: "audit", href: "/dashboard/audit", label: "Audit", order: 70 }, pages: auditPages }],
};
