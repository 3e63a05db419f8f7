// Signing identities: the PKCS#12 keys options.signature signs with.
import type { FeatureModule } from "../../app/module";
import { signingRoutes as signingPages } from "../../dashboard/routes/signing";
import { signingIdentities } from "../../db/schema";
import { signingRoutes } from "./index";

/** Its scopes, and what each allows. */
const SCOPES = {
  "signing:manage": "Upload, list and delete the account's signing identities (PKCS#12 keys for options.signature).",
} as const;

declare module "../../access/scopes" {
  interface ScopeNames extends Record<keyof typeof SCOPES, true> {}
}

/** The audit events it records, with the label the dashboard's audit page shows. */
const AUDIT_EVENTS = {
  "signing_identity.created": "Signing identity uploaded",
  "signing_identity.deleted": "Signing identity deleted",
} as const;

declare module "../audit/model" {
  interface AuditEventNames extends Record<keyof typeof AUDIT_EVENTS, true> {}
}

export const signingModule: FeatureModule = {
  name: "signing",
  tables: [signingIdentities],
  auditEvents: AUDIT_EVENTS,
  scopes: SCOPES,
  // Signing a report with one (options.signature) needs only reports:write.
  routes: {
    "POST /api/v1/signing-identities": "signing:manage",
    "GET /api/v1/signing-identities": "signing:manage",
    "GET /api/v1/signing-identities/:identityID": "signing:manage",
    "DELETE /api/v1/signing-identities/:identityID": "signing:manage",
    // Its dashboard pages.
    "GET /dashboard/signing": "dashboard",
    "POST /dashboard/signing": "dashboard",
    "GET /dashboard/signing/:id/delete": "dashboard",
    "POST /dashboard/signing/:id/delete": "dashboard",
  },
  api: ({ services: s, guard }) => signingRoutes(s.signing, guard),
  dashboard: [{ nav: { id: "signing", href: "/dashboard/signing", label: "Signing", order: 60 }, pages: signingPages }],
};
