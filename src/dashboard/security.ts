// The dashboard's response headers, cookies and cross-site request checks.
import { randomBytes } from "node:crypto";

/**
 * Scripts and styles only from our own (hashed) files: no inline script, no eval. Frames only from
 * our own origin (the playground's PDF from /files) and blob: (the Templates page's live preview, a
 * PDF our own script fetched and made into a blob: URL); nobody may frame the dashboard.
 */
export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  // The Assets page's font samples (the account's own fonts, behind the session).
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self' blob:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers of every dashboard page and redirect. Pages carry account data: never cached. */
export function pageHeaders(extra: Record<string, string> = {}): Headers {
  const h = new Headers({
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on our own form
    // posts, and the Origin check below needs the real one.
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cache-control": "no-store",
    ...extra,
  });
  return h;
}

export function htmlResponse(body: { toString(): string }, status = 200, cookies: string[] = []): Response {
  const h = pageHeaders({ "content-type": "text/html; charset=utf-8" });
  for (const c of cookies) h.append("set-cookie", c);
  return new Response(body.toString(), { status, headers: h });
}

export function redirect(location: string, cookies: string[] = []): Response {
  const h = pageHeaders({ location });
  for (const c of cookies) h.append("set-cookie", c);
  return new Response(null, { status: 303, headers: h });
}

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface CookieNames {
  session: string;
  signIn: string;
  secure: boolean;
}

/** With https the cookies take the __Host- prefix: the browser then insists on Secure, Path=/ and no Domain. */
export function cookieNames(publicUrl: string): CookieNames {
  const secure = publicUrl.startsWith("https:");
  return { session: secure ? "__Host-rg_session" : "rg_session", signIn: secure ? "__Host-rg_signin" : "rg_signin", secure };
}

export function cookie(names: CookieNames, name: string, value: string, maxAgeSeconds: number): string {
  return `${name}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}${names.secure ? "; Secure" : ""}`;
}

export const newToken = () => randomBytes(32).toString("base64url");

/**
 * Whether a state-changing request comes from a page of this dashboard: Sec-Fetch-Site, when the
 * browser sends it, must say same-origin, and Origin must be present and be ours. (The session's
 * SameSite=Strict cookie and the form's token are the other two layers.)
 */
export function sameOrigin(request: Request, expectedOrigin: string): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return false;
  const origin = request.headers.get("origin");
  return origin !== null && origin === expectedOrigin;
}
