// What the API and the dashboard show of a signer's certificate, read with node:crypto's X509Certificate.
import { X509Certificate } from "node:crypto";

export interface CertificateSummary {
  /** "CN=…, O=…" */
  subject: string;
  issuer: string;
  commonName: string;
  /** Hexadecimal, as `openssl x509 -serial` prints it. */
  serial: string;
  notBefore: number;
  notAfter: number;
  /** "AB:CD:…", as `openssl x509 -fingerprint -sha256` prints it. */
  sha256Fingerprint: string;
}

const dn = (s: string) => s.split("\n").filter(Boolean).join(", ");

export function certificateSummary(der: Uint8Array): CertificateSummary {
  const x = new X509Certificate(Buffer.from(der));
  const cn = x.subject
    .split("\n")
    .find((l) => l.startsWith("CN="))
    ?.slice(3);
  return {
    subject: dn(x.subject),
    issuer: dn(x.issuer),
    commonName: cn || dn(x.subject),
    serial: x.serialNumber.toUpperCase(),
    notBefore: Date.parse(x.validFrom),
    notAfter: Date.parse(x.validTo),
    sha256Fingerprint: x.fingerprint256,
  };
}
