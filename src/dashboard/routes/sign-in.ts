// Signing in (an access key, verified once, exchanged for a session) and signing out.
import { Elysia } from "elysia";
import { clientAddress } from "../../http/auth";
import { peerOf } from "../../http/connection-gate";
import { RateLimiter } from "../../lib/rate-limit";
import { DASHBOARD, type DashboardDeps, formOf, type Guards } from "../guards";
import type { Notice } from "../pages/common";
import { signInPage } from "../pages/signin";
import { cookie, htmlResponse, newToken, readCookie, redirect, sameOrigin } from "../security";

const SIGN_IN_TOKEN_AGE = 3600;

const notices: Record<string, Notice> = {
  "signed-out": { kind: "ok", text: "You are signed out." },
  expired: { kind: "warn", text: "Your session ended. Sign in again to continue." },
  "key-deleted": { kind: "warn", text: "You deleted the key you were signed in with, so its session ended. Sign in with another key." },
};

export function signInRoutes(d: DashboardDeps, g: Guards) {
  const { names } = g;
  const failures = d.signInFailLimit > 0 ? new RateLimiter(d.signInFailLimit, 60_000, d.signInFailLimit) : undefined;

  // Before a session exists the form carries a double-submit token (cookie + field) against login CSRF.
  const form = (message?: Notice, status = 200) => {
    const token = newToken();
    return htmlResponse(signInPage({ csrf: token, message }), status, [cookie(names, names.signIn, token, SIGN_IN_TOKEN_AGE)]);
  };

  return new Elysia({ name: "dashboard-sign-in" })
    .get(`${DASHBOARD}/sign-in`, async ({ request, query }) =>
      (await g.sessionOf(request)) ? redirect(DASHBOARD) : form(notices[query.notice ?? ""]),
    )
    .post(`${DASHBOARD}/sign-in`, async ({ request, body, server }) => {
      const fields = formOf(body);
      const expected = readCookie(request, names.signIn);
      if (!sameOrigin(request, d.originOf(request)) || !expected || expected !== fields._csrf) {
        return form({ kind: "error", text: "The sign-in form had expired or came from another site. Try again." }, 403);
      }
      const presented = (fields.key ?? "").trim();
      // Every key is checked, whatever its address did before: KeyAuthenticator refuses wrong keys without
      // argon2 and bounds what unverified ones cost, so a valid key is never held back. The budget
      // only changes the answer to a failure, telling a script that keeps failing to slow down.
      const principal = await d.keyAuth.authenticate(presented);
      const client = clientAddress(request, peerOf(server, request), d.trustProxy);
      if (!principal) {
        const wait = failures?.take(client) ?? 0;
        // Recorded within the failure budget only: past it, a script guessing keys cannot fill the trail.
        if (wait <= 0) await d.keys.recordSignInFailure(presented, client);
        if (wait > 0) {
          const r = form(
            {
              kind: "error",
              text: `That access key was not accepted. Too many failed sign-ins from your address: wait ${Math.ceil(wait)} seconds before trying again.`,
            },
            429,
          );
          r.headers.set("retry-after", String(Math.ceil(wait)));
          return r;
        }
        return form({ kind: "error", text: "That access key was not accepted." }, 401);
      }
      const { id } = await d.sessions.create(principal, {
        kind: "key",
        accountId: principal.accountId,
        keyId: principal.keyId,
        address: client,
      });
      return redirect(DASHBOARD, [
        cookie(names, names.session, id, Math.floor(d.sessionMaxAgeMs / 1000)),
        cookie(names, names.signIn, "", 0),
      ]);
    })
    .post(
      `${DASHBOARD}/sign-out`,
      g.action(async (_c, s) => {
        await d.sessions.end(s);
        return redirect(`${DASHBOARD}/sign-in?notice=signed-out`, [g.endSessionCookie]);
      }),
    );
}
