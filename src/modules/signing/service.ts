// Signing identities: an account's PKCS#12 keys, checked on upload (pdf/signature/pkcs12.ts), stored
// with the private key sealed (AES-256-GCM under a key derived from the server secret and bound to the
// identity's id), never returned, and opened only in memory when a report is signed.
import { AppError, notFound } from "../../lib/errors";
import { newUuid, UUID_RE } from "../../lib/ids";
import type { PasswordSeal } from "../../lib/seal";
import { type CertificateSummary, certificateSummary } from "../../pdf/signature/certificate";
import { type SigningKey, signingKey } from "../../pdf/signature/cms";
import { IdentityProblem, PKCS12_MAX_BYTES, readPkcs12 } from "../../pdf/signature/pkcs12";
import type { Actor } from "../audit/model";
import type { AuditService } from "../audit/service";
import type { SigningIdentityRow, SigningRepo } from "./repo";

export interface SigningIdentity extends CertificateSummary {
  id: string;
  name: string;
  /** How many certificates the chain holds, the signer's included. */
  chainLength: number;
  createdAt: number;
}

const toIdentity = (r: SigningIdentityRow): SigningIdentity => ({
  id: r.id,
  name: r.name,
  subject: r.subject,
  issuer: r.issuer,
  commonName: r.commonName,
  serial: r.serial,
  notBefore: r.notBefore,
  notAfter: r.notAfter,
  sha256Fingerprint: r.sha256Fingerprint,
  chainLength: (JSON.parse(r.chain) as string[]).length,
  createdAt: r.createdAt,
});

/** base64 of at most PKCS12_MAX_BYTES, or undefined. */
function decodeP12(s: string): Uint8Array | undefined {
  const clean = s.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) return undefined;
  return Buffer.from(clean, "base64");
}

/** Opened keys kept for reuse (an import and a chain parse saved per signature), by identity id. */
const KEYS_KEPT = 64;

export class SigningService {
  /** Keyed by identity id; an entry is used only while the row still holds the same seal. */
  private readonly opened = new Map<string, { sealed: string; key: { key: SigningKey; name: string } }>();

  constructor(
    private readonly repo: SigningRepo,
    private readonly seal: PasswordSeal,
    private readonly audit: AuditService,
  ) {}

  /** Checks and stores a PKCS#12 identity. Throws 422 with the closed code of what is wrong with it. */
  async create(actor: Actor, input: { name: string; p12Base64: string; password: string }, now = Date.now()): Promise<SigningIdentity> {
    if (input.p12Base64.length > Math.ceil((PKCS12_MAX_BYTES * 4) / 3) + 4096)
      throw new AppError(
        "pkcs12_too_large",
        `p12_base64 holds more than ${PKCS12_MAX_BYTES} bytes: export only the signing key and its chain`,
      );
    const bytes = decodeP12(input.p12Base64);
    if (!bytes)
      throw new AppError("validation_failed", "p12_base64 is not valid base64", [{ field: "p12_base64", problem: "is not valid base64" }]);
    let material: Awaited<ReturnType<typeof readPkcs12>>;
    try {
      material = await readPkcs12(bytes, input.password, now);
    } catch (e) {
      if (e instanceof IdentityProblem)
        throw new AppError(e.code, e.message, [
          { field: e.code === "pkcs12_password_wrong" ? "password" : "p12_base64", problem: e.message },
        ]);
      throw e;
    }
    const id = newUuid();
    const summary = certificateSummary(material.chain[0]!);
    const row: SigningIdentityRow = {
      id,
      accountId: actor.accountId!,
      name: input.name,
      ...summary,
      chain: JSON.stringify(material.chain.map((c) => Buffer.from(c).toString("base64"))),
      sealedKey: this.seal.seal(id, { pkcs8: Buffer.from(material.keyPkcs8).toString("base64") }),
      createdAt: now,
    };
    material.keyPkcs8.fill(0);
    await this.repo.transaction(async () => {
      await this.repo.insert(row);
      await this.audit.record(
        actor,
        "signing_identity.created",
        id,
        { name: input.name, subject: summary.subject, sha256_fingerprint: summary.sha256Fingerprint },
        now,
      );
    });
    return toIdentity(row);
  }

  async list(accountId: string): Promise<SigningIdentity[]> {
    return (await this.repo.list(accountId)).map(toIdentity);
  }

  /** The account's identity; 404 for an unknown id or another account's. */
  async get(accountId: string, id: string): Promise<SigningIdentity> {
    const r = UUID_RE.test(id) ? await this.repo.get(id, accountId) : undefined;
    if (!r) throw notFound("signing identity", id);
    return toIdentity(r);
  }

  /** The account's identity by id, for options.signature; undefined when it has none such. */
  async identity(accountId: string, id: string): Promise<{ commonName: string } | undefined> {
    const r = UUID_RE.test(id) ? await this.repo.get(id, accountId) : undefined;
    return r && { commonName: r.commonName };
  }

  async delete(actor: Actor, id: string): Promise<void> {
    await this.repo.transaction(async () => {
      const r = UUID_RE.test(id) ? await this.repo.get(id, actor.accountId!) : undefined;
      if (!r || !(await this.repo.delete(id, actor.accountId!))) throw notFound("signing identity", id);
      await this.audit.record(actor, "signing_identity.deleted", id, { name: r.name, sha256_fingerprint: r.sha256Fingerprint });
    });
  }

  /**
   * The key of an identity for the sign step, opened in memory (and kept there, as a non-extractable
   * WebCrypto key, for the next reports); undefined when the identity is gone (or its seal cannot be
   * opened: another server secret). The row is read every time, so a deleted identity signs no more.
   */
  async key(id: string): Promise<{ key: SigningKey; name: string } | undefined> {
    const r = await this.repo.byId(id);
    if (!r) {
      this.opened.delete(id);
      return undefined;
    }
    const kept = this.opened.get(id);
    if (kept?.sealed === r.sealedKey) return kept.key;
    const opened = this.seal.open(id, r.sealedKey);
    if (!opened?.pkcs8) return undefined;
    const der = Buffer.from(opened.pkcs8, "base64");
    const chain = (JSON.parse(r.chain) as string[]).map((c) => new Uint8Array(Buffer.from(c, "base64")));
    try {
      const key = { key: await signingKey(der, chain), name: r.commonName };
      if (this.opened.size >= KEYS_KEPT) this.opened.delete(this.opened.keys().next().value!);
      this.opened.set(id, { sealed: r.sealedKey, key });
      return key;
    } finally {
      der.fill(0);
    }
  }
}
