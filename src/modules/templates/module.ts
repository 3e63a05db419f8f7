// Stored templates: versions, a data_schema, sample data.
import { Elysia } from "elysia";
import type { FeatureModule } from "../../app/module";
import { templatesRoutes as templatesPages } from "../../dashboard/routes/templates";
import { templateComparisons, templateSamples, templates, templateVersions } from "../../db/schema";
import { openAssetBlobs } from "../assets/blobs";
import { GoldenService } from "./golden";
import { GoldenRepo } from "./golden-repo";
import { goldenRoutes } from "./golden-routes";
import { templatesRoutes } from "./routes";

declare module "../../app/services" {
  interface ModuleServices {
    /** Golden samples: named sample data, and comparisons of versions on them (golden.ts). */
    golden: GoldenService;
  }
}

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
  "template.updated": "Template settings changed",
  "template.version_approved": "Template version approved",
  "template.sample_saved": "Golden sample saved",
  "template.sample_deleted": "Golden sample deleted",
} as const;

declare module "../audit/model" {
  interface AuditEventNames extends Record<keyof typeof AUDIT_EVENTS, true> {}
}

export const templatesModule: FeatureModule = {
  name: "templates",
  tables: [templates, templateVersions, templateSamples, templateComparisons],
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
    "PATCH /api/v1/templates/:templateID": "templates:write",
    // Golden samples: a comparison is kept (with its pictures), so running one needs templates:write.
    "GET /api/v1/templates/:templateID/samples": "templates:read",
    "POST /api/v1/templates/:templateID/samples": "templates:write",
    "DELETE /api/v1/templates/:templateID/samples/:name": "templates:write",
    "POST /api/v1/templates/:templateID/versions/:version/compare": "templates:write",
    "GET /api/v1/templates/:templateID/versions/:version/compare": "templates:read",
    "POST /api/v1/templates/:templateID/versions/:version/approve": "templates:write",
    "GET /api/v1/templates/:templateID/pictures/:picture": "templates:read",
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
    "POST /dashboard/templates/:id/versions/:version/approve": "dashboard",
    "GET /dashboard/templates/:id/pictures/:picture": "dashboard",
  },
  services: ({ config: c, sql, logger, services: s }) => {
    const golden = new GoldenService(s.templates, new GoldenRepo(sql), openAssetBlobs(c, s.files.traffic, "golden"), s.audit, {
      tolerance: c.goldenTolerance,
      rasteriser: s.rasteriser,
      dataLimits: { maxBytes: c.dataMaxSize, maxDepth: c.dataMaxDepth, maxKeys: c.dataMaxKeys },
      logger,
    });
    s.templates.onVersionAdded(golden.afterVersion);
    s.templates.onDelete(golden.beforeDelete);
    return { golden };
  },
  // The data_schema validator's thread.
  start: ({ services: s, children }) => s.schemas.start(children),
  stop: (s) => s.schemas.stop(),
  api: ({ services: s, guard, config: c }) =>
    new Elysia({ name: "templates-module" })
      .use(templatesRoutes(s.templates, guard, { templateMaxLength: c.templateMaxLength, idempotency: s.idempotency }))
      .use(goldenRoutes(s.golden, guard)),
  dashboard: [{ nav: { id: "templates", href: "/dashboard/templates", label: "Templates", order: 20 }, pages: templatesPages }],
};
