// Who may call each route: every route of the HTTP app has a rule, by method and Elysia path pattern:
// the scope an access key needs for it, or "public" (no access key: probes, documentation, signed
// download links) or "dashboard" (its own session sign-in, src/dashboard). Each feature declares the
// rules of its own routes in its descriptor (src/modules/<feature>/module.ts); app/modules.ts joins them
// into the one table and hands it to apiGuard (http/auth.ts) as a RouteTable: http/ imports no feature.
// tests/api/scopes.test.ts fails when a route of the running app has no rule (or a rule names no route).
import type { Scope } from "../access/scopes";
import { joinDeclared } from "../lib/declared";

export type RouteAccess = Scope | "public" | "dashboard";

/**
 * A route's rule: its access alone, or with what apiGuard checks before the body is read besides:
 * `quota`, the route is a submission the key's daily quota (max_reports_per_day) counts; `multipart`,
 * it takes a multipart/form-data upload besides JSON; `raw`, the media types it takes as the body itself
 * (an XML or PDF document), handed to the route as `{ raw: bytes, type }` within the body limit;
 * `chunked`, it takes a chunked report (options.chunk), whose body may reach the chunked body limit.
 */
export type RouteRule = RouteAccess | { access: RouteAccess; quota?: true; multipart?: true; raw?: readonly string[]; chunked?: true };

/** Rules by "METHOD /path/:pattern" (the full path, /api/v1 included). */
export type RouteRules = Readonly<Record<string, RouteRule>>;

/** The frame's own routes (http/openapi.ts): documentation holds no account data and a browser cannot send X-API-Key. */
export const DOCS_ROUTES: RouteRules = {
  "GET /api/v1/openapi.json": "public",
  "GET /api/v1/docs": "public",
  "GET /docs-assets/swagger-ui-bundle.js": "public",
  "GET /docs-assets/swagger-ui.css": "public",
};

/** Joins the rule lists of every part; a route that two of them declare is a defect, refused at start-up. */
export const joinRules = (lists: readonly RouteRules[]): RouteRules => joinDeclared<string, RouteRule>("route", lists);

/** The joined rules as apiGuard asks them, by method and pattern (HEAD is GET's). */
export class RouteTable {
  /** "METHOD pattern" → access: every route's decision (the scope test reads it). */
  readonly access: Readonly<Record<string, RouteAccess>>;
  private readonly quota: ReadonlySet<string>;
  private readonly multipart: ReadonlySet<string>;
  private readonly raw: ReadonlyMap<string, readonly string[]>;
  private readonly chunked: ReadonlySet<string>;

  constructor(rules: RouteRules) {
    const entries = Object.entries(rules);
    this.access = Object.fromEntries(entries.map(([route, rule]) => [route, typeof rule === "string" ? rule : rule.access]));
    this.quota = new Set(entries.filter(([, rule]) => typeof rule !== "string" && rule.quota).map(([route]) => route));
    this.multipart = new Set(entries.filter(([, rule]) => typeof rule !== "string" && rule.multipart).map(([route]) => route));
    this.chunked = new Set(entries.filter(([, rule]) => typeof rule !== "string" && rule.chunked).map(([route]) => route));
    this.raw = new Map(entries.flatMap(([route, rule]) => (typeof rule !== "string" && rule.raw ? [[route, rule.raw] as const] : [])));
  }

  /** The access a route declares; undefined: not declared. */
  accessOf(method: string, pattern: string): RouteAccess | undefined {
    const key = `${method === "HEAD" ? "GET" : method} ${pattern}`;
    return Object.hasOwn(this.access, key) ? this.access[key] : undefined;
  }

  countsAgainstQuota(method: string, pattern: string): boolean {
    return this.quota.has(`${method} ${pattern}`);
  }

  acceptsMultipart(method: string, pattern: string): boolean {
    return this.multipart.has(`${method} ${pattern}`);
  }

  takesChunked(method: string, pattern: string): boolean {
    return this.chunked.has(`${method} ${pattern}`);
  }

  /** The media types a route takes as the raw body (none: JSON and, if declared, multipart only). */
  rawTypes(method: string, pattern: string): readonly string[] {
    return this.raw.get(`${method} ${pattern}`) ?? [];
  }
}
