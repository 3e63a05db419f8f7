// The asset library: logos, fonts and style sheets a template refers to as asset:<name>.
import type { FeatureModule } from "../../app/module";
import { assetsRoutes as assetsPages } from "../../dashboard/routes/assets";
import { assets } from "../../db/schema";
import { assetsRoutes } from "./routes";

/** Its scopes, and what each allows. */
const SCOPES = {
  "assets:write": "Upload, replace and delete the account's assets (logos, fonts, style sheets).",
  "assets:read": "List the account's assets and download them.",
} as const;

declare module "../../access/scopes" {
  interface ScopeNames extends Record<keyof typeof SCOPES, true> {}
}

/** The audit events it records, with the label the dashboard's audit page shows. */
const AUDIT_EVENTS = {
  "asset.created": "Asset uploaded",
  "asset.replaced": "Asset replaced",
  "asset.deleted": "Asset deleted",
} as const;

declare module "../audit/model" {
  interface AuditEventNames extends Record<keyof typeof AUDIT_EVENTS, true> {}
}

export const assetsModule: FeatureModule = {
  name: "assets",
  tables: [assets],
  auditEvents: AUDIT_EVENTS,
  scopes: SCOPES,
  // Rendering a template that uses an asset needs no assets scope: the PDF shows it anyway.
  routes: {
    "POST /api/v1/assets": { access: "assets:write", multipart: true },
    "DELETE /api/v1/assets/:assetID": "assets:write",
    "GET /api/v1/assets": "assets:read",
    "GET /api/v1/assets/:assetID": "assets:read",
    "GET /api/v1/assets/:assetID/content": "assets:read",
    // Its dashboard pages.
    "GET /dashboard/asset-library": "dashboard",
    "POST /dashboard/asset-library": "dashboard",
    "GET /dashboard/asset-library/fonts.css": "dashboard",
    "GET /dashboard/asset-library/:id/content": "dashboard",
    "GET /dashboard/asset-library/:id/delete": "dashboard",
    "POST /dashboard/asset-library/:id/delete": "dashboard",
  },
  api: ({ services: s, guard }) => assetsRoutes(s.assets, guard),
  dashboard: [{ nav: { id: "assets", href: "/dashboard/asset-library", label: "Assets", order: 30 }, pages: assetsPages }],
};
