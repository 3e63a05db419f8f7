// Delivery to an S3-compatible bucket. Bun's S3Client signs the request (a presigned PUT, SigV4, no I/O);
// the upload itself goes through the outbound policy's client (webhooks/target.ts), which checks every
// address the endpoint resolves to and connects to the checked one, so a DNS answer that changes
// between the check and the connection cannot reach a private address.
import { S3Client } from "bun";
import { postChecked } from "../../webhooks/target";
import { destinationPolicy, type S3Settings, type Secrets } from "../settings";
import type { ShipContext, Shipment, ShipResult } from "./transport";

/** How long the presigned URL is valid: the attempt's deadline bounds the upload anyway. */
const PRESIGN_SECONDS = 3600;

export function s3ObjectKey(s: S3Settings, target: string): string {
  return s.prefix + target;
}

export async function shipS3(s: S3Settings, secrets: Secrets, p: Shipment, ctx: ShipContext): Promise<ShipResult> {
  // Explicit options only: Bun would otherwise read S3_* and AWS_* from the environment.
  const client = new S3Client({
    bucket: s.bucket,
    accessKeyId: s.access_key_id,
    secretAccessKey: secrets.secret_access_key ?? "",
    region: s.region,
    endpoint: s.endpoint,
    virtualHostedStyle: false,
  });
  const url = client.presign(s3ObjectKey(s, p.target), { method: "PUT", expiresIn: PRESIGN_SECONDS });
  const r = await postChecked(url, {}, p.bytes, {
    ...destinationPolicy(ctx.allowHosts, "s3.endpoint"),
    method: "PUT",
    contentType: p.contentType,
    userAgent: "reportgen-delivery",
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    lookup: ctx.lookup,
    readBody: 16 * 1024,
  });
  if (r.refused) return { ok: false, error: r.error ?? "refused by the outbound policy", final: true };
  if (r.status === undefined) return { ok: false, error: r.error ?? "no answer" };
  if (r.status >= 200 && r.status <= 299) return { ok: true };
  // S3's error body names the cause: <Code>SignatureDoesNotMatch</Code>, NoSuchBucket, AccessDenied…
  const text = r.body ? new TextDecoder().decode(r.body) : "";
  const code = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1];
  const message = /<Message>([^<]{1,300})<\/Message>/.exec(text)?.[1];
  return { ok: false, error: `the bucket answered ${r.status}${code ? ` ${code}` : ""}${message ? `: ${message}` : ""}` };
}
