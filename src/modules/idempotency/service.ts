// Idempotency keys with Stripe's semantics, for the POST routes that create something (reports, merges,
// templates, access keys).
//
// - A record belongs to the access key that made it (Stripe scopes them to the API key too): only that
//   key is answered from it. Another key of the same account sending the same Idempotency-Key is a
//   fresh request with its own record, never the stored answer, which may hold a new key's value or a
//   report the other key could not have made. A rotated key keeps its id, so its records go on with it.
// - A record lives 24 hours from its first successful use.
// - The same key with the same request (method, path and JSON body, compared canonically so key
//   order and whitespace do not matter) answers the stored response again, with Idempotent-Replayed: true.
// - The same key with a different request answers 422 idempotency_key_reused.
// - Only a successful (2xx) response is stored. A request that fails (validation, queue full, ...)
//   leaves the key unused, so the client can fix the cause and retry with the same key.
// - Concurrent duplicates: the check and the commit of the operation and of its record happen in one
//   transaction, and the unique (account, key hash) index lets exactly one commit; the others see its
//   record and replay it. Records are rows, so they survive restarts.
//
// Nothing in a record can be read or guessed from the database alone (a backup, a copy): the
// Idempotency-Key and the request's fingerprint are stored only as HMACs under the server secret (a
// plain hash of a body would let anyone holding the database test guesses of a password in it), and the
// stored response, which for POST /access-keys holds a new key value reportgen otherwise never stores,
// is encrypted with AES-256-GCM under a key derived from the server secret, the access key's id and the
// Idempotency-Key itself.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { AppError } from "../../lib/errors";
import type { IdempotencyRepo } from "./repo";

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
export const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,255}$/;

/** A response as stored and replayed. */
export interface StoredResponse<B = unknown> {
  status: number;
  headers: Record<string, string>;
  body: B;
}

export interface IdempotentResult<B> extends StoredResponse<B> {
  replayed: boolean;
}

/** JSON with object keys sorted at every level: equal requests give equal text. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/** What `run` needs to know of a request. */
export interface IdempotentRequest {
  accountId: string;
  accessKeyId: string;
  /** The Idempotency-Key header, if sent. */
  key: string | undefined;
  method: string;
  path: string;
  body: unknown;
}

/** The idempotent request of a route's context: the caller's key, its Idempotency-Key, the POST and its body. */
export const idempotentRequest = (c: {
  principal: { accountId: string; keyId: string };
  headers: Record<string, string | undefined>;
  request: Request;
  body: unknown;
}): IdempotentRequest => ({
  accountId: c.principal.accountId,
  accessKeyId: c.principal.keyId,
  key: c.headers["idempotency-key"],
  method: "POST",
  path: new URL(c.request.url).pathname,
  body: c.body,
});

export class IdempotencyService {
  constructor(
    private readonly repo: IdempotencyRepo,
    /** Server secret mixed into the response-encryption key (the link secret). */
    private readonly serverSecret: string,
  ) {}

  /**
   * Runs an operation at most once per (access key, Idempotency-Key). `prepare` does the slow,
   * side-effect-free part (hashing a new key's secret); `commit` writes inside the transaction that also
   * stores the response. Without an Idempotency-Key it simply runs both.
   */
  async run<P, B>(
    req: IdempotentRequest,
    prepare: () => Promise<P> | P,
    commit: (prepared: P) => Promise<StoredResponse<B>>,
  ): Promise<IdempotentResult<B>> {
    if (req.key === undefined) return { ...(await commit(await prepare())), replayed: false };
    const key = req.key;
    if (!IDEMPOTENCY_KEY_RE.test(key)) {
      throw new AppError(
        "invalid_idempotency_key",
        "Idempotency-Key must be 1 to 255 printable ASCII characters without spaces; a UUID v4 is recommended",
      );
    }
    const mac = (purpose: string, text: string) =>
      createHmac("sha256", this.serverSecret).update(`reportgen idempotency v2 ${purpose}\0${req.accessKeyId}\0${key}\0${text}`);
    const keyHash = mac("key", "").digest("base64url");
    const fingerprint = mac("request", `${req.method} ${req.path}\n${canonicalJson(req.body)}`).digest("base64url");
    const cipherKey = mac("response", req.accountId).digest();

    // Fast path for a plain retry: no need to prepare anything.
    const early = await this.replay<B>(req.accountId, keyHash, fingerprint, cipherKey);
    if (early) return early;
    const prepared = await prepare();
    try {
      return await this.repo.transaction(async () => {
        // A duplicate may have committed while we prepared: the first to commit wins, the rest replay it.
        const existing = await this.replay<B>(req.accountId, keyHash, fingerprint, cipherKey);
        if (existing) return existing;
        const response = await commit(prepared);
        if (response.status >= 200 && response.status <= 299) {
          const now = Date.now();
          const stored = encrypt(cipherKey, JSON.stringify(response));
          // The unique (account, key) index decides between requests racing with one key (on two
          // instances, say): the loser's transaction rolls back its operation, then it replays the winner.
          if (!(await this.repo.insert(req.accountId, keyHash, fingerprint, stored, now, now - IDEMPOTENCY_TTL_MS))) throw new LostRace();
        }
        return { ...response, replayed: false };
      });
    } catch (e) {
      if (!(e instanceof LostRace)) throw e;
      const winner = await this.replay<B>(req.accountId, keyHash, fingerprint, cipherKey);
      if (!winner) throw e;
      return winner;
    }
  }

  private async replay<B>(
    accountId: string,
    keyHash: string,
    fingerprint: string,
    cipherKey: Buffer,
  ): Promise<IdempotentResult<B> | undefined> {
    const row = await this.repo.find(accountId, keyHash, Date.now() - IDEMPOTENCY_TTL_MS);
    if (!row) return undefined;
    if (row.fingerprint !== fingerprint) {
      throw new AppError(
        "idempotency_key_reused",
        "this Idempotency-Key was already used with a different request (endpoint or body) in the last 24 hours; use a new key for a new request",
      );
    }
    const plain = decrypt(cipherKey, row.response);
    if (plain === undefined) {
      // Only if the server secret (--link-secret) changed since the first request.
      throw new AppError(
        "idempotency_replay_unavailable",
        "the stored response of this Idempotency-Key can no longer be read (the server's secret changed); use a new key",
      );
    }
    return { ...(JSON.parse(plain) as StoredResponse<B>), replayed: true };
  }

  /** Removes records past their 24 hours; the cleanup job calls it. */
  purgeExpired(now = Date.now()): Promise<number> {
    return this.repo.purge(now - IDEMPOTENCY_TTL_MS);
  }
}

/** Another request with the same Idempotency-Key committed first: this one's transaction rolls back. */
class LostRace extends Error {}

function encrypt(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), body]).toString("base64");
}

function decrypt(key: Buffer, stored: string): string | undefined {
  try {
    const buf = Buffer.from(stored, "base64");
    const d = createDecipheriv("aes-256-gcm", key, buf.subarray(0, 12));
    d.setAuthTag(buf.subarray(12, 28));
    return Buffer.concat([d.update(buf.subarray(28)), d.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
