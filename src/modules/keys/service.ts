// Access keys: minting (API and CLI alike), rotation, quotas, listing, deletion and the authentication
// of each request. Every change is written with its audit event in one transaction.

import { createHash } from "node:crypto";
import { hash, type Options, verify } from "@node-rs/argon2";
import type { Principal } from "../../access/principal";
import { ALL_SCOPES, type Scope } from "../../access/scopes";
import { AppError, notFound, validationFailed } from "../../lib/errors";
import { randomId, randomSecret } from "../../lib/ids";
import { storageFault } from "../../lib/storage";
import type { AccountsRepo } from "../accounts/repo";
import type { Actor } from "../audit/model";
import type { AuditService } from "../audit/service";
import { Argon2Gate } from "./argon2-gate";
import { KeyChecker } from "./check";
import { checkExpiresAt, checkGrace, checkQuota } from "./options";
import type { KeyRow, KeySecret, KeysRepo } from "./repo";
import { KeyRowCache } from "./row-cache";
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

const KEY_RE = /^rg_([a-z2-9]{12})_([A-Za-z0-9_-]{43})$/;
export const KEY_NAME_MAX = 100;
const TOUCH_EVERY_MS = 60_000;
/** Values argon2 rejected, remembered so a client repeating one (a forgotten cron job) costs no more argon2. */
const REJECTED_MAX = 10_000;

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

/** A verified value: its key, and the argon2 hash it matched (current or previous: tells a rotated-out value apart). */
interface Verified {
  keyId: string;
  secretHash: string;
}

export class KeysService {
  /** Rows of verified keys, kept while key changes are announced (PostgreSQL; row-cache.ts). */
  readonly rows = new KeyRowCache();
  /** sha256(key value) -> what it was verified as, for values verified by argon2 once already. */
  private readonly verified = new Map<string, Verified>();
  /** sha256(key value) of values argon2 rejected; oldest forgotten first. */
  private readonly rejected = new Set<string>();
  /** First verifications in progress, by sha256(key value): concurrent requests with one new key share one argon2 run. */
  private readonly pending = new Map<string, Promise<Principal | null>>();
  private readonly lastTouched = new Map<string, number>();
  /** Compared against when the key id is unknown, so an unknown id and a wrong secret cost the same. */
  private readonly decoyCheck: string;
  private readonly checker: KeyChecker;
  /** Where a failed last-used write (other than a storage fault) is reported; set by App. */
  onTouchError?: (e: unknown) => void;

  constructor(
    private readonly keys: KeysRepo,
    private readonly accounts: AccountsRepo,
    private readonly audit: AuditService,
    /** The data dir's auth pepper (loadAuthPepper); a random one suits a test's throw-away database. */
    pepper: string = randomSecret(),
    private readonly gate = new Argon2Gate(),
  ) {
    this.checker = new KeyChecker(pepper);
    this.decoyCheck = this.checker.of(randomSecret());
  }

  /** Creates a key; `creatorScopes` bounds what it may be granted (omitted scopes: exactly those). */
  async create(accountId: string, req: KeyRequest, creatorScopes: readonly Scope[], actor: Actor): Promise<CreatedKey> {
    return this.commit(await this.prepare(accountId, req, creatorScopes), actor);
  }

  /** The slow half of create (argon2, ~10 ms) that writes nothing, so an idempotent caller can commit in its own transaction. */
  async prepare(accountId: string, req: KeyRequest, creatorScopes: readonly Scope[]): Promise<PreparedKey> {
    const name = checkKeyName(req.name);
    const scopes = grantScopes(req.scopes, creatorScopes);
    const expiresAt = checkExpiresAt(req.expires_at);
    const maxReportsPerDay = checkQuota(req.max_reports_per_day);
    const id = randomId(12);
    const secret = randomSecret();
    const secretHash = await this.gate.run(() => hash(secret, argon2Options));
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
        secretCheck: this.checker.of(p.secret),
        createdAt,
        scopes: formatScopes(p.scopes),
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
    const secretHash = await this.gate.run(() => hash(secret, argon2Options));
    const at = Date.now();
    const previousValidUntil = at + graceSeconds * 1000;
    const key = await this.keys.transaction(async () => {
      if (!(await this.keys.rotate(id, accountId, { secretHash, secretCheck: this.checker.of(secret), previousValidUntil, at })))
        throw notFound("access key", id);
      await this.keys.endSessions(id);
      await this.audit.record(actor, "access_key.rotated", id, { grace_seconds: graceSeconds }, at);
      return (await this.keys.get(id, accountId))!;
    });
    // Values verified before are re-checked against the stored hashes on every use; forget them here
    // anyway, so this process holds no more than it needs.
    if (graceSeconds === 0) this.forget(id);
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
    return this.create(accountId, { ...opts, name: keyName }, ALL_SCOPES, { kind: "cli", accountId });
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
    this.forget(id);
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

  private forget(id: string) {
    this.rows.changed(id);
    for (const [digest, v] of this.verified) if (v.keyId === id) this.verified.delete(digest);
    this.lastTouched.delete(id);
  }

  /**
   * Resolves a presented key value to its principal, or null. The API and the dashboard's sign-in both
   * come here, so both get the same protection. What it costs:
   * - a value verified before: a SHA-256 and one indexed lookup, which also notices keys deleted, expired
   *   or rotated by any process (expiry holds to the millisecond, cache or not); with PostgreSQL the
   *   row is kept up to 1 s and dropped when another instance's change is announced (row-cache.ts);
   * - missing, malformed or over-long values, and values argon2 already rejected: nothing more;
   * - an unknown key id, an expired key or a wrong secret: one lookup and a 4-byte HMAC check (~2 µs), never argon2;
   * - a secret whose check matches (a valid key, first time): one argon2 verification, run at once;
   * - a key created before check values existed: argon2 at a paced rate (Argon2Gate), and its check
   *   value is stored on its first success.
   * Both values of a rotated key name the same id (rg_<id>_<secret>); during the grace the previous
   * secret's hash and check are kept next to the current ones.
   * With `cachedOnly`, only the first case can succeed (nothing is hashed beyond SHA-256).
   */
  async authenticate(presented: string | null | undefined, opts: { cachedOnly?: boolean } = {}): Promise<Principal | null> {
    if (!presented || presented.length > 200) return null;
    const digest = createHash("sha256").update(presented).digest("base64");
    const cached = this.verified.get(digest);
    if (cached) {
      const row = await this.rows.get(cached.keyId, (id) => this.keys.findSecret(id));
      const now = Date.now();
      if (row && live(row, now) && (row.secretHash === cached.secretHash || inGrace(row, now, cached.secretHash))) {
        return this.touch(principalOf(row));
      }
      this.verified.delete(digest);
      return null;
    }
    if (opts.cachedOnly || this.rejected.has(digest)) return null;
    const m = KEY_RE.exec(presented);
    if (!m) return null;
    const [, id, secret] = m as unknown as [string, string, string];
    const row = await this.keys.findSecret(id);
    // Unknown ids are refused here, without argon2: key ids are not secret (they are listed, and are
    // part of every key value), so an unknown id reveals nothing, and the decoy comparison makes it
    // cost what a wrong secret costs. An expired key is refused the same way.
    if (!row || !live(row, Date.now())) {
      this.checker.matches(secret, this.decoyCheck);
      return null;
    }
    const target = this.candidate(row, secret, Date.now());
    if (!target) return null;
    let first = this.pending.get(digest);
    if (!first) {
      first = this.verifyFirst(digest, row, target, secret).finally(() => this.pending.delete(digest));
      this.pending.set(digest, first);
    }
    return first;
  }

  /**
   * Which stored secret a presented one may be: the current, or during a rotation's grace the previous.
   * A usable check value decides without argon2; a secret without one (a key older than check values,
   * or rotated before its first use stored one) is a candidate to verify at the paced rate. A rotation
   * always stores the new secret's check, so at most one of the two can lack one. Undefined: refused here.
   */
  private candidate(row: KeySecret, secret: string, now: number): { hash: string; checked: boolean; current: boolean } | undefined {
    const previous = row.previousSecretHash && inGrace(row, now, row.previousSecretHash) ? row.previousSecretHash : undefined;
    const currentChecked = this.checker.usable(row.secretCheck);
    const previousChecked = this.checker.usable(row.previousSecretCheck);
    if (currentChecked && this.checker.matches(secret, row.secretCheck!)) return { hash: row.secretHash, checked: true, current: true };
    if (previous && previousChecked && this.checker.matches(secret, row.previousSecretCheck!))
      return { hash: previous, checked: true, current: false };
    if (!currentChecked) return { hash: row.secretHash, checked: false, current: true };
    if (previous && !previousChecked) return { hash: previous, checked: false, current: false };
    return undefined;
  }

  private async verifyFirst(
    digest: string,
    row: KeySecret,
    target: { hash: string; checked: boolean; current: boolean },
    secret: string,
  ): Promise<Principal | null> {
    const check = () => verify(target.hash, secret).catch(() => false);
    const ok = target.checked ? await this.gate.run(check) : await this.gate.paced(check);
    if (ok === undefined) return null; // too many unchecked guesses waiting: refused, not remembered
    if (!ok) {
      this.rememberRejected(digest);
      return null;
    }
    // Only the current secret's check is stored: the previous one stops working when its grace ends.
    if (!target.checked && target.current) await this.keys.setCheck(row.id, this.checker.of(secret));
    // The key may have been deleted, rotated or have expired while argon2 ran.
    const now = Date.now();
    const fresh = await this.keys.findSecret(row.id);
    if (!fresh || !live(fresh, now) || !(fresh.secretHash === target.hash || inGrace(fresh, now, target.hash))) return null;
    this.verified.set(digest, { keyId: row.id, secretHash: target.hash });
    return this.touch(principalOf(fresh));
  }

  private rememberRejected(digest: string) {
    if (this.rejected.size >= REJECTED_MAX) this.rejected.delete(this.rejected.values().next().value!);
    this.rejected.add(digest);
  }

  private touch(p: Principal): Principal {
    const now = Date.now();
    // last_used_at is informational: write it at most once a minute per key, not on every request.
    if (now - (this.lastTouched.get(p.keyId) ?? 0) >= TOUCH_EVERY_MS) {
      this.lastTouched.set(p.keyId, now);
      // Informational only, and not awaited: a full or read-only disk must not refuse reads and downloads.
      this.keys.touch(p.keyId, now).catch((e: unknown) => {
        if (!storageFault(e)) this.onTouchError?.(e);
      });
    }
    return p;
  }
}

/** Not expired at `now`: a key stops at its expires_at exactly. */
const live = (row: KeySecret, now: number) => row.expiresAt === null || now < row.expiresAt;

/** Whether `secretHash` is the key's previous secret and its grace period still runs. */
const inGrace = (row: KeySecret, now: number, secretHash: string) =>
  row.previousSecretHash === secretHash && row.previousValidUntil !== null && now < row.previousValidUntil;

const principalOf = (row: KeySecret): Principal => ({
  keyId: row.id,
  accountId: row.accountId,
  scopes: parseScopes(row.scopes),
  maxReportsPerDay: row.maxReportsPerDay,
});

export type { KeyRow };
