// The JSON of signing identities: what the API answers (never the key) and the body that creates one.
import { t } from "elysia";
import { named } from "../../http/openapi-names";
import type { SigningIdentity } from "./service";

const iso = (ms: number) => new Date(ms).toISOString();

export const identitySchema = named(
  "SigningIdentity",
  t.Object(
    {
      identity_id: t.String({ format: "uuid" }),
      name: t.String({ description: "The name given on upload" }),
      subject: t.String({ description: "The signer's certificate subject, e.g. CN=Muster GmbH, O=Muster GmbH, C=DE" }),
      common_name: t.String({ description: "The subject's CN: the signer's name PDF readers show" }),
      issuer: t.String({ description: "Who issued the certificate (the subject again for a self-signed one)" }),
      serial: t.String({ description: "The certificate's serial number, hexadecimal" }),
      not_before: t.String({ format: "date-time" }),
      not_after: t.String({ format: "date-time", description: "The certificate expires then: signing with it fails after that" }),
      sha256_fingerprint: t.String({ description: "SHA-256 of the certificate, AB:CD:… as openssl x509 -fingerprint -sha256 prints it" }),
      chain_length: t.Integer({ description: "Certificates embedded in each signature, the signer's included" }),
      created_at: t.String({ format: "date-time" }),
    },
    { description: "A signing identity. Its private key is stored sealed and is never returned." },
  ),
);

export const toIdentityJson = (i: SigningIdentity) => ({
  identity_id: i.id,
  name: i.name,
  subject: i.subject,
  common_name: i.commonName,
  issuer: i.issuer,
  serial: i.serial,
  not_before: iso(i.notBefore),
  not_after: iso(i.notAfter),
  sha256_fingerprint: i.sha256Fingerprint,
  chain_length: i.chainLength,
  created_at: iso(i.createdAt),
});

export const createIdentityBody = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 200, description: "Your name for it, e.g. Invoices 2026" }),
    p12_base64: t.String({
      minLength: 1,
      description:
        "A PKCS#12 file (.p12/.pfx), base64: the private key (RSA of 2048 bits or more, or ECDSA P-256/P-384) with its certificate and, best, its chain. At most 2 MB; AES encryption (OpenSSL 3's default)",
    }),
    password: t.String({ maxLength: 1024, description: "The PKCS#12 file's password. Used once to open it; never stored" }),
  },
  { additionalProperties: false },
);

export const identityIdParams = t.Object({ identityID: t.String() });
