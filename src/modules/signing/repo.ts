// SQL for signing identities. The private key column holds only its seal (service.ts).
import { newestFirst } from "../../db/newest-first";
import type { Sql } from "../../db/sql";

export interface SigningIdentityRow {
  id: string;
  accountId: string;
  name: string;
  commonName: string;
  subject: string;
  issuer: string;
  serial: string;
  notBefore: number;
  notAfter: number;
  sha256Fingerprint: string;
  /** JSON array of base64 DER certificates, the signer's first. */
  chain: string;
  sealedKey: string;
  createdAt: number;
}

const columns = `id, account_id AS "accountId", name, common_name AS "commonName", subject, issuer, serial,
  not_before AS "notBefore", not_after AS "notAfter", sha256_fingerprint AS "sha256Fingerprint", chain,
  sealed_key AS "sealedKey", created_at AS "createdAt"`;

export class SigningRepo {
  constructor(private readonly sql: Sql) {}

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.sql.tx(fn);
  }

  async insert(r: SigningIdentityRow): Promise<void> {
    await this.sql.run(
      `INSERT INTO signing_identities (id, account_id, name, common_name, subject, issuer, serial, not_before, not_after,
         sha256_fingerprint, chain, sealed_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        r.id,
        r.accountId,
        r.name,
        r.commonName,
        r.subject,
        r.issuer,
        r.serial,
        r.notBefore,
        r.notAfter,
        r.sha256Fingerprint,
        r.chain,
        r.sealedKey,
        r.createdAt,
      ],
    );
  }

  /** The account's identity; undefined for an unknown id or another account's. */
  get(id: string, accountId: string): Promise<SigningIdentityRow | undefined> {
    return this.sql.get<SigningIdentityRow>(`SELECT ${columns} FROM signing_identities WHERE id = $1 AND account_id = $2`, [id, accountId]);
  }

  /** An identity by its id alone: the report processor's, for a report whose account was checked when it was accepted. */
  byId(id: string): Promise<SigningIdentityRow | undefined> {
    return this.sql.get<SigningIdentityRow>(`SELECT ${columns} FROM signing_identities WHERE id = $1`, [id]);
  }

  /** The account's identities, newest first. */
  list(accountId: string): Promise<SigningIdentityRow[]> {
    return newestFirst<SigningIdentityRow>(this.sql, `SELECT ${columns} FROM signing_identities`, { accountId });
  }

  /** Removes the account's identity; false when there was none. */
  async delete(id: string, accountId: string): Promise<boolean> {
    return (await this.sql.run("DELETE FROM signing_identities WHERE id = $1 AND account_id = $2", [id, accountId])) > 0;
  }
}
