// Who may call each route: THE one table. Every route of the HTTP app is listed here, by method and
// Elysia path pattern, with the scope an access key needs for it, or "public" (no access key: probes,
// documentation, signed download links) or "dashboard" (its own session sign-in, src/dashboard).
// apiGuard (http/auth.ts) enforces it on /api/v1; tests/api/scopes.test.ts fails when a route of the
// running app is missing here (or listed here but gone), and calls every route with every scope.
import type { Scope } from "../access/scopes";

export type RouteAccess = Scope | "public" | "dashboard";

export const ROUTE_ACCESS: Record<string, RouteAccess> = {
  // Reports (merge counts as a submission).
  "POST /api/v1/generate-pdf-async": "reports:write",
  "POST /api/v1/reports/merge": "reports:write",
  "DELETE /api/v1/reports/:reportID": "reports:write",
  "GET /api/v1/reports": "reports:read",
  "GET /api/v1/reports/:reportID": "reports:read",
  "GET /api/v1/reports/:reportID/download": "reports:read",
  "GET /api/v1/reports/:reportID/thumbnail": "reports:read",
  // Stored templates. Rendering one by id (generate-pdf-async with template_id) needs only reports:write:
  // it shows the PDF, never the template's source, so a billing key can render a template it cannot read.
  "POST /api/v1/templates": "templates:write",
  "POST /api/v1/templates/:templateID/versions": "templates:write",
  "DELETE /api/v1/templates/:templateID": "templates:write",
  "GET /api/v1/templates": "templates:read",
  "GET /api/v1/templates/:templateID": "templates:read",
  "GET /api/v1/templates/:templateID/versions/:version": "templates:read",
  // The asset library. Rendering a template that uses an asset needs no assets scope: the PDF shows it anyway.
  "POST /api/v1/assets": "assets:write",
  "DELETE /api/v1/assets/:assetID": "assets:write",
  "GET /api/v1/assets": "assets:read",
  "GET /api/v1/assets/:assetID": "assets:read",
  "GET /api/v1/assets/:assetID/content": "assets:read",
  // Usage: what the account's reports added up to (read access to its reports shows as much).
  "GET /api/v1/usage": "reports:read",
  // Access keys, the webhook signing secret, the audit trail.
  "POST /api/v1/access-keys": "keys:manage",
  "GET /api/v1/access-keys": "keys:manage",
  "PATCH /api/v1/access-keys/:accessKeyID": "keys:manage",
  "DELETE /api/v1/access-keys/:accessKeyID": "keys:manage",
  "POST /api/v1/access-keys/:accessKeyID/rotate": "keys:manage",
  "GET /api/v1/webhook-secret": "keys:manage",
  "POST /api/v1/webhook-secret/rotate": "keys:manage",
  "GET /api/v1/audit-events": "keys:manage",
  // Signing identities. Signing a report with one (options.signature) needs only reports:write.
  "POST /api/v1/signing-identities": "signing:manage",
  "GET /api/v1/signing-identities": "signing:manage",
  "GET /api/v1/signing-identities/:identityID": "signing:manage",
  "DELETE /api/v1/signing-identities/:identityID": "signing:manage",
  // Public: documentation (no account data), probes, and download links (their signature is the authority).
  "GET /api/v1/openapi.json": "public",
  "GET /api/v1/docs": "public",
  "GET /docs-assets/swagger-ui-bundle.js": "public",
  "GET /docs-assets/swagger-ui.css": "public",
  // The user guide (docs/*.md, served by the executable).
  "GET /docs": "public",
  "GET /docs/:page": "public",
  "GET /docs/assets/:file": "public",
  "GET /healthz": "public",
  "GET /livez": "public",
  "GET /readyz": "public",
  "GET /metrics": "public",
  "GET /files/:reportID": "public",
  // The dashboard: a session from signing in with an access key (src/dashboard/guards.ts).
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
  "GET /dashboard/reports/:id/thumbnail": "dashboard",
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
};

/** The access a route declares, by its method and pattern (HEAD is GET's); undefined: not declared. */
export const accessOf = (method: string, pattern: string): RouteAccess | undefined =>
  ROUTE_ACCESS[`${method === "HEAD" ? "GET" : method} ${pattern}`];

/** Submissions: the routes a key's daily quota (max_reports_per_day) counts, checked before their body is read. */
const QUOTA_ROUTES = new Set(["POST /api/v1/generate-pdf-async", "POST /api/v1/reports/merge"]);

/** Routes that take a multipart/form-data upload besides JSON. */
const MULTIPART_ROUTES = new Set(["POST /api/v1/assets"]);

export const acceptsMultipart = (method: string, pattern: string): boolean => MULTIPART_ROUTES.has(`${method} ${pattern}`);

export const countsAgainstQuota = (method: string, pattern: string): boolean => QUOTA_ROUTES.has(`${method} ${pattern}`);
