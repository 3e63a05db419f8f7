// Access keys: minting, listing, changing, rotating and deleting them.
import type { FeatureModule } from "../../app/module";
import { keysRoutes as keysPages } from "../../dashboard/routes/keys";
import { accessKeys, keyDailyCounts } from "../../db/schema";
import { keysRoutes } from "./index";

/** Its scopes, and what each allows. */
const SCOPES = {
  "keys:manage": "Manage access keys, the webhook signing secret, and read the audit trail.",
} as const;

declare module "../../access/scopes" {
  interface ScopeNames extends Record<keyof typeof SCOPES, true> {}
}

/** The audit events it records, with the label the dashboard's audit page shows. */
const AUDIT_EVENTS = {
  "access_key.created": "Key created",
  "access_key.deleted": "Key deleted",
  "access_key.rotated": "Key rotated",
  "access_key.updated": "Key changed",
} as const;

declare module "../audit/model" {
  interface AuditEventNames extends Record<keyof typeof AUDIT_EVENTS, true> {}
}

export const keysModule: FeatureModule = {
  name: "keys",
  tables: [accessKeys, keyDailyCounts],
  auditEvents: AUDIT_EVENTS,
  scopes: SCOPES,
  routes: {
    "POST /api/v1/access-keys": "keys:manage",
    "GET /api/v1/access-keys": "keys:manage",
    "PATCH /api/v1/access-keys/:accessKeyID": "keys:manage",
    "DELETE /api/v1/access-keys/:accessKeyID": "keys:manage",
    "POST /api/v1/access-keys/:accessKeyID/rotate": "keys:manage",
    // Its dashboard pages.
    "GET /dashboard/keys": "dashboard",
    "POST /dashboard/keys": "dashboard",
    "GET /dashboard/keys/:id/delete": "dashboard",
    "POST /dashboard/keys/:id/delete": "dashboard",
  },
  api: ({ services: s, guard }) => keysRoutes(s.keys, guard, s.idempotency),
  dashboard: [{ nav: { id: "keys", href: "/dashboard/keys", label: "Access Keys", order: 50 }, pages: keysPages }],
};
