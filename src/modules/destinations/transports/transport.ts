// What a transport is given and answers: one object (a report's PDF, or the small test object) for
// one destination, sent under the outbound policy with a deadline. A transport never throws.

export interface Shipment {
  /** The object key (s3, after the prefix), file name (sftp, in the directory) or attachment name (email). */
  target: string;
  bytes: Uint8Array;
  contentType: string;
  /** E-mail only. */
  subject?: string;
  text?: string;
  /** E-mail only: a signed download link, sent instead of the attachment when the PDF is too large. */
  link?: () => string;
}

export interface ShipContext {
  /** --destination-allow-hosts. */
  allowHosts: readonly string[];
  timeoutMs: number;
  signal?: AbortSignal;
  /** Name resolution, replaceable in tests. */
  lookup?: (hostname: string) => Promise<string[]>;
  /** The operator's SMTP server (--smtp-url, --smtp-from) and the attachment limit. */
  smtp: { url: string; from: string; attachMax: number };
  /** The sftp client (openssh-client). */
  sftpPath?: string;
}

/** ok, or what went wrong; `final` when retrying cannot help (the outbound policy refused the host). */
export type ShipResult = { ok: true } | { ok: false; error: string; final?: boolean };
