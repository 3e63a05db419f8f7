// Scopes: what an access key may do. A closed list; every /api/v1 route names the one it needs in
// src/http/route-access.ts (the one table, checked by tests/api/scopes.test.ts against the live routes).
// Access control's vocabulary lives in src/access/, which imports no feature: http/ (the API guard),
// the dashboard and modules/keys all build on it, and http/ may import no feature module.
import { AppError } from "../lib/errors";

export const SCOPES = {
  "reports:write": "Submit reports (generate and merge) and delete them.",
  "reports:read": "Read reports: status, list, download links.",
  "templates:write": "Create, change and delete stored templates.",
  "templates:read": "Read stored templates.",
  "assets:write": "Upload, replace and delete the account's assets (logos, fonts, style sheets).",
  "assets:read": "List the account's assets and download them.",
  "keys:manage": "Manage access keys, the webhook signing secret, and read the audit trail.",
  "signing:manage": "Upload, list and delete the account's signing identities (PKCS#12 keys for options.signature).",
} as const satisfies Record<string, string>;

export type Scope = keyof typeof SCOPES;
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export const isScope = (s: string): s is Scope => Object.hasOwn(SCOPES, s);

/** 403 forbidden for a call outside the key's scopes, naming the one it needs. */
export const missingScope = (scope: Scope, what: string) =>
  new AppError(
    "forbidden",
    `this access key lacks the scope ${scope}, which ${what} needs; use a key that holds it (see GET /api/v1/access-keys for each key's scopes)`,
    { required_scope: scope },
  );

/** Throws 403 forbidden unless `scopes` holds `scope` (the dashboard's checks; the API's are route-access.ts). */
export function requireScope(scopes: readonly Scope[], scope: Scope, what: string): void {
  if (!scopes.includes(scope)) throw missingScope(scope, what);
}
