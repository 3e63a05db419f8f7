// The audit trail: who changed what in the account.
import type { FeatureModule } from "../../app/module";
import { auditEvents } from "../../db/schema";
import { auditRoutes } from "./index";

export const auditModule: FeatureModule = {
  name: "audit",
  tables: [auditEvents],
  routes: { "GET /api/v1/audit-events": "keys:manage" },
  api: ({ services: s, guard, config: c, auditEvents }) =>
    auditRoutes(s.audit, guard, Math.round(c.auditRetention / 86_400_000), Object.keys(auditEvents)),
};
