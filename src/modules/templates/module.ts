// Stored templates: versions, a data_schema, sample data.
import type { FeatureModule } from "../../app/module";
import { templatesRoutes as templatesPages } from "../../dashboard/routes/templates";
import { templates, templateVersions } from "../../db/schema";
import { templatesRoutes } from "./routes";

/** Its scopes, and what each allows. */
const SCOPES = {
  "templates:write": "Create, change and delete stored templates.",
  "templates:read": "Read stored templates.",
} as const;

declare module "../../access/scopes" {
  interface ScopeNames extends Record<keyof typeof SCOPES, true> {}
}

/** The audit events it records, with the label the dashboard's audit page shows. */
const AUDIT_EVENTS = {
  "template.created": "Template created",
  "template.version_created": "Template version saved",
  "template.deleted": "Template deleted",
} as const;

declare module "../audit/model" {
  interface AuditEventNames extends Record<keyof typeof AUDIT_EVENTS, true> {}
}

export const templatesModule: FeatureModule = {
  name: "templates",
  tables: [templates, templateVersions],
  auditEvents: AUDIT_EVENTS,
  scopes: SCOPES,
  // Rendering one by id (generate-pdf-async with template_id) needs only reports:write: it shows the
  // PDF, never the template's source, so a billing key can render a template it cannot read.
  routes: {
    "POST /api/v1/templates": "templates:write",
    "POST /api/v1/templates/:templateID/versions": "templates:write",
    "DELETE /api/v1/templates/:templateID": "templates:write",
    "GET /api/v1/templates": "templates:read",
    "GET /api/v1/templates/:templateID": "templates:read",
    "GET /api/v1/templates/:templateID/versions/:version": "templates:read",
    // Its dashboard pages.
    "GET /dashboard/templates": "dashboard",
    "GET /dashboard/templates/new": "dashboard",
    "POST /dashboard/templates": "dashboard",
    "GET /dashboard/templates/:id": "dashboard",
    "POST /dashboard/templates/:id/versions": "dashboard",
    "GET /dashboard/templates/:id/delete": "dashboard",
    "POST /dashboard/templates/:id/delete": "dashboard",
    "POST /dashboard/templates/preview": "dashboard",
    "GET /dashboard/templates/:id/diff": "dashboard",
  },
  // The data_schema validator's thread.
  start: ({ services: s, children }) => s.schemas.start(children),
  stop: (s) => s.schemas.stop(),
  api: ({ services: s, guard, config: c }) =>
    templatesRoutes(s.templates, guard, { templateMaxLength: c.templateMaxLength, idempotency: s.idempotency }),
  dashboard: [{ nav: { id: "templates", href: "/dashboard/templates", label: "Templates", order: 20 }, pages: templatesPages }],
};
