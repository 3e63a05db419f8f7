// Access keys: minting (API and CLI alike), listing, deletion and the authentication of each request.

import { createHash } from "node:crypto";
import { hash, type Options, verify } from "@node-rs/argon2";
import { notFound, validationFailed } from "../../lib/errors";
import { randomId, randomSecret } from "../../lib/ids";
import { storageFault } from "../../lib/storage";
import type { AccountsRepo } from "../accounts/repo";
import { Argon2Gate } from "./argon2-gate";
import { KeyChecker } from "./check";
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

export class KeysService {
  /** sha256(key value) -> key id, for keys verified by argon2 once already. */
  private readonly verified = new Map<string, string>();
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
    /** The data dir's auth pepper (loadAuthPepper); a random one suits a test's throw-away database. */
    pepper: string = randomSecret(),
    private readonly gate = new Argon2Gate(),
  ) {
    this.checker = new KeyChecker(pepper);
    this.decoyCheck = this.checker.of(randomSecret());
  }

  async create(accountId: string, rawName: unknown): Promise<CreatedKey> {
    return this.commit(await this.prepare(accountId, rawName));
  }

  /** The slow half of create (argon2, ~10 ms) that writes nothing, so an idempotent caller can commit in its own transaction. */
  async prepare(accountId: string, rawName: unknown): Promise<PreparedKey> {
    const name = checkKeyName(rawName);
    const id = randomId(12);
    const secret = randomSecret();
    return { id, name, accountId, secret, secretHash: await this.gate.run(() => hash(secret, argon2Options)) };
  }

  /** Stores a prepared key and returns it with its value. */
  async commit(p: PreparedKey): Promise<CreatedKey> {
    const createdAt = Date.now();
    await this.keys.insert({
      id: p.id,
      accountId: p.accountId,
      name: p.name,
      secretHash: p.secretHash,
      secretCheck: this.checker.of(p.secret),
      createdAt,
      lastUsedAt: null,
    });
    return { id: p.id, name: p.name, accountId: p.accountId, createdAt, value: `rg_${p.id}_${p.secret}` };
  }

  /** The CLI's entry: creates the account on first use. */
  async createForAccount(accountName: string, keyName: unknown): Promise<CreatedKey> {
    const name = accountName.trim();
    if (!name || name.length > KEY_NAME_MAX) throw validationFailed(`account name must be 1 to ${KEY_NAME_MAX} characters`);
    return this.create((await this.accounts.ensure(name)).id, keyName);
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

  /** Deletes a key of the account (any key when accountId is omitted: the admin CLI). Takes effect at once. */
  async delete(id: string, accountId?: string): Promise<void> {
    if (!(await this.keys.delete(id, accountId))) throw notFound("access key", id);
    for (const [digest, keyId] of this.verified) if (keyId === id) this.verified.delete(digest);
    this.lastTouched.delete(id);
  }

  /**
   * Resolves a presented key value to its principal, or null. The API and the dashboard's sign-in both
   * come here, so both get the same protection. What it costs:
   * - a key verified before: a SHA-256 and one indexed lookup (which also notices keys deleted by another process);
   * - missing, malformed or over-long values, and values argon2 already rejected: nothing more;
   * - an unknown key id or a wrong secret: one lookup and a 4-byte HMAC check (~2 µs), never argon2;
   * - a secret whose check matches (a valid key, first time): one argon2 verification, run at once;
   * - a key created before check values existed: argon2 at a paced rate (Argon2Gate), and its check
   *   value is stored on its first success.
   * With `cachedOnly`, only the first case can succeed (nothing is hashed beyond SHA-256).
   */
  async authenticate(presented: string | null | undefined, opts: { cachedOnly?: boolean } = {}): Promise<Principal | null> {
    if (!presented || presented.length > 200) return null;
    const digest = createHash("sha256").update(presented).digest("base64");
    const cachedId = this.verified.get(digest);
    if (cachedId) {
      const accountId = await this.keys.accountOf(cachedId);
      if (accountId) return this.touch({ keyId: cachedId, accountId });
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
    // cost what a wrong secret costs.
    if (!row) {
      this.checker.matches(secret, this.decoyCheck);
      return null;
    }
    const checked = this.checker.usable(row.secretCheck);
    if (checked && !this.checker.matches(secret, row.secretCheck!)) return null;
    let first = this.pending.get(digest);
    if (!first) {
      first = this.verifyFirst(digest, row, secret, checked).finally(() => this.pending.delete(digest));
      this.pending.set(digest, first);
    }
    return first;
  }

  private async verifyFirst(
    digest: string,
    row: { id: string; accountId: string; secretHash: string },
    secret: string,
    checked: boolean,
  ): Promise<Principal | null> {
    const check = () => verify(row.secretHash, secret).catch(() => false);
    const ok = checked ? await this.gate.run(check) : await this.gate.paced(check);
    if (ok === undefined) return null; // too many unchecked guesses waiting: refused, not remembered
    if (!ok) {
      this.rememberRejected(digest);
      return null;
    }
    if (!checked) await this.keys.setCheck(row.id, this.checker.of(secret));
    // The key may have been deleted while argon2 ran.
    const accountId = await this.keys.accountOf(row.id);
    if (!accountId) return null;
    this.verified.set(digest, row.id);
    return this.touch({ keyId: row.id, accountId });
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

export type { KeyRow };
