// Reading a PKCS#12 (.p12/.pfx) file: its private key and certificate chain, checked for what a
// PAdES signature needs. PKI.js does the PKCS#12 structures and their password-based decryption
// (PBES2 with AES, what OpenSSL 3 and current Windows write), on the runtime's WebCrypto; node:crypto
// checks the key (type, size, curve) and that it belongs to the certificate. Nothing here touches the
// disk: the clear key only lives in memory, and leaves this module only to be sealed.
import { createPrivateKey, X509Certificate } from "node:crypto";
import type * as pkijs from "pkijs";
import { certificateChain } from "./chain";

/** The largest PKCS#12 upload accepted, in bytes. */
export const PKCS12_MAX_BYTES = 2 * 1024 * 1024;

/** Why a PKCS#12 file cannot be a signing identity; `code` is an API error code (422). */
export type IdentityProblemCode =
  | "pkcs12_too_large"
  | "pkcs12_unreadable"
  | "pkcs12_password_wrong"
  | "pkcs12_no_private_key"
  | "certificate_not_valid_now"
  | "signing_key_unsupported";

export class IdentityProblem extends Error {
  constructor(
    readonly code: IdentityProblemCode,
    message: string,
  ) {
    super(message);
  }
}

/** What a signing identity is made of: the key (PKCS#8 DER) and the chain, the signer's certificate first. */
export interface SigningMaterial {
  keyPkcs8: Uint8Array;
  /** DER certificates: the signer's first, then its issuers as far as the file holds them. */
  chain: Uint8Array[];
}

const BAG_KEY = "1.2.840.113549.1.12.10.1.1";
const BAG_SHROUDED_KEY = "1.2.840.113549.1.12.10.1.2";
const BAG_CERT = "1.2.840.113549.1.12.10.1.3";

const buf = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/** The key and chain of a PKCS#12 file; throws IdentityProblem saying what is wrong with it. */
export async function readPkcs12(bytes: Uint8Array, password: string, now = Date.now()): Promise<SigningMaterial> {
  if (bytes.byteLength > PKCS12_MAX_BYTES)
    throw new IdentityProblem(
      "pkcs12_too_large",
      `the PKCS#12 file is ${bytes.byteLength} bytes; at most ${PKCS12_MAX_BYTES} are accepted`,
    );
  // pkijs (~1 MB of code) loads with the first identity read, not at every start.
  const { PFX, Certificate } = await import("pkijs");
  const pw = buf(new TextEncoder().encode(password));
  let pfx: pkijs.PFX;
  try {
    pfx = PFX.fromBER(buf(bytes));
  } catch {
    throw new IdentityProblem(
      "pkcs12_unreadable",
      "p12_base64 is not a PKCS#12 file (.p12/.pfx): export the key and its certificate as PKCS#12",
    );
  }
  try {
    await pfx.parseInternalValues({ password: pw, checkIntegrity: true });
  } catch (e) {
    if (/integrity/i.test((e as Error).message))
      throw new IdentityProblem(
        "pkcs12_password_wrong",
        "the password does not open this PKCS#12 file (its integrity check fails): send the password it was exported with",
      );
    throw unreadable(e);
  }
  const keys: Uint8Array[] = [];
  const certs: Uint8Array[] = [];
  try {
    const safe = pfx.parsedValue?.authenticatedSafe;
    if (!safe) throw new Error("no authenticated safe");
    await safe.parseInternalValues({ safeContents: safe.safeContents.map(() => ({ password: pw })) as never });
    for (const contents of safe.parsedValue?.safeContents ?? []) {
      for (const bag of (contents as { value: pkijs.SafeContents }).value.safeBags) {
        if (bag.bagId === BAG_SHROUDED_KEY) {
          const shrouded = bag.bagValue as pkijs.PKCS8ShroudedKeyBag;
          await (shrouded as unknown as { parseInternalValues(p: { password: ArrayBuffer }): Promise<void> }).parseInternalValues({
            password: pw,
          });
          if (shrouded.parsedValue) keys.push(new Uint8Array(shrouded.parsedValue.toSchema().toBER()));
        } else if (bag.bagId === BAG_KEY) keys.push(new Uint8Array((bag.bagValue as pkijs.PrivateKeyInfo).toSchema().toBER()));
        else if (bag.bagId === BAG_CERT) {
          const parsed = (bag.bagValue as pkijs.CertBag).parsedValue;
          if (parsed instanceof Certificate) certs.push(new Uint8Array(parsed.toSchema().toBER()));
        }
      }
    }
  } catch (e) {
    if (e instanceof IdentityProblem) throw e;
    throw unreadable(e);
  }
  if (keys.length === 0)
    throw new IdentityProblem(
      "pkcs12_no_private_key",
      "the PKCS#12 file holds no private key: export the key together with its certificate",
    );
  const keyPkcs8 = keys[0]!;
  const key = createPrivateKey({ key: Buffer.from(keyPkcs8), format: "der", type: "pkcs8" });
  checkKeyType(key);
  const x509s = certs.map((c) => new X509Certificate(Buffer.from(c)));
  const leaf = x509s.find((c) => c.checkPrivateKey(key));
  if (!leaf)
    throw new IdentityProblem(
      "pkcs12_no_private_key",
      "the PKCS#12 file holds no certificate for its private key: export the key with its certificate",
    );
  const from = Date.parse(leaf.validFrom);
  const to = Date.parse(leaf.validTo);
  if (now < from)
    throw new IdentityProblem(
      "certificate_not_valid_now",
      `the certificate is not valid before ${new Date(from).toISOString()}: upload it from then on`,
    );
  if (now > to)
    throw new IdentityProblem(
      "certificate_not_valid_now",
      `the certificate expired at ${new Date(to).toISOString()}: renew it and upload the new one`,
    );
  return { keyPkcs8, chain: certificateChain(leaf, x509s).map((c) => new Uint8Array(c.raw)) };
}

const unreadable = (e: unknown) =>
  new IdentityProblem(
    "pkcs12_unreadable",
    `the PKCS#12 file cannot be read (${(e as Error).message}); files with legacy encryption (RC2, 3DES) are not supported: export it again with AES, e.g. openssl pkcs12 -export (OpenSSL 3 defaults)`,
  );

/** RSA of 2048 bits or more, or ECDSA on P-256 or P-384: what PAdES readers verify everywhere. */
function checkKeyType(key: ReturnType<typeof createPrivateKey>): void {
  const type = key.asymmetricKeyType;
  const d = key.asymmetricKeyDetails ?? {};
  if (type === "rsa" && (d.modulusLength ?? 0) >= 2048) return;
  if (type === "ec" && (d.namedCurve === "prime256v1" || d.namedCurve === "secp384r1")) return;
  const what = type === "rsa" ? `an RSA key of ${d.modulusLength} bits` : type === "ec" ? `an EC key on ${d.namedCurve}` : `a ${type} key`;
  throw new IdentityProblem("signing_key_unsupported", `the key is ${what}; use RSA of 2048 bits or more, or ECDSA on P-256 or P-384`);
}
