// The hot path of access keys: turning a presented value into its principal on every API request and
// dashboard sign-in, with what keeps that cheap (values verified before, values argon2 rejected, first
// verifications in flight, the rows of verified keys, when each key's last use was written). Key
// management (service.ts) tells it which keys changed, and shares its check values and argon2 gate.

import { createHash } from "node:crypto";
import { verify } from "@node-rs/argon2";
import type { Principal } from "../../access/principal";
import { randomSecret } from "../../lib/ids";
import type { Logger } from "../../lib/logger";
import { type StorageFault, storageFault } from "../../lib/storage";
import { Argon2Gate } from "./argon2-gate";
import { KeyChecker } from "./check";
import type { KeySecret, KeysRepo } from "./repo";
import { KeyRowCache } from "./row-cache";
import { parseScopes } from "./scopes";

const KEY_RE = /^rg_([a-z2-9]{12})_([A-Za-z0-9_-]{43})$/;
const TOUCH_EVERY_MS = 60_000;
/** Values argon2 rejected, remembered so a client repeating one (a forgotten cron job) costs no more argon2. */
const REJECTED_MAX = 10_000;

/** Why a last-used write failed: a storage fault of the data dir, or anything else (a database outage, a bug). */
export type TouchFailure = StorageFault | "other";

/** A verified value: its key, and the argon2 hash it matched (current or previous: tells a rotated-out value apart). */
interface Verified {
  keyId: string;
  secretHash: string;
}

export interface KeyAuthenticatorOptions {
  /** The data dir's auth pepper (loadAuthPepper); a random one suits a test's throw-away database. */
  pepper?: string;
  gate?: Argon2Gate;
  /** Hears of every last-used write that failed (a request is still answered: the write is informational). */
  logger: Logger;
}

export class KeyAuthenticator {
  /** Rows of verified keys, kept while key changes are announced (PostgreSQL; row-cache.ts). */
  readonly rows = new KeyRowCache();
  /** Check values of secrets (check.ts): key management stores one with every new secret. */
  readonly checker: KeyChecker;
  /** One argon2 budget for the process: verifications here, hashing of new secrets in key management. */
  readonly gate: Argon2Gate;
  /** Last-used writes that failed since start, by cause: /metrics counts them (reportgen_key_last_used_failures_total). */
  readonly touchFailures: Record<TouchFailure, number> = { full: 0, read_only: 0, io: 0, other: 0 };
  /** sha256(key value) -> what it was verified as, for values verified by argon2 once already. */
  private readonly verified = new Map<string, Verified>();
  /** sha256(key value) of values argon2 rejected; oldest forgotten first. */
  private readonly rejected = new Set<string>();
  /** First verifications in progress, by sha256(key value): concurrent requests with one new key share one argon2 run. */
  private readonly pending = new Map<string, Promise<Principal | null>>();
  private readonly lastTouched = new Map<string, number>();
  /** Compared against when the key id is unknown, so an unknown id and a wrong secret cost the same. */
  private readonly decoyCheck: string;
  private readonly logger: Logger;

  constructor(
    private readonly keys: KeysRepo,
    opts: KeyAuthenticatorOptions,
  ) {
    this.checker = new KeyChecker(opts.pepper ?? randomSecret());
    this.gate = opts.gate ?? new Argon2Gate();
    this.logger = opts.logger;
    this.decoyCheck = this.checker.of(randomSecret());
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

  /** Key management changed or deleted key `id`: drop what is kept of it (its values are re-checked anyway). */
  forget(id: string): void {
    this.rows.changed(id);
    for (const [digest, v] of this.verified) if (v.keyId === id) this.verified.delete(digest);
    this.lastTouched.delete(id);
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
      // Not awaited, and a failure refuses nothing: a full or read-only disk must not refuse reads and
      // downloads. It is said and counted (at most once a minute per key: the next try waits as a write would).
      this.keys.touch(p.keyId, now).catch((e: unknown) => this.touchFailed(p.keyId, e));
    }
    return p;
  }

  private touchFailed(keyId: string, e: unknown) {
    const cause: TouchFailure = storageFault(e) ?? "other";
    this.touchFailures[cause]++;
    // A warning for a full or failing disk (the disk's state, not a defect), an error for anything else.
    this.logger[cause === "other" ? "error" : "warn"](
      "the last use of an access key was not recorded (requests with it are still served)",
      {
        key_id: keyId,
        cause,
        error: e,
      },
    );
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
