// What every dashboard route shares: its dependencies, and the wrappers that require a session
// (pages, fragments) and, for state-changing requests, our own Origin and the session's CSRF token.
import type { AnyElysia } from "elysia";
import { clientAddress } from "../http/auth";
import { peerOf } from "../http/connection-gate";
import { AppError, RenderError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { AssetsService } from "../modules/assets/service";
import type { Actor, AuditEventType } from "../modules/audit/model";
import type { AuditService } from "../modules/audit/service";
import type { HealthProbe } from "../modules/health/index";
import type { KeyAuthenticator } from "../modules/keys/authenticator";
import type { KeysService } from "../modules/keys/service";
import type { ReportsService } from "../modules/reports/service";
import type { ReportThumbnails } from "../modules/reports/thumbnail";
import type { SchedulesService } from "../modules/schedules/service";
import type { SigningService } from "../modules/signing/service";
import type { TemplatesService } from "../modules/templates/service";
import type { UsageService } from "../modules/usage/service";
import type { Html } from "./html";
import type { NavItem, Viewer } from "./layout";
import { errorPage } from "./pages/common";
import { type CookieNames, cookie, cookieNames, htmlResponse, pageHeaders, readCookie, redirect, sameOrigin } from "./security";
import { type Session, SessionsService } from "./sessions";

export const DASHBOARD = "/dashboard";

export interface DashboardDeps {
  logger: Logger;
  version: string;
  keys: KeysService;
  /** Checks a key value at sign-in, as the API checks X-API-Key. */
  keyAuth: KeyAuthenticator;
  reports: ReportsService;
  /** Page 1 of succeeded reports as small PNGs (the list shows them). */
  thumbnails: ReportThumbnails;
  templates: TemplatesService;
  signing: SigningService;
  schedules: SchedulesService;
  usage: UsageService;
  audit: AuditService;
  /** Days audit events are kept (said on the audit page). */
  auditRetentionDays: number;
  /** The navigation, in order. */
  nav: readonly NavItem[];
  /** Every audit event type's label (app/modules.ts joins them from the descriptors). */
  auditLabels: Readonly<Record<AuditEventType, string>>;
  sessions: SessionsService;
  health: HealthProbe;
  /** The origin browsers see (the public URL, or the request's own): what Origin must say on a POST. */
  originOf: (request: Request) => string;
  publicUrl: string;
  trustProxy: boolean;
  signInFailLimit: number;
  sessionMaxAgeMs: number;
  templateMaxLength: number;
  assets: AssetsService;
  /** --asset-max-size, said next to the upload field. */
  assetMaxSize: number;
}

/** A module's dashboard section: its entry in the navigation and the plugin that serves its pages. */
export interface DashboardSection {
  nav: NavItem;
  /** Its pages, behind these guards; each route's access rule ("dashboard") goes in the module's `routes`. */
  pages: (d: DashboardDeps, g: Guards) => AnyElysia;
}

export type Ctx = {
  request: Request;
  body: unknown;
  params: { id?: string };
  query: Record<string, string | undefined>;
  server: { requestIP(r: Request): { address: string } | null } | null;
};
export type Form = Record<string, string | undefined>;

const refusedCsrf =
  "This request did not come from a page of this dashboard, so it was refused (protection against cross-site requests). Go back, reload the page, and try again.";

export const formOf = (body: unknown): Form => (body && typeof body === "object" ? (body as Form) : {});

export interface Guards {
  names: CookieNames;
  /** Set-Cookie that removes the session cookie. */
  endSessionCookie: string;
  sessionOf: (request: Request) => Promise<Session | null>;
  viewerOf: (s: Session) => Promise<Viewer>;
  page: (handler: (c: Ctx, s: Session) => Response | Promise<Response>) => (c: Ctx) => Promise<Response>;
  fragment: (handler: (c: Ctx, s: Session) => Html | Promise<Html>) => (c: Ctx) => Promise<Response>;
  action: (handler: (c: Ctx, s: Session, form: Form) => Response | Promise<Response>) => (c: Ctx) => Promise<Response>;
  /**
   * A state-changing request from the page's own script (fetch), answered in JSON: the same session,
   * Origin and token checks as `action`, and failures as the API's error body ({error, message, details}).
   */
  jsonAction: (handler: (c: Ctx, s: Session, form: Form) => unknown | Promise<unknown>) => (c: Ctx) => Promise<Response>;
  /** The signed-in key as the audit trail records it, with the client's address. */
  actorOf: (c: Ctx, s: Session) => Actor & { kind: "key" };
}

const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: pageHeaders({ "content-type": "application/json; charset=utf-8" }) });

export function guards(d: DashboardDeps): Guards {
  const names = cookieNames(d.publicUrl);
  const endSessionCookie = cookie(names, names.session, "", 0);
  const sessionOf = (request: Request) => d.sessions.resolve(readCookie(request, names.session));

  const viewerOf = async (s: Session): Promise<Viewer> => {
    const mine = (await d.keys.list(s.accountId)).find((k) => k.id === s.keyId);
    return { accountName: mine?.accountName ?? "", keyName: mine?.name ?? s.keyId, csrfToken: s.csrfToken, nav: d.nav };
  };

  function failure(e: unknown, request: Request, viewer: Viewer): Response {
    if (e instanceof AppError) return htmlResponse(errorPage({ title: titleOf(e), message: e.message, viewer }), e.status);
    d.logger.error("dashboard request failed", { error: e, method: request.method, path: new URL(request.url).pathname });
    return htmlResponse(
      errorPage({
        title: "Something went wrong",
        message: "The server could not show this page. The problem has been logged; try again in a moment.",
        viewer,
      }),
      500,
    );
  }

  /** A page that needs a session: without one, the browser goes to sign in. Errors become pages. */
  const page: Guards["page"] = (handler) => async (c) => {
    const presented = readCookie(c.request, names.session);
    const s = await d.sessions.resolve(presented);
    if (!s) return presented ? redirect(`${DASHBOARD}/sign-in?notice=expired`, [endSessionCookie]) : redirect(`${DASHBOARD}/sign-in`);
    try {
      return await handler(c, s);
    } catch (e) {
      return failure(e, c.request, await viewerOf(s));
    }
  };

  /** A fragment fetched by app.js: 401 without a session (the script then goes to sign in). */
  const fragment: Guards["fragment"] = (handler) => async (c) => {
    const s = await sessionOf(c.request);
    if (!s) return htmlResponse("", 401);
    return htmlResponse(await handler(c, s));
  };

  /** A state-changing request: a session, our own Origin, and the session's token. */
  const action: Guards["action"] = (handler) =>
    page(async (c, s) => {
      const form = formOf(c.body);
      if (!sameOrigin(c.request, d.originOf(c.request)) || !SessionsService.tokenMatches(s, form._csrf)) {
        return htmlResponse(errorPage({ title: "Request refused", message: refusedCsrf, viewer: await viewerOf(s) }), 403);
      }
      return handler(c, s, form);
    });

  const jsonAction: Guards["jsonAction"] = (handler) => async (c) => {
    const s = await sessionOf(c.request);
    if (!s) return jsonResponse({ error: "unauthorized", message: "The session has ended: sign in again." }, 401);
    const form = formOf(c.body);
    if (!sameOrigin(c.request, d.originOf(c.request)) || !SessionsService.tokenMatches(s, form._csrf)) {
      return jsonResponse({ error: "unauthorized", message: refusedCsrf }, 403);
    }
    try {
      return jsonResponse(await handler(c, s, form));
    } catch (e) {
      if (e instanceof AppError) return jsonResponse({ error: e.code, message: e.message, details: e.details }, e.status);
      // A template that failed to render (a preview): the template's fault, said as the report would say it.
      if (e instanceof RenderError) return jsonResponse({ error: e.code, message: e.message }, 422);
      d.logger.error("dashboard request failed", { error: e, method: c.request.method, path: new URL(c.request.url).pathname });
      return jsonResponse(
        { error: "internal_error", message: "The server could not do this. The problem has been logged; try again in a moment." },
        500,
      );
    }
  };

  const actorOf = (c: Ctx, s: Session): Actor & { kind: "key" } => ({
    kind: "key",
    accountId: s.accountId,
    keyId: s.keyId,
    address: clientAddress(c.request, peerOf(c.server as Parameters<typeof peerOf>[0], c.request), d.trustProxy),
  });

  return { names, endSessionCookie, sessionOf, viewerOf, page, fragment, action, jsonAction, actorOf };
}

function titleOf(e: AppError): string {
  switch (e.status) {
    case 404:
      return "Not found";
    case 409:
    case 410:
      return "No PDF to download";
    case 429:
    case 503:
      return "Busy";
    default:
      return "That did not work";
  }
}
