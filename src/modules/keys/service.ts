// Access keys: minting (API and CLI alike), listing, deletion and the authentication of each request.
import { hash, verify, type Options } from "@node-rs/argon2";
import { createHash } from "node:crypto";
import { notFound, validationFailed } from "../../lib/errors";
import { randomId, randomSecret } from "../../lib/ids";
import type { AccountsRepo } from "../accounts/repo";
import type { KeyRow, KeysRepo } from "./repo";

export interface Principal {
  keyId: string;
  accountId: string;
}

export interface CreatedKey {
  id: string;
  name: string;
  accountId: string;
  createdAt: number;
  /** The full key value: shown once, never stored. */
  value: string;
}

export interface PreparedKey {
  id: string;
  name: string;
  accountId: string;
  secret: string;
  secretHash: string;
}

const KEY_RE = /^rg_([a-z2-9]{12})_([A-Za-z0-9_-]{43})$/;
export const KEY_NAME_MAX = 100;
const TOUCH_EVERY_MS = 60_000;

// Argon2id (the const enum Algorithm.Argon2id) with the library's default costs: ~10 ms per hash here.
const argon2Options: Options = { algorithm: 2 };

/** Validates and normalises a key name; the same rule for the API and the CLI. */
export function checkKeyName(name: unknown): string {
  if (typeof name !== "string") throw validationFailed("name is required: a string naming what the key is for, e.g. \"billing-service\"", [{ field: "name", problem: "required string" }]);
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > KEY_NAME_MAX || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw validationFailed(`name must be 1 to ${KEY_NAME_MAX} printable characters`, [{ field: "name", problem: `1 to ${KEY_NAME_MAX} printable characters` }]);
  }
  return trimmed;
}

export class KeysService {
  /** sha256(key value) -> key id, for keys verified by argon2 once already. */
  private readonly verified = new Map<string, string>();
  private readonly lastTouched = new Map<string, number>();
  /** Verified against when the key id is unknown, so unknown ids and wrong secrets cost the same. */
  private readonly decoyHash: Promise<string>;

  constructor(
    private readonly keys: KeysRepo,
    private readonly accounts: AccountsRepo,
  ) {
    this.decoyHash = hash(randomSecret(), argon2Options);
  }

  async create(accountId: string, rawName: unknown): Promise<CreatedKey> {
    return this.commit(await this.prepare(accountId, rawName));
  }

  /** The slow half of create (argon2, ~10 ms) that writes nothing, so an idempotent caller can commit in its own transaction. */
  async prepare(accountId: string, rawName: unknown): Promise<PreparedKey> {
    const name = checkKeyName(rawName);
    const id = randomId(12);
    const secret = randomSecret();
    return { id, name, accountId, secret, secretHash: await hash(secret, argon2Options) };
  }

  /** Stores a prepared key (synchronously) and returns it with its value. */
  commit(p: PreparedKey): CreatedKey {
    const createdAt = Date.now();
    this.keys.insert({ id: p.id, accountId: p.accountId, name: p.name, secretHash: p.secretHash, createdAt, lastUsedAt: null });
    return { id: p.id, name: p.name, accountId: p.accountId, createdAt, value: `rg_${p.id}_${p.secret}` };
  }

  /** The CLI's entry: creates the account on first use. */
  async createForAccount(accountName: string, keyName: unknown): Promise<CreatedKey> {
    const name = accountName.trim();
    if (!name || name.length > KEY_NAME_MAX) throw validationFailed(`account name must be 1 to ${KEY_NAME_MAX} characters`);
    return this.create(this.accounts.ensure(name).id, keyName);
  }

  /** The id of an account by name; throws not_found for an unknown name. */
  accountId(accountName: string): string {
    const a = this.accounts.findByName(accountName);
    if (!a) throw notFound("account", accountName);
    return a.id;
  }

  list(accountId?: string): KeyRow[] {
    return this.keys.list(accountId);
  }

  /** Deletes a key of the account (any key when accountId is omitted: the admin CLI). Takes effect at once. */
  delete(id: string, accountId?: string): void {
    if (!this.keys.delete(id, accountId)) throw notFound("access key", id);
    for (const [digest, keyId] of this.verified) if (keyId === id) this.verified.delete(digest);
    this.lastTouched.delete(id);
  }

  /**
   * Resolves a presented key value to its principal, or null. argon2 runs once per key value;
   * later requests pay a SHA-256 and one indexed lookup that also notices keys deleted by another process.
   */
  async authenticate(presented: string | null | undefined, opts: { cachedOnly?: boolean } = {}): Promise<Principal | null> {
    if (!presented || presented.length > 200) return null;
    const digest = createHash("sha256").update(presented).digest("base64");
    const cachedId = this.verified.get(digest);
    if (cachedId) {
      const accountId = this.keys.accountOf(cachedId);
      if (accountId) return this.touch({ keyId: cachedId, accountId });
      this.verified.delete(digest);
      return null;
    }
    if (opts.cachedOnly) return null;
    const m = KEY_RE.exec(presented);
    const row = m ? this.keys.findSecret(m[1]!) : undefined;
    // Always pay one argon2 verification, so a wrong secret and an unknown id look the same from outside.
    const ok = await verify(row?.secretHash ?? (await this.decoyHash), m?.[2] ?? presented).catch(() => false);
    if (!ok || !row) return null;
    this.verified.set(digest, row.id);
    return this.touch({ keyId: row.id, accountId: row.accountId });
  }

  private touch(p: Principal): Principal {
    const now = Date.now();
    // last_used_at is informational: write it at most once a minute per key, not on every request.
    if (now - (this.lastTouched.get(p.keyId) ?? 0) >= TOUCH_EVERY_MS) {
      this.lastTouched.set(p.keyId, now);
      this.keys.touch(p.keyId, now);
    }
    return p;
  }
}

export type { KeyRow };
