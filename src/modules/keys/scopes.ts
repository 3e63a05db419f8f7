// Scopes: what an access key may do. A closed list; every /api/v1 route names the one it needs in
// src/http/route-access.ts (the one table, checked by tests/api/scopes.test.ts against the live routes).
import { AppError, validationFailed } from "../../lib/errors";

export const SCOPES = {
  "reports:write": "Submit reports (generate and merge) and delete them.",
  "reports:read": "Read reports: status, list, download links.",
  "templates:write": "Create, change and delete stored templates.",
  "templates:read": "Read stored templates.",
  "keys:manage": "Manage access keys, the webhook signing secret, and read the audit trail.",
} as const satisfies Record<string, string>;

export type Scope = keyof typeof SCOPES;
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export const isScope = (s: string): s is Scope => Object.hasOwn(SCOPES, s);

/** Scopes as stored (space-separated, in the closed list's order). */
export const formatScopes = (scopes: readonly Scope[]): string => ALL_SCOPES.filter((s) => scopes.includes(s)).join(" ");

/** Scopes as stored, back to a list; a word not in the list (never written) is ignored. */
export const parseScopes = (stored: string): Scope[] => stored.split(" ").filter(isScope);

/**
 * The scopes a new key asks for, checked against its creator's: omitted means exactly the creator's;
 * an unknown scope is 422 (listing the valid ones); one the creator lacks is 403 (no escalation).
 */
export function grantScopes(requested: unknown, creator: readonly Scope[]): Scope[] {
  if (requested === undefined) return [...creator];
  if (!Array.isArray(requested) || requested.length === 0 || requested.some((s) => typeof s !== "string")) {
    throw validationFailed(`scopes must be a non-empty array of scope names, from: ${ALL_SCOPES.join(", ")}`, [
      { field: "scopes", problem: "non-empty array of strings", valid: ALL_SCOPES },
    ]);
  }
  const unknown = (requested as string[]).filter((s) => !isScope(s));
  if (unknown.length) {
    throw validationFailed(`unknown scope ${unknown.map((s) => JSON.stringify(s)).join(", ")}: valid scopes are ${ALL_SCOPES.join(", ")}`, [
      { field: "scopes", problem: `unknown scope ${unknown.join(", ")}`, valid: ALL_SCOPES },
    ]);
  }
  const missing = (requested as Scope[]).filter((s) => !creator.includes(s));
  if (missing.length) {
    throw new AppError(
      "forbidden",
      `a key can only grant scopes it holds itself; this key lacks ${missing.join(", ")}. Create the key with a key that holds them, or ask for fewer scopes`,
      { missing_scopes: missing },
    );
  }
  return ALL_SCOPES.filter((s) => (requested as Scope[]).includes(s));
}

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
