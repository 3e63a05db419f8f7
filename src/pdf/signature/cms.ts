// The CMS SignedData of a PAdES baseline signature (ETSI EN 319 142-1, B-B and B-T): detached (the
// PDF's ByteRange is the content), signed attributes content-type, message-digest and
// signing-certificate-v2 (no signing-time: PAdES takes the time from the signature dictionary's /M),
// the whole chain in `certificates`, and for B-T an RFC 3161 signature timestamp as an unsigned
// attribute. The RSA or ECDSA operation is the runtime's WebCrypto, in-process. The DER is assembled
// from parts made once per key (der.ts says why not with PKI.js objects).
import { createHash, createPrivateKey } from "node:crypto";
import { children, NULL, octetString, oid, sequence, set, smallInteger, TAG, tlv, unsignedInteger } from "./der";

const OID = {
  data: "1.2.840.113549.1.7.1",
  signedData: "1.2.840.113549.1.7.2",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  signatureTimeStampToken: "1.2.840.113549.1.9.16.2.14",
  sha256: "2.16.840.1.101.3.4.2.1",
  sha384: "2.16.840.1.101.3.4.2.2",
  sha256WithRSA: "1.2.840.113549.1.1.11",
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
  ecdsaWithSha384: "1.2.840.10045.4.3.3",
} as const;

const buf = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/** A private key ready to sign, with the hash its signature uses. */
export interface SigningKey {
  key: CryptoKey;
  /** "SHA-256", or "SHA-384" for a P-384 key. */
  hash: "SHA-256" | "SHA-384";
  /** DER certificates, the signer's first. */
  chain: Uint8Array[];
  /** The DER parts every signature of this key repeats, made once. */
  der: KeyDer;
}

interface KeyDer {
  digestAlgorithm: Uint8Array;
  signatureAlgorithm: Uint8Array;
  /** The signer's IssuerAndSerialNumber. */
  sid: Uint8Array;
  /** The signing-certificate-v2 attribute (the signer certificate's hash). */
  signingCertificate: Uint8Array;
  /** [0] IMPLICIT SET OF Certificate: the chain as given. */
  certificates: Uint8Array;
  ecdsa: boolean;
}

/** Imports a PKCS#8 key into WebCrypto (not extractable), with its DER parts made, for the signatures of its reports. */
export async function signingKey(keyPkcs8: Uint8Array, chain: Uint8Array[]): Promise<SigningKey> {
  const k = createPrivateKey({ key: Buffer.from(keyPkcs8), format: "der", type: "pkcs8" });
  if (k.asymmetricKeyType === "ec") {
    const p384 = k.asymmetricKeyDetails?.namedCurve === "secp384r1";
    const hash = p384 ? "SHA-384" : "SHA-256";
    const key = await crypto.subtle.importKey("pkcs8", buf(keyPkcs8), { name: "ECDSA", namedCurve: p384 ? "P-384" : "P-256" }, false, [
      "sign",
    ]);
    return { key, hash, chain, der: keyDer(hash, chain, true) };
  }
  const key = await crypto.subtle.importKey("pkcs8", buf(keyPkcs8), { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["sign"]);
  return { key, hash: "SHA-256", chain, der: keyDer("SHA-256", chain, false) };
}

function keyDer(hash: SigningKey["hash"], chain: Uint8Array[], ecdsa: boolean): KeyDer {
  const signer = chain[0]!;
  // TBSCertificate: an optional [0] version, then serialNumber, signature, issuer.
  const tbs = children(children(signer)[0]!);
  const [serial, , issuer] = tbs[0]![0] === TAG.context0 ? tbs.slice(1) : tbs;
  const sha384 = hash === "SHA-384";
  // SHA-2 AlgorithmIdentifiers leave out their parameters (RFC 5754); the RSA one has NULL (RFC 4055).
  const digestAlgorithm = sequence(oid(sha384 ? OID.sha384 : OID.sha256));
  const certHash = createHash(nodeHash(hash)).update(signer).digest();
  // ESSCertIDv2's hashAlgorithm defaults to SHA-256 and is then left out (DER omits defaults).
  const essCertId = sequence(...(sha384 ? [digestAlgorithm] : []), octetString(certHash));
  return {
    digestAlgorithm,
    signatureAlgorithm: ecdsa ? sequence(oid(sha384 ? OID.ecdsaWithSha384 : OID.ecdsaWithSha256)) : sequence(oid(OID.sha256WithRSA), NULL),
    sid: sequence(issuer!, serial!),
    signingCertificate: attribute(OID.signingCertificateV2, sequence(sequence(essCertId))),
    certificates: tlv(TAG.context0, ...chain),
    ecdsa,
  };
}

const attribute = (type: string, value: Uint8Array) => sequence(oid(type), set(value));

const nodeHash = (h: SigningKey["hash"]) => (h === "SHA-384" ? "sha384" : "sha256");

/** The digest of the signed bytes, with the key's hash. */
export function contentDigest(k: SigningKey, parts: Uint8Array[]): Uint8Array {
  const h = createHash(nodeHash(k.hash));
  for (const p of parts) h.update(p);
  return h.digest();
}

/**
 * The DER ContentInfo of the signature over content whose digest is `digest`. `timestamp`, when given,
 * returns an RFC 3161 token (DER ContentInfo) for a SHA-256 imprint of the signature value.
 */
export async function signatureCms(
  k: SigningKey,
  digest: Uint8Array,
  timestamp?: (imprint: Uint8Array) => Promise<Uint8Array>,
): Promise<Uint8Array> {
  const d = k.der;
  // The attributes in DER's SET OF order (by their encodings; here the shorter sorts first).
  const attributes = [attribute(OID.contentType, oid(OID.data)), attribute(OID.messageDigest, octetString(digest)), d.signingCertificate];
  // The signature covers the attributes as a SET; the SignerInfo carries them as [0] IMPLICIT.
  const algorithm = d.ecdsa ? { name: "ECDSA", hash: k.hash } : { name: "RSASSA-PKCS1-v1_5" };
  const raw = new Uint8Array(await crypto.subtle.sign(algorithm, k.key, buf(set(...attributes))));
  const signature = d.ecdsa ? ecdsaSigValue(raw) : raw;
  // The token's bytes as the TSA sent them, over the signature value (RFC 3161 imprint).
  const unsigned = timestamp
    ? [tlv(TAG.context1, attribute(OID.signatureTimeStampToken, await timestamp(createHash("sha256").update(signature).digest())))]
    : [];
  const signerInfo = sequence(
    smallInteger(1),
    d.sid,
    d.digestAlgorithm,
    tlv(TAG.context0, ...attributes),
    d.signatureAlgorithm,
    octetString(signature),
    ...unsigned,
  );
  const signedData = sequence(smallInteger(1), set(d.digestAlgorithm), sequence(oid(OID.data)), d.certificates, set(signerInfo));
  return sequence(oid(OID.signedData), tlv(TAG.context0, signedData));
}

/** WebCrypto's ECDSA signature (r and s side by side) as CMS carries it: SEQUENCE { INTEGER r, INTEGER s }. */
function ecdsaSigValue(raw: Uint8Array): Uint8Array {
  const half = raw.byteLength / 2;
  return sequence(unsignedInteger(raw.subarray(0, half)), unsignedInteger(raw.subarray(half)));
}
