// Key check values: a short HMAC of each key's secret under a server-side pepper, stored next to the
// argon2 hash. Comparing it costs microseconds, so nearly every wrong secret is refused without argon2
// (~10 ms of CPU at the library's defaults: tests/security/keys.test.ts times both). It is short on purpose: 32 bits cannot stand in for the argon2 hash (a matching check only
// sends the guess on to argon2), and without the pepper nobody can compute which guesses would match.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomSecret } from "../../lib/ids";

const CHECK_BYTES = 4;

/** The pepper of this data dir: generated once into <data-dir>/auth-pepper (readable by the service user only). */
export function loadAuthPepper(dataDir: string): string {
  const file = join(dataDir, "auth-pepper");
  if (!existsSync(file)) {
    try {
      writeFileSync(file, `${randomSecret()}\n`, { mode: 0o600, flag: "wx" });
    } catch (e) {
      // The CLI and the server may start at the same moment: the first writer wins, both read its value.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  return readFileSync(file, "utf8").trim();
}

export class KeyChecker {
  /** Names the pepper in each stored value, so values made under another pepper (a data dir restored without its auth-pepper file) are recognised as unusable rather than as wrong. */
  private readonly pepperId: string;

  constructor(private readonly pepper: string) {
    this.pepperId = createHash("sha256").update(pepper).digest("base64url").slice(0, 6);
  }

  /** The value stored for a secret: `<pepper id>.<check>`. */
  of(secret: string): string {
    return `${this.pepperId}.${createHmac("sha256", this.pepper).update(secret).digest().subarray(0, CHECK_BYTES).toString("base64url")}`;
  }

  /** Whether a stored value was made under this pepper (else the key is verified by argon2 alone, and re-checked). */
  usable(stored: string | null): stored is string {
    return typeof stored === "string" && stored.startsWith(`${this.pepperId}.`);
  }

  /** Constant-time comparison of a presented secret's check with the stored one. */
  matches(secret: string, stored: string): boolean {
    const a = Buffer.from(this.of(secret));
    const b = Buffer.from(stored);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
