// Scopes: what an access key may do. Access control's vocabulary lives in src/access/, which imports no
// feature: each feature declares its own scopes in its descriptor (src/modules/<feature>/module.ts), by
// name in the type below and with what each allows in FeatureModule.scopes; app/modules.ts joins them
// into the one closed list (a ScopeList) and hands it to what needs it at run time (the keys service,
// the OpenAPI description). Every route names the scope it needs in its module's `routes`.
import { joinDeclared } from "../lib/declared";
import { AppError } from "../lib/errors";

/**
 * Every scope's name, as a key of this interface: a module adds its own with
 * `declare module "../../access/scopes" { interface ScopeNames extends Record<keyof typeof SCOPES, true> {} }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the modules' declarations fill it (declaration merging)
export interface ScopeNames {}

export type Scope = keyof ScopeNames & string;

/** What some scopes allow, by name: one module's declaration. */
export type ScopeDescriptions = Readonly<Partial<Record<Scope, string>>>;

/** The closed list of scopes with what each allows, in the module list's order (the order keys list them in). */
export class ScopeList {
  readonly all: readonly Scope[];

  constructor(readonly descriptions: Readonly<Record<Scope, string>>) {
    this.all = Object.keys(descriptions) as Scope[];
  }

  /** Joins the modules' declarations, in order; a scope two of them declare is a defect, refused at start-up. */
  static join(declared: readonly ScopeDescriptions[]): ScopeList {
    return new ScopeList(joinDeclared("scope", declared));
  }

  has(s: string): s is Scope {
    return Object.hasOwn(this.descriptions, s);
  }
}

/** 403 forbidden for a call outside the key's scopes, naming the one it needs. */
export const missingScope = (scope: Scope, what: string) =>
  new AppError(
    "forbidden",
    `this access key lacks the scope ${scope}, which ${what} needs; use a key that holds it (see GET /api/v1/access-keys for each key's scopes)`,
    { required_scope: scope },
  );

/** Throws 403 forbidden unless `scopes` holds `scope` (the dashboard's checks; the API's are apiGuard's). */
export function requireScope(scopes: readonly Scope[], scope: Scope, what: string): void {
  if (!scopes.includes(scope)) throw missingScope(scope, what);
}
