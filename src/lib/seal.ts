// Sealing a report's PDF passwords while it waits in the queue (options.encryption). The database holds
// only AES-256-GCM ciphertext whose key is derived from the server secret (the link secret: in the
// data dir or the operator's setting, never in the database) and bound to the report's id, so a copy
// of the database reveals no password, a sealed value cannot be moved to another report, and a retry
// after a crash or on another instance opens it again. The seal is deleted with the report's input
// when the report finishes (succeeded or failed). The private keys of signing identities are sealed the
// same way under a key of their own purpose, bound to the identity's id.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

const VERSION = "s1";

export class PasswordSeal {
  private readonly key: Buffer;

  /** `purpose` derives a key of its own from the one server secret for each kind of sealed value. */
  constructor(serverSecret: string | Uint8Array, purpose = "reportgen pdf passwords v1") {
    this.key = createHmac("sha256", serverSecret).update(purpose).digest();
  }

  /** The sealed form of `secrets` for report `reportId`: "s1.<iv>.<ciphertext+tag>" in base64url. */
  seal(reportId: string, secrets: Record<string, string>): string {
    const iv = randomBytes(12);
    const c = createCipheriv("aes-256-gcm", this.key, iv);
    c.setAAD(Buffer.from(reportId));
    const body = Buffer.concat([c.update(JSON.stringify(secrets), "utf8"), c.final(), c.getAuthTag()]);
    return `${VERSION}.${iv.toString("base64url")}.${body.toString("base64url")}`;
  }

  /** The secrets sealed for `reportId`, or undefined when they cannot be opened (another server secret, another report). */
  open(reportId: string, sealed: string): Record<string, string> | undefined {
    const [v, iv, body] = sealed.split(".");
    if (v !== VERSION || !iv || !body) return undefined;
    try {
      const raw = Buffer.from(body, "base64url");
      const d = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
      d.setAAD(Buffer.from(reportId));
      d.setAuthTag(raw.subarray(raw.length - 16));
      const clear = Buffer.concat([d.update(raw.subarray(0, raw.length - 16)), d.final()]).toString("utf8");
      return JSON.parse(clear) as Record<string, string>;
    } catch {
      return undefined;
    }
  }
}
