// Helpers for access-control tests: keys with chosen scopes, expiry and quota (minted through the
// same service as the CLI), and a real dashboard sign-in over HTTP.
import type { Scope } from "../../src/access/scopes";
import type { TestApp } from "./app";

export async function mintKey(
  t: TestApp,
  o: { scopes?: Scope[]; expiresAt?: string; maxReportsPerDay?: number; account?: string; name?: string } = {},
) {
  return t.app.services.keys.createForAccount(o.account ?? "acme", o.name ?? "scoped", {
    scopes: o.scopes,
    expires_at: o.expiresAt,
    max_reports_per_day: o.maxReportsPerDay,
  });
}

/** Signs in to the dashboard with `key` (the form's CSRF double-submit included); the answer, and the session cookie on success. */
export async function signIn(t: TestApp, key: string, headers: Record<string, string> = {}) {
  const form = await t.request("GET", "/dashboard/sign-in", { key: null });
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const signInCookie = form.headers.getSetCookie()[0]!.split(";")[0]!;
  const res = await noRedirect(t, "POST", "/dashboard/sign-in", {
    headers: {
      origin: new URL(t.baseUrl).origin,
      "sec-fetch-site": "same-origin",
      cookie: signInCookie,
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: new URLSearchParams({ _csrf: token, key }).toString(),
  });
  const session = res.headers
    .getSetCookie()
    .find((c) => c.startsWith("rg_session=") && !c.startsWith("rg_session=;"))
    ?.split(";")[0];
  return { res, session };
}

/** Exactly the interface's 401. */
export async function expectExactly401(res: Response, expect: (v: unknown) => { toBe(x: unknown): void }) {
  expect(res.status).toBe(401);
  expect(await res.text()).toBe('{"error":"unauthorized"}');
}

/** A request whose redirects are answered, not followed (fetch follows them by default). */
export function noRedirect(t: TestApp, method: string, path: string, o: { headers?: Record<string, string>; body?: string } = {}) {
  const req = new Request(t.baseUrl + path, { method, headers: o.headers, body: o.body, redirect: "manual" });
  return t.app.server ? fetch(req) : t.app.http.handle(req);
}

/** A concrete request path for a route pattern of the route rules (ROUTE_ACCESS): placeholder ids that name nothing. */
export const concrete = (path: string) =>
  path
    .replace(":reportID", "0b5e4f0c-6a5e-4d7b-9a1e-3f2d1c0b9a8e")
    .replace(":accessKeyID", "abcdefghijkm")
    .replace(":templateID", "3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f")
    .replace(":version", "1");
