// The CMS SignedData of a PAdES baseline signature (ETSI EN 319 142-1, B-B and B-T), built with PKI.js:
// detached (the PDF's ByteRange is the content), signed attributes content-type, message-digest and
// signing-certificate-v2 (no signing-time: PAdES takes the time from the signature dictionary's /M),
// the whole chain in `certificates`, and for B-T an RFC 3161 signature timestamp as an unsigned
// attribute. The RSA or ECDSA operation is the runtime's WebCrypto, in-process.
import { createHash, createPrivateKey } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

const OID = {
  data: "1.2.840.113549.1.7.1",
  signedData: "1.2.840.113549.1.7.2",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  signatureTimeStampToken: "1.2.840.113549.1.9.16.2.14",
  sha384: "2.16.840.1.101.3.4.2.2",
} as const;

const buf = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/** A private key ready to sign, with the hash its signature uses. */
export interface SigningKey {
  key: CryptoKey;
  /** "SHA-256", or "SHA-384" for a P-384 key. */
  hash: "SHA-256" | "SHA-384";
  /** DER certificates, the signer's first. */
  chain: Uint8Array[];
  /** The chain parsed once (parsing is most of a CMS's cost), and the signer's certificate hash. */
  certs: pkijs.Certificate[];
  certHash: Uint8Array;
}

/** Imports a PKCS#8 key into WebCrypto (not extractable), with its chain parsed, for the signatures of its reports. */
export async function signingKey(keyPkcs8: Uint8Array, chain: Uint8Array[]): Promise<SigningKey> {
  const k = createPrivateKey({ key: Buffer.from(keyPkcs8), format: "der", type: "pkcs8" });
  if (k.asymmetricKeyType === "ec") {
    const p384 = k.asymmetricKeyDetails?.namedCurve === "secp384r1";
    const hash = p384 ? "SHA-384" : "SHA-256";
    const key = await crypto.subtle.importKey("pkcs8", buf(keyPkcs8), { name: "ECDSA", namedCurve: p384 ? "P-384" : "P-256" }, false, [
      "sign",
    ]);
    return withChain(key, hash, chain);
  }
  const key = await crypto.subtle.importKey("pkcs8", buf(keyPkcs8), { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["sign"]);
  return withChain(key, "SHA-256", chain);
}

function withChain(key: CryptoKey, hash: SigningKey["hash"], chain: Uint8Array[]): SigningKey {
  const certs = chain.map((der) => pkijs.Certificate.fromBER(buf(der)));
  return { key, hash, chain, certs, certHash: createHash(nodeHash(hash)).update(chain[0]!).digest() };
}

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
  const certs = k.certs;
  const signer = certs[0]!;
  const certHash = k.certHash;
  // ESSCertIDv2's hashAlgorithm defaults to SHA-256 and is then left out (DER omits defaults).
  const essCertId = new asn1js.Sequence({
    value: [
      ...(k.hash === "SHA-384" ? [new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha384 }).toSchema()] : []),
      new asn1js.OctetString({ valueHex: buf(certHash) }),
    ],
  });
  const signingCertificateV2 = new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertId] })] });
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
            new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: buf(digest) })] }),
            new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2] }),
          ],
        }),
      }),
    ],
    certificates: certs,
  });
  await signedData.sign(k.key, 0, k.hash);
  if (timestamp) {
    const info = signedData.signerInfos[0]!;
    const imprint = createHash("sha256").update(info.signature.valueBlock.valueHexView).digest();
    const token = pkijs.ContentInfo.fromBER(buf(await timestamp(imprint)));
    info.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [token.toSchema()] })],
    });
  }
  const ci = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(ci.toSchema().toBER());
}
