// Signed, expiring download links, like presigned S3 URLs: HMAC-SHA256 over the report id and expiry.
import { createHmac, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomSecret } from "../../lib/ids";

export const FILES_PREFIX = "/files";

/** The configured secret, or one generated once into the data dir (readable by the service user only). */
export function loadLinkSecret(dataDir: string, configured: string): string {
  if (configured) return configured;
  const file = join(dataDir, "link-secret");
  if (!existsSync(file)) writeFileSync(file, `${randomSecret()}\n`, { mode: 0o600, flag: "wx" });
  return readFileSync(file, "utf8").trim();
}

export class LinkSigner {
  constructor(
    private readonly secret: string,
    private readonly ttlMs: number,
  ) {}

  /** The PDF's links sign `<id>.<expires>`; the e-invoice XML's `<id>.xml.<expires>`: one cannot stand for the other. */
  private sign(subject: string, expires: number): string {
    return createHmac("sha256", this.secret).update(`${subject}.${expires}`).digest("base64url");
  }

  /** An absolute link to the report's PDF, valid for the configured time. */
  link(origin: string, reportId: string, now = Date.now()): { url: string; expiresAt: number } {
    const expires = Math.floor((now + this.ttlMs) / 1000);
    return {
      url: `${origin}${FILES_PREFIX}/${reportId}?expires=${expires}&signature=${this.sign(reportId, expires)}`,
      expiresAt: expires * 1000,
    };
  }

  /** An absolute link to the report's e-invoice XML (GET /files/{id}/e-invoice), valid as long as a PDF link. */
  xmlLink(origin: string, reportId: string, now = Date.now()): { url: string; expiresAt: number } {
    const expires = Math.floor((now + this.ttlMs) / 1000);
    return {
      url: `${origin}${FILES_PREFIX}/${reportId}/e-invoice?expires=${expires}&signature=${this.sign(`${reportId}.xml`, expires)}`,
      expiresAt: expires * 1000,
    };
  }

  /** Whether a link's parts are authentic and unexpired (`xml`: an e-invoice XML link). */
  verify(reportId: string, expires: string | undefined, signature: string | undefined, now = Date.now(), xml = false): boolean {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return false;
    const expected = Buffer.from(this.sign(xml ? `${reportId}.xml` : reportId, Number(expires)));
    const given = Buffer.from(signature);
    const authentic = expected.length === given.length && timingSafeEqual(expected, given);
    return authentic && Number(expires) * 1000 > now;
  }
}
