// The dashboard's routes: server-rendered pages on the same services as the API, a session cookie
// instead of X-API-Key, and three layers against cross-site requests on every POST.
import { Elysia } from "elysia";
import { reportStatuses, type Engine, type ReportStatus } from "../db/schema";
import { clientAddress } from "../http/auth";
import { AppError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { RateLimiter } from "../lib/rate-limit";
import type { HealthProbe } from "../modules/health/index";
import type { KeysService } from "../modules/keys/service";
import type { ReportsService } from "../modules/reports/service";
import { paperFormats, type PaperFormat } from "../render/pdf-options";
import { ASSETS_PREFIX, assetResponse } from "./assets";
import { html, type Html } from "./html";
import type { Viewer } from "./layout";
import { confirmPage, errorPage, type Notice } from "./pages/common";
import { keysPage } from "./pages/keys";
import { overviewPage } from "./pages/overview";
import { exampleInput, playgroundPage, resultPanel, type PlaygroundInput } from "./pages/playground";
import { goneRow, reportRow, reportsPage } from "./pages/reports";
import { signInPage } from "./pages/signin";
import { cookie, cookieNames, htmlResponse, newToken, readCookie, redirect, sameOrigin } from "./security";
import { SessionsService, type Session } from "./sessions";

export const DASHBOARD = "/dashboard";

export interface DashboardDeps {
  logger: Logger;
  version: string;
  keys: KeysService;
  reports: ReportsService;
  sessions: SessionsService;
  health: HealthProbe;
  /** The origin browsers see (the public URL, or the request's own): what Origin must say on a POST. */
  originOf: (request: Request) => string;
  publicUrl: string;
  trustProxy: boolean;
  signInFailLimit: number;
  sessionMaxAgeMs: number;
  templateMaxLength: number;
}

type Ctx = { request: Request; body: unknown; params: { id?: string }; query: Record<string, string | undefined>; server: { requestIP(r: Request): { address: string } | null } | null };
type Form = Record<string, string | undefined>;

const SIGN_IN_TOKEN_AGE = 3600;
const refusedCsrf = "This request did not come from a page of this dashboard, so it was refused (protection against cross-site requests). Go back, reload the page, and try again.";

const signInNotices: Record<string, Notice> = {
  "signed-out": { kind: "ok", text: "You are signed out." },
  expired: { kind: "warn", text: "Your session ended. Sign in again to continue." },
  "key-deleted": { kind: "warn", text: "You deleted the key you were signed in with, so its session ended. Sign in with another key." },
};

export function dashboardRoutes(d: DashboardDeps) {
  const names = cookieNames(d.publicUrl);
  const signInFailures = d.signInFailLimit > 0 ? new RateLimiter(d.signInFailLimit, 60_000, d.signInFailLimit) : undefined;
  const endSessionCookie = cookie(names, names.session, "", 0);

  const viewerOf = (s: Session): Viewer => {
    const keys = d.keys.list(s.accountId);
    const mine = keys.find((k) => k.id === s.keyId);
    return { accountName: mine?.accountName ?? "", keyName: mine?.name ?? s.keyId, csrfToken: s.csrfToken };
  };

  /** A page that needs a session: without one, the browser goes to sign in. Errors become pages. */
  const page = (handler: (c: Ctx, s: Session) => Response | Promise<Response>) => async (c: Ctx) => {
    const presented = readCookie(c.request, names.session);
    const s = d.sessions.resolve(presented);
    if (!s) return presented ? redirect(`${DASHBOARD}/sign-in?notice=expired`, [endSessionCookie]) : redirect(`${DASHBOARD}/sign-in`);
    try {
      return await handler(c, s);
    } catch (e) {
      return failure(e, c.request, viewerOf(s));
    }
  };

  /** A fragment fetched by app.js: 401 without a session (the script then goes to sign in). */
  const fragment = (handler: (c: Ctx, s: Session) => Html | Promise<Html>) => async (c: Ctx) => {
    const s = d.sessions.resolve(readCookie(c.request, names.session));
    if (!s) return htmlResponse("", 401);
    return htmlResponse(await handler(c, s));
  };

  /** A state-changing request: a session, our own Origin, and the session's token. */
  const action = (handler: (c: Ctx, s: Session, form: Form) => Response | Promise<Response>) =>
    page((c, s) => {
      const form = formOf(c.body);
      if (!sameOrigin(c.request, d.originOf(c.request)) || !SessionsService.tokenMatches(s, form._csrf)) {
        return htmlResponse(errorPage({ title: "Request refused", message: refusedCsrf, viewer: viewerOf(s) }), 403);
      }
      return handler(c, s, form);
    });

  function failure(e: unknown, request: Request, viewer?: Viewer): Response {
    if (e instanceof AppError) return htmlResponse(errorPage({ title: titleOf(e), message: e.message, viewer }), e.status);
    d.logger.error("dashboard request failed", { error: e, method: request.method, path: new URL(request.url).pathname });
    return htmlResponse(errorPage({ title: "Something went wrong", message: "The server could not show this page. The problem has been logged; try again in a moment.", viewer }), 500);
  }

  const signInForm = (message?: Notice, status = 200) => {
    const token = newToken();
    return htmlResponse(signInPage({ csrf: token, message }), status, [cookie(names, names.signIn, token, SIGN_IN_TOKEN_AGE)]);
  };

  const keysList = (s: Session, viewer: Viewer, extra: Omit<Parameters<typeof keysPage>[1], "keys" | "currentKeyId"> = {}, status = 200) =>
    htmlResponse(keysPage(viewer, { keys: d.keys.list(s.accountId), currentKeyId: s.keyId, ...extra }), status);

  const playgroundResult = async (s: Session, id: string) => {
    const r = d.reports.get(s.accountId, id);
    if (r.status !== "succeeded") return resultPanel(r);
    // A fresh, relative signed link: the frame loads from the origin the browser uses for the dashboard.
    const answer = await d.reports.download(s.accountId, id, "").catch(() => undefined);
    return resultPanel(r, answer?.ready ? answer.url : undefined);
  };

  return (
    new Elysia({ name: "dashboard-routes", detail: { hide: true } })
      .get("/", () => redirect(DASHBOARD))
      .get(`${ASSETS_PREFIX}/:file`, ({ request }) => assetResponse(new URL(request.url).pathname) ?? htmlResponse(errorPage({ title: "Not found", message: "There is no such file." }), 404))

      // Signing in and out
      .get(`${DASHBOARD}/sign-in`, ({ request, query }) => {
        if (d.sessions.resolve(readCookie(request, names.session))) return redirect(DASHBOARD);
        return signInForm(signInNotices[query.notice ?? ""]);
      })
      .post(`${DASHBOARD}/sign-in`, async ({ request, body, server }) => {
        const form = formOf(body);
        const expected = readCookie(request, names.signIn);
        if (!sameOrigin(request, d.originOf(request)) || !expected || expected !== form._csrf) {
          return signInForm({ kind: "error", text: "The sign-in form had expired or came from another site. Try again." }, 403);
        }
        const presented = (form.key ?? "").trim();
        // A key this server already verified passes even when its address is over the failure
        // budget: a flood of wrong keys from one address never locks out a valid key.
        let principal = await d.keys.authenticate(presented, { cachedOnly: true });
        if (!principal) {
          const client = clientAddress(request, server?.requestIP(request)?.address, d.trustProxy);
          const wait = signInFailures?.wait(client) ?? 0;
          if (wait > 0) {
            const r = signInForm({ kind: "error", text: `Too many failed sign-ins from your address. Wait ${Math.ceil(wait)} seconds, then try again.` }, 429);
            r.headers.set("retry-after", String(Math.ceil(wait)));
            return r;
          }
          principal = await d.keys.authenticate(presented);
          if (!principal) {
            signInFailures?.take(client);
            return signInForm({ kind: "error", text: "That access key was not accepted." }, 401);
          }
        }
        const { id } = d.sessions.create(principal);
        return redirect(DASHBOARD, [cookie(names, names.session, id, Math.floor(d.sessionMaxAgeMs / 1000)), cookie(names, names.signIn, "", 0)]);
      })
      .post(
        `${DASHBOARD}/sign-out`,
        action((_c, s) => {
          d.sessions.end(s);
          return redirect(`${DASHBOARD}/sign-in?notice=signed-out`, [endSessionCookie]);
        }),
      )

      // Overview
      .get(
        DASHBOARD,
        page(({ request }, s) => {
          const o = d.reports.overview(s.accountId);
          return htmlResponse(
            overviewPage(viewerOf(s), { ...o, version: d.version, healthy: d.health.rendererReady(), queued: d.health.queued(), rendering: d.health.rendering(), origin: d.originOf(request) }),
          );
        }),
      )

      // Access keys
      .get(`${DASHBOARD}/keys`, page(({ query }, s) => keysList(s, viewerOf(s), { message: query.deleted ? { kind: "ok", text: `Key ${query.deleted} was deleted; the API refuses it from now on.` } : undefined })))
      .post(
        `${DASHBOARD}/keys`,
        action(async (_c, s, form) => {
          const viewer = viewerOf(s);
          try {
            const created = await d.keys.create(s.accountId, form.name ?? "");
            return keysList(s, viewer, { created }, 201);
          } catch (e) {
            if (e instanceof AppError && e.status === 422) return keysList(s, viewer, { nameError: e.message, name: form.name }, 422);
            throw e;
          }
        }),
      )
      .get(
        `${DASHBOARD}/keys/:id/delete`,
        page(({ params: { id = "" } }, s) => {
          const key = d.keys.list(s.accountId).find((k) => k.id === id);
          if (!key) throw new AppError(404, "not_found", `There is no key ${id} in this account. It may have been deleted already.`);
          const mine = key.id === s.keyId;
          return htmlResponse(
            confirmPage({
              viewer: viewerOf(s),
              section: "keys",
              title: "Delete this key?",
              question: html`Delete the key <strong>${key.name}</strong> (<span class="mono">${key.id}</span>)?`,
              consequence: `Every request that uses it is refused from then on, at once.${mine ? " This is the key you signed in with: you will be signed out." : ""}`,
              action: `${DASHBOARD}/keys/${key.id}/delete`,
              button: `Delete ${key.name}`,
              cancel: `${DASHBOARD}/keys`,
            }),
          );
        }),
      )
      .post(
        `${DASHBOARD}/keys/:id/delete`,
        action(({ params: { id = "" } }, s) => {
          d.keys.delete(id, s.accountId);
          // Its sessions, this one too when it is the key signed in with, went with it (foreign key cascade).
          if (id === s.keyId) return redirect(`${DASHBOARD}/sign-in?notice=key-deleted`, [endSessionCookie]);
          return redirect(`${DASHBOARD}/keys?deleted=${encodeURIComponent(id)}`);
        }),
      )

      // Reports
      .get(
        `${DASHBOARD}/reports`,
        page(({ query }, s) => {
          const status = reportStatuses.includes(query.status as ReportStatus) ? (query.status as ReportStatus) : undefined;
          const cursor = query.cursor || undefined;
          const { items, nextCursor } = d.reports.list(s.accountId, { limit: 20, status, cursor });
          const message: Notice | undefined = query.deleted ? { kind: "ok", text: "The report and its PDF were deleted." } : undefined;
          return htmlResponse(reportsPage(viewerOf(s), { items, status, cursor, nextCursor, message }));
        }),
      )
      .get(
        `${DASHBOARD}/reports/:id/row`,
        fragment(({ params: { id = "" } }, s) => {
          try {
            return reportRow(d.reports.get(s.accountId, id));
          } catch (e) {
            if (e instanceof AppError && e.status === 404) return goneRow(id);
            throw e;
          }
        }),
      )
      .get(
        `${DASHBOARD}/reports/:id/download`,
        page(async ({ params: { id = "" } }, s) => {
          const answer = await d.reports.download(s.accountId, id, "");
          if (!answer.ready) return htmlResponse(errorPage({ title: "Not ready yet", message: `The report is ${answer.status}. Its PDF can be downloaded once it has succeeded.`, viewer: viewerOf(s), section: "reports", back: { href: `${DASHBOARD}/reports`, label: "Back to reports" } }), 409);
          return redirect(answer.url);
        }),
      )
      .get(
        `${DASHBOARD}/reports/:id/delete`,
        page(({ params: { id = "" } }, s) => {
          const r = d.reports.get(s.accountId, id);
          return htmlResponse(
            confirmPage({
              viewer: viewerOf(s),
              section: "reports",
              title: "Delete this report?",
              question: html`Delete report <span class="mono">${r.id}</span> (${r.status})?`,
              consequence: "Its PDF is deleted too, and download links already handed out stop working.",
              action: `${DASHBOARD}/reports/${r.id}/delete`,
              button: "Delete report",
              cancel: `${DASHBOARD}/reports`,
            }),
          );
        }),
      )
      .post(
        `${DASHBOARD}/reports/:id/delete`,
        action(({ params: { id = "" } }, s) => {
          d.reports.delete(s.accountId, id);
          return redirect(`${DASHBOARD}/reports?deleted=1`);
        }),
      )

      // Playground
      .get(`${DASHBOARD}/playground`, page((_c, s) => htmlResponse(playgroundPage(viewerOf(s), { input: exampleInput, templateMaxLength: d.templateMaxLength }))))
      .post(
        `${DASHBOARD}/playground`,
        action(async (_c, s, form) => {
          const viewer = viewerOf(s);
          const input = playgroundInput(form);
          const errors: { template?: string; data?: string } = {};
          if (!input.template.trim()) errors.template = "Write a template first.";
          else if (input.template.length > d.templateMaxLength) errors.template = `The template is ${input.template.length} characters; the limit is ${d.templateMaxLength}.`;
          let data: unknown;
          if (input.engine === "ejs") {
            try {
              data = JSON.parse(input.data.trim() || "{}");
            } catch (e) {
              errors.data = `Not valid JSON: ${(e as Error).message}`;
            }
          }
          const again = (status: number, message?: Notice) => htmlResponse(playgroundPage(viewer, { input, errors, message, templateMaxLength: d.templateMaxLength }), status);
          if (errors.template || errors.data) return again(422, { kind: "error", text: "Fix the marked fields, then render again." });
          try {
            const { reportId } = d.reports.submit(s.accountId, {
              engine: input.engine,
              html_template: input.template,
              data,
              options: { format: input.format, landscape: input.landscape },
            });
            return htmlResponse(playgroundPage(viewer, { input, templateMaxLength: d.templateMaxLength, result: await playgroundResult(s, reportId) }));
          } catch (e) {
            // The API's own refusals (data limits, full queues) are shown next to the form.
            if (e instanceof AppError) {
              if (e.status === 422 || e.status === 400) errors.data = e.message;
              return again(e.status, { kind: "error", text: e.message });
            }
            throw e;
          }
        }),
      )
      .get(`${DASHBOARD}/playground/result/:id`, fragment(({ params: { id = "" } }, s) => playgroundResult(s, id)))

      // Anything else under /dashboard: a page, not the API's JSON 404.
      .get(`${DASHBOARD}/*`, ({ request }) => {
        const s = d.sessions.resolve(readCookie(request, names.session));
        return htmlResponse(errorPage({ title: "Page not found", message: "There is no page at this address.", viewer: s ? viewerOf(s) : undefined }), 404);
      })
  );
}

function formOf(body: unknown): Form {
  return body && typeof body === "object" ? (body as Form) : {};
}

function playgroundInput(form: Form): PlaygroundInput {
  const engine: Engine = form.engine === "raw" ? "raw" : "ejs";
  const format = paperFormats.includes(form.format as PaperFormat) ? (form.format as PaperFormat) : "A4";
  return { engine, template: form.template ?? "", data: form.data ?? "", format, landscape: form.landscape === "1" };
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
