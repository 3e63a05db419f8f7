// The dashboard declares itself like a feature module: its own routes (sign-in, the overview, its
// static files; every page behind a session from signing in with an access key, guards.ts), the audit
// events of signing in, and the pages of every module's dashboard section (FeatureModule.dashboard).
import type { FeatureModule } from "../app/module";
import { dashboardSessions } from "../db/schema";
import { VERSION } from "../version";
import { dashboardRoutes, navOf } from "./routes";

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
    "GET /dashboard/*": "dashboard",
  },
  site: ({ config: c, services: s, logger, probe, originOf, auditEvents, dashboard }) =>
    dashboardRoutes(
      {
        sessions: s.sessions,
        sessionMaxAgeMs: c.sessionMaxAge,
        signInFailLimit: c.signInFailLimit,
        logger,
        version: VERSION,
        keys: s.keys,
        keyAuth: s.keyAuth,
        reports: s.reports,
        thumbnails: s.thumbnails,
        templates: s.templates,
        signing: s.signing,
        schedules: s.schedules,
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
        nav: navOf(dashboard),
      },
      dashboard,
    ),
};
