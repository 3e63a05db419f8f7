// A key's scopes as stored, and which ones a new key may be granted. The list itself (SCOPES, Scope)
// is access control's vocabulary, in src/access/scopes.ts.
import { ALL_SCOPES, isScope, type Scope } from "../../access/scopes";
import { AppError, validationFailed } from "../../lib/errors";

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
