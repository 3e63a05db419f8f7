// The dashboard declares itself like a feature module: its routes (every one behind a session from
// signing in with an access key, src/dashboard/guards.ts) and the audit events of signing in.
import type { FeatureModule } from "../app/module";
import { dashboardSessions } from "../db/schema";
import { VERSION } from "../version";
import { dashboardRoutes } from "./routes";

/** The audit events it records, with the label its audit page shows. */
const AUDIT_EVENTS = {
  "dashboard.sign_in": "Dashboard sign-in",
  "dashboard.sign_in_failed": "Dashboard sign-in refused",
} as const;

declare module "../modules/audit/model" {
  interface AuditEventNames extends Record<keyof typeof AUDIT_EVENTS, true> {}
}

export const dashboardModule: FeatureModule = {
  name: "dashboard",
  tables: [dashboardSessions],
  auditEvents: AUDIT_EVENTS,
  routes: {
    "GET /": "dashboard",
    "GET /dashboard/assets/:file": "dashboard",
    "GET /dashboard/sign-in": "dashboard",
    "POST /dashboard/sign-in": "dashboard",
    "POST /dashboard/sign-out": "dashboard",
    "GET /dashboard": "dashboard",
    "GET /dashboard/keys": "dashboard",
    "POST /dashboard/keys": "dashboard",
    "GET /dashboard/keys/:id/delete": "dashboard",
    "POST /dashboard/keys/:id/delete": "dashboard",
    "GET /dashboard/reports": "dashboard",
    "GET /dashboard/reports/:id/row": "dashboard",
    "GET /dashboard/reports/:id/download": "dashboard",
    "GET /dashboard/reports/:id/factur-x.xml": "dashboard",
    "GET /dashboard/reports/:id/delete": "dashboard",
    "POST /dashboard/reports/:id/delete": "dashboard",
    "GET /dashboard/playground": "dashboard",
    "POST /dashboard/playground": "dashboard",
    "GET /dashboard/playground/result/:id": "dashboard",
    "GET /dashboard/audit": "dashboard",
    "GET /dashboard/signing": "dashboard",
    "POST /dashboard/signing": "dashboard",
    "GET /dashboard/signing/:id/delete": "dashboard",
    "POST /dashboard/signing/:id/delete": "dashboard",
    "GET /dashboard/templates": "dashboard",
    "GET /dashboard/templates/new": "dashboard",
    "POST /dashboard/templates": "dashboard",
    "GET /dashboard/templates/:id": "dashboard",
    "POST /dashboard/templates/:id/versions": "dashboard",
    "GET /dashboard/templates/:id/delete": "dashboard",
    "POST /dashboard/templates/:id/delete": "dashboard",
    "POST /dashboard/templates/preview": "dashboard",
    "GET /dashboard/templates/:id/diff": "dashboard",
    "GET /dashboard/asset-library": "dashboard",
    "POST /dashboard/asset-library": "dashboard",
    "GET /dashboard/asset-library/fonts.css": "dashboard",
    "GET /dashboard/asset-library/:id/content": "dashboard",
    "GET /dashboard/asset-library/:id/delete": "dashboard",
    "POST /dashboard/asset-library/:id/delete": "dashboard",
    "GET /dashboard/*": "dashboard",
  },
  site: ({ config: c, services: s, logger, probe, originOf, auditEvents }) =>
    dashboardRoutes({
      sessions: s.sessions,
      sessionMaxAgeMs: c.sessionMaxAge,
      signInFailLimit: c.signInFailLimit,
      logger,
      version: VERSION,
      keys: s.keys,
      keyAuth: s.keyAuth,
      reports: s.reports,
      templates: s.templates,
      signing: s.signing,
      usage: s.usage,
      audit: s.audit,
      auditRetentionDays: Math.round(c.auditRetention / 86_400_000),
      auditLabels: auditEvents,
      health: probe,
      originOf,
      publicUrl: c.publicUrl,
      trustProxy: c.trustProxy,
      templateMaxLength: c.templateMaxLength,
      assets: s.assets,
      assetMaxSize: c.assetMaxSize,
    }),
};
