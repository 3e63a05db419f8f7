// Standard Webhooks signing (https://www.standardwebhooks.com): the webhook-id, webhook-timestamp and
// webhook-signature headers, the signature being "v1," + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`))
// with the key the base64-decoded part of a "whsec_..." secret. Pure functions, no I/O.
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";
/** The spec asks for 24 to 64 bytes; 32 matches the HMAC-SHA256 block's strength. */
const SECRET_BYTES = 32;

/** A new signing secret, "whsec_" + base64 of 32 random bytes, as Standard Webhooks libraries expect. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
}

/** "v1,<base64>" for one secret. */
export function signatureFor(secret: string, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac("sha256", keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}

/**
 * The three headers of one attempt. With several secrets (a rotation in progress) the signature
 * header lists one signature per secret, space-separated, as the spec allows: a receiver holding
 * either secret accepts the event.
 */
export function webhookHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": secrets.map((s) => signatureFor(s, id, timestampSeconds, body)).join(" "),
  };
}
