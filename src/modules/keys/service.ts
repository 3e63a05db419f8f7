// Access keys' management: minting (API and CLI alike), rotation, quotas, listing and deletion. Every
// change is written with its audit event in one transaction, and told to the KeyAuthenticator
// (authenticator.ts), which authenticates each request.

import { hash, type Options } from "@node-rs/argon2";
import type { Scope, ScopeList } from "../../access/scopes";
import { AppError, notFound, validationFailed } from "../../lib/errors";
import { randomId, randomSecret } from "../../lib/ids";
import type { AccountsRepo } from "../accounts/repo";
import type { Actor } from "../audit/model";
import type { AuditService } from "../audit/service";
import type { KeyAuthenticator } from "./authenticator";
import { checkExpiresAt, checkGrace, checkQuota } from "./options";
import type { KeyRow, KeysRepo } from "./repo";
import { formatScopes, grantScopes, parseScopes } from "./scopes";

export interface CreatedKey {
  id: string;
  name: string;
  accountId: string;
  createdAt: number;
  scopes: Scope[];
  expiresAt: number | null;
  maxReportsPerDay: number | null;
  /** The full key value: shown once, never stored. */
  value: string;
}

/** What a caller asks for in a new key (unchecked: prepare() checks it). */
export interface KeyRequest {
  name: unknown;
  scopes?: unknown;
  expires_at?: unknown;
  max_reports_per_day?: unknown;
}

export interface PreparedKey {
  id: string;
  name: string;
  accountId: string;
  secret: string;
  secretHash: string;
  scopes: Scope[];
  expiresAt: number | null;
  maxReportsPerDay: number | null;
}

export const KEY_NAME_MAX = 100;

// Argon2id (the const enum Algorithm.Argon2id) with the library's default costs (m=19456, t=2, p=1).
const argon2Options: Options = { algorithm: 2 };

/** Validates and normalises a key name; the same rule for the API and the CLI. */
export function checkKeyName(name: unknown): string {
  if (typeof name !== "string")
    throw validationFailed('name is required: a string naming what the key is for, e.g. "billing-service"', [
      { field: "name", problem: "required string" },
    ]);
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > KEY_NAME_MAX || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw validationFailed(`name must be 1 to ${KEY_NAME_MAX} printable characters`, [
      { field: "name", problem: `1 to ${KEY_NAME_MAX} printable characters` },
    ]);
  }
  return trimmed;
}

export class KeysService {
  constructor(
    private readonly keys: KeysRepo,
    private readonly accounts: AccountsRepo,
    private readonly audit: AuditService,
    /** Every scope a key may hold (app/modules.ts joins them from the descriptors). */
    readonly scopes: ScopeList,
    /** Told of every key changed or deleted here; its check values and argon2 gate serve new secrets too. */
    private readonly auth: KeyAuthenticator,
  ) {}

  /** Creates a key; `creatorScopes` bounds what it may be granted (omitted scopes: exactly those). */
  async create(accountId: string, req: KeyRequest, creatorScopes: readonly Scope[], actor: Actor): Promise<CreatedKey> {
    return this.commit(await this.prepare(accountId, req, creatorScopes), actor);
  }

  /** The slow half of create (argon2, ~10 ms) that writes nothing, so an idempotent caller can commit in its own transaction. */
  async prepare(accountId: string, req: KeyRequest, creatorScopes: readonly Scope[]): Promise<PreparedKey> {
    const name = checkKeyName(req.name);
    const scopes = grantScopes(this.scopes, req.scopes, creatorScopes);
    const expiresAt = checkExpiresAt(req.expires_at);
    const maxReportsPerDay = checkQuota(req.max_reports_per_day);
    const id = randomId(12);
    const secret = randomSecret();
    const secretHash = await this.auth.gate.run(() => hash(secret, argon2Options));
    return { id, name, accountId, secret, secretHash, scopes, expiresAt, maxReportsPerDay };
  }

  /** Stores a prepared key with its access_key.created event and returns it with its value. */
  async commit(p: PreparedKey, actor: Actor): Promise<CreatedKey> {
    const createdAt = Date.now();
    await this.keys.transaction(async () => {
      await this.keys.insert({
        id: p.id,
        accountId: p.accountId,
        name: p.name,
        secretHash: p.secretHash,
        secretCheck: this.auth.checker.of(p.secret),
        createdAt,
        scopes: formatScopes(this.scopes, p.scopes),
        expiresAt: p.expiresAt,
        maxReportsPerDay: p.maxReportsPerDay,
      });
      await this.audit.record(actor, "access_key.created", p.id, {
        name: p.name,
        scopes: p.scopes,
        expires_at: p.expiresAt === null ? null : new Date(p.expiresAt).toISOString(),
        max_reports_per_day: p.maxReportsPerDay,
      });
    });
    return {
      id: p.id,
      name: p.name,
      accountId: p.accountId,
      createdAt,
      scopes: p.scopes,
      expiresAt: p.expiresAt,
      maxReportsPerDay: p.maxReportsPerDay,
      value: `rg_${p.id}_${p.secret}`,
    };
  }

  /**
   * A new value for the same key id, scopes, expiry and quota. The old value keeps working for
   * `graceSeconds` (0: it stops at once) for the API; the key's dashboard sessions end at once (a session
   * does not know which value signed it in, and a rotation is often because a value leaked). Rotating
   * again within a grace period ends the older value at once.
   */
  async rotate(
    id: string,
    accountId: string,
    rawGrace: unknown,
    actor: Actor,
    callerScopes: readonly Scope[],
  ): Promise<{ key: KeyRow; value: string; previousValidUntil: number }> {
    const graceSeconds = checkGrace(rawGrace);
    await this.manageable(id, accountId, callerScopes, "rotate");
    const secret = randomSecret();
    const secretHash = await this.auth.gate.run(() => hash(secret, argon2Options));
    const at = Date.now();
    const previousValidUntil = at + graceSeconds * 1000;
    const key = await this.keys.transaction(async () => {
      if (!(await this.keys.rotate(id, accountId, { secretHash, secretCheck: this.auth.checker.of(secret), previousValidUntil, at })))
        throw notFound("access key", id);
      await this.keys.endSessions(id);
      await this.audit.record(actor, "access_key.rotated", id, { grace_seconds: graceSeconds }, at);
      return (await this.keys.get(id, accountId))!;
    });
    // Values verified before are re-checked against the stored hashes on every use; forget them here
    // anyway, so this process holds no more than it needs.
    if (graceSeconds === 0) this.auth.forget(id);
    return { key, value: `rg_${id}_${secret}`, previousValidUntil };
  }

  /** Sets (or with null removes) a key's daily quota. */
  async setQuota(id: string, accountId: string, raw: unknown, actor: Actor, callerScopes: readonly Scope[]): Promise<KeyRow> {
    const max = checkQuota(raw);
    return this.keys.transaction(async () => {
      await this.manageable(id, accountId, callerScopes, "change");
      if (!(await this.keys.setQuota(id, accountId, max))) throw notFound("access key", id);
      await this.audit.record(actor, "access_key.updated", id, { max_reports_per_day: max });
      return (await this.keys.get(id, accountId))!;
    });
  }

  /** The CLI's entry: creates the account on first use; full keys unless `scopes` narrows them. Recorded with actor "cli". */
  async createForAccount(accountName: string, keyName: unknown, opts: Omit<KeyRequest, "name"> = {}): Promise<CreatedKey> {
    const name = accountName.trim();
    if (!name || name.length > KEY_NAME_MAX) throw validationFailed(`account name must be 1 to ${KEY_NAME_MAX} characters`);
    const accountId = (await this.accounts.ensure(name)).id;
    return this.create(accountId, { ...opts, name: keyName }, this.scopes.all, { kind: "cli", accountId });
  }

  /** The id of an account by name; throws not_found for an unknown name. */
  async accountId(accountName: string): Promise<string> {
    const a = await this.accounts.findByName(accountName);
    if (!a) throw notFound("account", accountName);
    return a.id;
  }

  list(accountId?: string): Promise<KeyRow[]> {
    return this.keys.list(accountId);
  }

  /**
   * Deletes a key with its access_key.deleted event; takes effect at once. `by` is the caller: a key of
   * the account (which may delete only keys within its own scopes), or the admin CLI (any key).
   */
  async delete(id: string, by: { accountId: string; actor: Actor; scopes: readonly Scope[] } | "cli" = "cli"): Promise<void> {
    await this.keys.transaction(async () => {
      if (by !== "cli") await this.manageable(id, by.accountId, by.scopes, "delete");
      const owner = await this.keys.delete(id, by === "cli" ? undefined : by.accountId);
      if (!owner) throw notFound("access key", id);
      await this.audit.record(by === "cli" ? { kind: "cli", accountId: owner } : by.actor, "access_key.deleted", id);
    });
    this.auth.forget(id);
  }

  /**
   * A key manages only keys within its own scopes: rotating a broader key would hand its caller that
   * key's value, and deleting or re-limiting one would act with powers the caller lacks. 404 for a key
   * of another account (or none), 403 naming the scopes the caller lacks.
   */
  private async manageable(id: string, accountId: string, callerScopes: readonly Scope[], verb: string): Promise<KeyRow> {
    const key = await this.keys.get(id, accountId);
    if (!key) throw notFound("access key", id);
    const missing = parseScopes(key.scopes).filter((s) => !callerScopes.includes(s));
    if (missing.length)
      throw new AppError(
        "forbidden",
        `this access key cannot ${verb} key ${id}: that key holds ${missing.join(", ")}, which this key lacks. A key manages only keys within its own scopes; use a key that holds them`,
        { missing_scopes: missing },
      );
    return key;
  }

  /**
   * Records a failed dashboard sign-in: attributed to the account of the key id the value names, if
   * that key exists (its holders see attempts against it), else to no account (the operator's only).
   * The presented value is never stored, only the id it names.
   */
  async recordSignInFailure(presented: string, address: string): Promise<void> {
    const id = /^rg_([a-z2-9]{12})_/.exec(presented)?.[1];
    const row = id ? await this.keys.findSecret(id) : undefined;
    await this.audit.record(
      { kind: "anonymous", accountId: row?.accountId ?? null, address },
      "dashboard.sign_in_failed",
      row ? row.id : null,
    );
  }
}

export type { KeyRow };
