// What the sign step needs from outside the PDF code: the signing identities (sealed in the database,
// opened for one report) and the operator's time-stamp authority. src/app/ builds it from the signing
// module; the PDF pipeline only calls it.
import type { SigningKey } from "./cms";

export interface PdfSigner {
  /** The identity's key and chain, and the signer's common name; undefined when the identity is gone. */
  key(identityId: string): Promise<{ key: SigningKey; name: string } | undefined>;
  /**
   * An RFC 3161 token (DER ContentInfo) for a SHA-256 imprint, from the operator's TSA. Throws
   * RenderError timestamp_unavailable (retryable) when the TSA cannot be reached or answers badly.
   * Absent when no TSA is configured.
   */
  timestamp?: (imprint: Uint8Array) => Promise<Uint8Array>;
}
