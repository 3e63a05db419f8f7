// The module list: every feature's descriptor (src/modules/<feature>/module.ts; the dashboard's is
// src/dashboard/module.ts), in the order their routes are mounted, and the central tables joined from
// them. Adding a feature adds one line here.
import { type Scope, ScopeList } from "../access/scopes";
import { dashboardModule } from "../dashboard/module";
import { jobLeases } from "../db/schema";
import type { FeatureDocs } from "../http/openapi";
import { DOCS_ROUTES, joinRules, RouteTable } from "../http/route-access";
import { joinDeclared } from "../lib/declared";
import { accountsModule } from "../modules/accounts/module";
import { assetsModule } from "../modules/assets/module";
import type { AuditEventType } from "../modules/audit/model";
import { auditModule } from "../modules/audit/module";
import { destinationsModule } from "../modules/destinations/module";
import { eInvoicesModule } from "../modules/e-invoices/module";
import { filesModule } from "../modules/files/module";
import { guideModule } from "../modules/guide/module";
import { healthModule } from "../modules/health/module";
import { idempotencyModule } from "../modules/idempotency/module";
import { keysModule } from "../modules/keys/module";
import { reportsModule } from "../modules/reports/module";
import { schedulesModule } from "../modules/schedules/module";
import { signingModule } from "../modules/signing/module";
import { templatesModule } from "../modules/templates/module";
import { usageModule } from "../modules/usage/module";
import { webhooksModule } from "../modules/webhooks/module";
import type { FeatureModule } from "./module";

export const MODULES: readonly FeatureModule[] = [
  accountsModule,
  healthModule,
  guideModule,
  filesModule,
  dashboardModule,
  reportsModule,
  templatesModule,
  assetsModule,
  keysModule,
  webhooksModule,
  usageModule,
  auditModule,
  signingModule,
  idempotencyModule,
  eInvoicesModule,
  schedulesModule,
  destinationsModule,
];

/** Tables of the frame rather than a feature: the cron jobs' leases (src/jobs/). Every other table has a module. */
export const FRAME_TABLES = [jobLeases];

/** Every scope, with what it allows, in the module list's order: the order a key's scopes are listed in. */
export const SCOPE_LIST = ScopeList.join(MODULES.map((m) => m.scopes ?? {}));
export const ALL_SCOPES: Scope[] = [...SCOPE_LIST.all];

/** Every audit event type, with the label the dashboard's audit page shows, in the module list's order. */
export const AUDIT_EVENTS = joinDeclared<AuditEventType, string>(
  "audit event type",
  MODULES.map((m) => m.auditEvents ?? {}),
);

/** Every route's access rule: the frame's (documentation) and each module's own. */
export const ROUTES = new RouteTable(joinRules([DOCS_ROUTES, ...MODULES.map((m) => m.routes ?? {})]));

/** Who may call each route, by "METHOD pattern": derived from the descriptors (tests/api/scopes.test.ts reads it). */
export const ROUTE_ACCESS = ROUTES.access;

/** What the modules add to the OpenAPI document, in the list's order. */
export const FEATURE_DOCS: FeatureDocs = {
  scopes: SCOPE_LIST,
  description: MODULES.map((m) => m.docs?.description ?? "").join(""),
  webhooks: Object.assign({}, ...MODULES.map((m) => m.docs?.webhooks ?? {})),
  schemas: MODULES.flatMap((m) => m.docs?.schemas ?? []),
};
