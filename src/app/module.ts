// What a feature module declares about itself: its descriptor, exported from
// src/modules/<feature>/module.ts (as Gotenberg's modules declare their ModuleInfo, and PocketBase's
// plugins register on the App). src/app/modules.ts lists the descriptors; the app mounts their routes,
// and the central tables (route access, scopes, audit kinds, ...) are joined from them there, then
// handed down as values: db/, http/ and access/ import no feature. This file imports types only, and
// nothing that imports a descriptor, so a descriptor importing it closes no cycle.
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { AnyElysia } from "elysia";
import type { ScopeDescriptions } from "../access/scopes";
import type { Config } from "../config/settings";
import type { DashboardSection } from "../dashboard/guards";
import type { Sql } from "../db/sql";
import type { apiGuard } from "../http/auth";
import type { FeatureDocs } from "../http/openapi";
import type { RouteRules } from "../http/route-access";
import type { Logger } from "../lib/logger";
import type { PasswordSeal } from "../lib/seal";
import type { ChildRegistry } from "../lib/supervisor";
import type { AuditEventLabels, AuditEventType } from "../modules/audit/model";
import type { HealthProbe } from "../modules/health/index";
import type { ServiceMetrics } from "../modules/health/metrics";
import type { ModuleServices, Services } from "./services";

/** What a module's route factories are given: the App's parts; each takes only what it needs. */
export interface ModuleContext {
  config: Config;
  services: Services;
  /** The /api/v1 guard: an api plugin `.use()`s it to get `principal` and `actor`. */
  guard: ReturnType<typeof apiGuard>;
  /** The origin of download links and pages: --public-url, else the request's own. */
  originOf: (request: Request) => string;
  logger: Logger;
  metrics: ServiceMetrics;
  /** Readiness and queue figures (/readyz, /metrics, the dashboard). */
  probe: HealthProbe;
  version: string;
  /** Every audit event type, with its label: joined from the descriptors. */
  auditEvents: Readonly<Record<AuditEventType, string>>;
  /** Every module's dashboard section, in the list's order. */
  dashboard: readonly DashboardSection[];
}

/** What a module's `services` factory is given (bootstrap(), once the core services are built). */
export interface ServiceContext {
  config: Config;
  /** The database, for the module's repositories (SQL lives in repositories). */
  sql: Sql;
  logger: Logger;
  /** The core services, and those of the modules before it in the list. */
  services: Services;
  /** A seal for the module's secrets, under a key derived from the server secret for `purpose` (lib/seal.ts). */
  sealFor: (purpose: string) => PasswordSeal;
}

/** What a module's `start` is given (App.start(), before HTTP listens). */
export interface StartContext {
  services: Services;
  /** Where a child process or thread it supervises is counted (restarts in /metrics). */
  children: ChildRegistry;
  logger: Logger;
}

/** One feature, as the app sees it. Every field but `name` is optional. */
export interface FeatureModule {
  /** Its folder under src/modules/ (the dashboard's descriptor: "dashboard", src/dashboard/). */
  name: string;
  /**
   * The access rule of every route it serves, by "METHOD /full/path" (see http/route-access.ts): a scope,
   * "public" or "dashboard". A route it serves without a rule fails tests/api/scopes.test.ts, and is
   * refused (403) under /api/v1.
   */
  routes?: RouteRules;
  /**
   * The tables it owns, as declared in db/schema.ts (the one declaration of the schema, which the
   * migrations are checked against and migrate-to copies): tests/unit/modules.test.ts fails on a table
   * no module (or two) owns.
   */
  tables?: readonly SQLiteTable[];
  /** The scopes it adds, with what each allows (see access/scopes.ts: their names go in ScopeNames too). */
  scopes?: ScopeDescriptions;
  /** The audit event types it records, each with the label the dashboard shows (their names go in AuditEventNames too). */
  auditEvents?: AuditEventLabels;
  /** Its routes under /api/v1, behind the guard (mounted in the module list's order). */
  api?: (x: ModuleContext) => AnyElysia;
  /** Its routes outside /api/v1 (the guide, downloads, the dashboard), mounted in the module list's order. */
  site?: (x: ModuleContext) => AnyElysia;
  /** Routes every instance serves, a worker (--role worker) nothing else: the health probes. */
  probes?: (x: ModuleContext) => AnyElysia;
  /** Its dashboard sections: each an entry in the navigation and the plugin of its pages. */
  dashboard?: readonly DashboardSection[];
  /**
   * The services it adds to the App's (`app.services`, the ModuleContext): their names and types go in
   * app/services.ts's ModuleServices by declaration merging. Built once, at start-up, in the list's order.
   */
  services?: (x: ServiceContext) => Partial<ModuleServices>;
  /** Starts what its services run (threads, timers): App.start(), in the list's order, before HTTP listens. */
  start?: (x: StartContext) => Promise<void> | void;
  /** Stops it again: App.stop(), in reverse order, before the database closes. */
  stop?: (services: Services) => Promise<void> | void;
  /** What it adds to the OpenAPI document: text appended to the API description, OpenAPI 3.1 webhooks. */
  docs?: Partial<Omit<FeatureDocs, "scopes">>;
}
