// Dashboard sessions: an access key, verified once, is exchanged for an opaque random session id.
// The browser holds only that id (in an HttpOnly cookie); the server stores only its SHA-256, with
// the key it came from, a CSRF token, and idle and absolute expiries.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Principal } from "../access/principal";
import type { Actor } from "../modules/audit/model";
import type { AuditService } from "../modules/audit/service";
import { parseScopes } from "../modules/keys/scopes";
import type { SessionsRepo } from "./sessions-repo";

export interface Session extends Principal {
  idHash: string;
  csrfToken: string;
  expiresAt: number;
}

export interface SessionTimes {
  idleMs: number;
  maxAgeMs: number;
}

// last_seen_at is written at most this often per session: the idle expiry is minutes, not milliseconds.
const TOUCH_EVERY_MS = 15_000;

const digest = (id: string) => createHash("sha256").update(id).digest("base64url");
const token = () => randomBytes(32).toString("base64url");

export class SessionsService {
  constructor(
    private readonly repo: SessionsRepo,
    private readonly times: SessionTimes,
    private readonly audit: AuditService,
  ) {}

  /**
   * Starts a session for a verified key; returns the id for the cookie (never stored). With `actor`
   * (a sign-in), the session and its dashboard.sign_in event are written together.
   */
  async create(p: Principal, actor?: Actor, now = Date.now()): Promise<{ id: string; session: Session }> {
    await this.repo.deleteExpired(now, now - this.times.idleMs);
    const id = token();
    const row = {
      idHash: digest(id),
      keyId: p.keyId,
      accountId: p.accountId,
      csrfToken: token(),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: now + this.times.maxAgeMs,
    };
    await this.repo.transaction(async () => {
      await this.repo.insert(row);
      if (actor) await this.audit.record(actor, "dashboard.sign_in", p.keyId, undefined, now);
    });
    return {
      id,
      session: {
        keyId: row.keyId,
        accountId: row.accountId,
        scopes: p.scopes,
        maxReportsPerDay: p.maxReportsPerDay,
        idHash: row.idHash,
        csrfToken: row.csrfToken,
        expiresAt: row.expiresAt,
      },
    };
  }

  /**
   * The live session for a cookie value, or null. Its row is gone once its key is deleted (foreign
   * key cascade, from this process or the CLI), and it ends the moment its key expires, so this lookup
   * on every request is the key check too.
   */
  async resolve(id: string | undefined, now = Date.now()): Promise<Session | null> {
    if (!id || id.length > 100) return null;
    const idHash = digest(id);
    const row = await this.repo.get(idHash);
    if (!row) return null;
    const keyExpired = row.keyExpiresAt !== null && row.keyExpiresAt <= now;
    if (row.expiresAt <= now || row.lastSeenAt + this.times.idleMs <= now || keyExpired) {
      await this.repo.delete(idHash);
      return null;
    }
    if (now - row.lastSeenAt >= TOUCH_EVERY_MS) await this.repo.touch(idHash, now);
    return {
      keyId: row.keyId,
      accountId: row.accountId,
      scopes: parseScopes(row.keyScopes),
      maxReportsPerDay: row.keyMaxReportsPerDay,
      idHash,
      csrfToken: row.csrfToken,
      expiresAt: row.expiresAt,
    };
  }

  end(session: Session): Promise<void> {
    return this.repo.delete(session.idHash);
  }

  /** Constant-time comparison of a submitted CSRF token with the session's. */
  static tokenMatches(session: Session, submitted: unknown): boolean {
    if (typeof submitted !== "string") return false;
    const a = Buffer.from(session.csrfToken);
    const b = Buffer.from(submitted);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
