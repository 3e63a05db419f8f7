// A key's scopes as stored, and which ones a new key may be granted. The closed list (a ScopeList) is
// joined from the modules' descriptors by app/modules.ts and handed to KeysService.
import type { Scope, ScopeList } from "../../access/scopes";
import { AppError, validationFailed } from "../../lib/errors";

/** Scopes as stored (space-separated, in the closed list's order). */
export const formatScopes = (list: ScopeList, scopes: readonly Scope[]): string => list.all.filter((s) => scopes.includes(s)).join(" ");

/**
 * Scopes as stored, back to a list. Only formatScopes writes them (and migration 0011's default, all of
 * that day's scopes), so every word is a scope: the hot path (every request's key) needs no list.
 */
export const parseScopes = (stored: string): Scope[] => stored.split(" ").filter((s) => s !== "") as Scope[];

/**
 * The scopes a new key asks for, checked against its creator's: omitted means exactly the creator's;
 * an unknown scope is 422 (listing the valid ones); one the creator lacks is 403 (no escalation).
 */
export function grantScopes(list: ScopeList, requested: unknown, creator: readonly Scope[]): Scope[] {
  const all = list.all;
  if (requested === undefined) return [...creator];
  if (!Array.isArray(requested) || requested.length === 0 || requested.some((s) => typeof s !== "string")) {
    throw validationFailed(`scopes must be a non-empty array of scope names, from: ${all.join(", ")}`, [
      { field: "scopes", problem: "non-empty array of strings", valid: all },
    ]);
  }
  const unknown = (requested as string[]).filter((s) => !list.has(s));
  if (unknown.length) {
    throw validationFailed(`unknown scope ${unknown.map((s) => JSON.stringify(s)).join(", ")}: valid scopes are ${all.join(", ")}`, [
      { field: "scopes", problem: `unknown scope ${unknown.join(", ")}`, valid: all },
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
  return all.filter((s) => (requested as Scope[]).includes(s));
}
