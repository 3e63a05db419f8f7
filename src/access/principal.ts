// Who is calling: the access key a request was authenticated with, and how the audit trail names it.
// modules/keys produces principals (KeyAuthenticator.authenticate); http/ and the dashboard consume them.
import type { Scope } from "./scopes";

export interface Principal {
  keyId: string;
  accountId: string;
  scopes: Scope[];
  /** The key's daily quota (null: none), as stored when this request was authenticated. */
  maxReportsPerDay: number | null;
}

/** Turns a presented X-API-Key value into its principal, or null when it is missing, unknown, wrong, expired or deleted. */
export type Authenticate = (value: string | null) => Promise<Principal | null>;

/**
 * A request made with an access key (API or dashboard), as the audit trail records it. `address` is
 * the client's, as the rate limiter sees it (http/auth.ts clientAddress).
 */
export interface KeyActor {
  kind: "key";
  accountId: string;
  keyId: string;
  address: string | null;
}
