// Addressing a bucket: the s3:// storage URL, the client made from it and the operator's access, and
// the error code of a failed request. Shared by the PDF store (s3-store.ts) and the asset blobs.
import { S3Client } from "bun";
import type { S3Access } from "../../config/settings";

/** Splits s3://bucket/prefix/ into its bucket and key prefix ("" or ending with "/"). */
export function parseStorageUrl(url: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([^/]+)\/(.*)$/.exec(url);
  if (!m) throw new Error(`not an s3:// storage URL: ${url}`);
  return { bucket: m[1]!, prefix: m[2]! };
}

/** The client for a bucket: explicit options only (Bun would otherwise read S3_* and AWS_* itself, during requests). */
export function s3Client(storageUrl: string, a: S3Access): S3Client {
  return new S3Client({
    bucket: parseStorageUrl(storageUrl).bucket,
    accessKeyId: a.accessKeyId,
    secretAccessKey: a.secretAccessKey,
    ...(a.sessionToken ? { sessionToken: a.sessionToken } : {}),
    region: a.region,
    // With an endpoint, path-style addressing (Bun's default: bucket in the path), which every
    // S3-compatible store accepts. Without one, Bun addresses AWS S3 in the region.
    ...(a.endpoint ? { endpoint: a.endpoint, virtualHostedStyle: false } : {}),
  });
}

/** S3's error code (Bun's S3Error carries it as `code`: NoSuchKey, AccessDenied, ConnectionRefused…). */
export function s3Code(e: unknown): string | undefined {
  const code = (e as { code?: unknown })?.code;
  return typeof code === "string" ? code : undefined;
}
