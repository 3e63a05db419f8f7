// moto accepts any signature, so the cluster tests cannot tell a wrongly signed request from a right
// one. This checks Bun's S3Client signing once, against an independent SigV4 implementation (the
// `aws4` package): the requests the PDF store sends are captured by a local HTTP server standing in
// for the bucket, signed again by aws4 from the same inputs, and the signatures compared.
import { afterAll, describe, expect, test } from "bun:test";
import aws4 from "aws4";
import type { S3Access } from "../../src/config/settings";
import { s3Client } from "../../src/modules/files/s3-client";

interface Captured {
  method: string;
  /** Path and query exactly as sent. */
  path: string;
  headers: Record<string, string>;
}

const captured: Captured[] = [];
const endpoint = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const u = new URL(req.url);
    await req.arrayBuffer();
    captured.push({ method: req.method, path: u.pathname + u.search, headers: Object.fromEntries(req.headers) });
    const list =
      '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>b</Name><KeyCount>0</KeyCount><IsTruncated>false</IsTruncated></ListBucketResult>';
    return new Response(u.searchParams.has("list-type") ? list : "", { headers: { etag: '"0"', "content-type": "application/xml" } });
  },
});
afterAll(() => endpoint.stop(true));

const access = (o: Partial<S3Access> = {}): S3Access => ({
  endpoint: `http://127.0.0.1:${endpoint.port}`,
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
  sessionToken: "",
  region: "eu-west-3",
  ...o,
});

/** The Authorization header aws4 computes for a captured request, from its signed headers only. */
function resign(c: Captured, a: S3Access): string {
  const auth = c.headers.authorization ?? "";
  const signed = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(";") ?? [];
  const headers: Record<string, string> = {};
  for (const h of signed) headers[h] = c.headers[h] ?? "";
  const req = aws4.sign(
    { host: c.headers.host, method: c.method, path: c.path, service: "s3", region: a.region, headers },
    { accessKeyId: a.accessKeyId, secretAccessKey: a.secretAccessKey, ...(a.sessionToken ? { sessionToken: a.sessionToken } : {}) },
  );
  return String((req.headers as Record<string, string>).Authorization);
}

async function send(a: S3Access, fn: (c: ReturnType<typeof s3Client>) => Promise<unknown>): Promise<Captured> {
  const before = captured.length;
  await fn(s3Client("s3://reports-bucket/pdfs/", a));
  expect(captured.length).toBe(before + 1);
  return captured.at(-1)!;
}

describe("Bun's S3Client signs as SigV4 says (checked with aws4)", () => {
  const cases: [string, Partial<S3Access>, (c: ReturnType<typeof s3Client>) => Promise<unknown>][] = [
    ["PUT of a PDF", {}, (c) => c.write("pdfs/0b5e1c9a-0000-4000-8000-000000000001/1.pdf", "%PDF-1.7 x", { type: "application/pdf" })],
    [
      "PUT with temporary credentials (session token)",
      { sessionToken: "IQoJb3JpZ2luX2VjEXAMPLE//token+with/odd=chars" },
      (c) => c.write("pdfs/a/2.pdf", "x"),
    ],
    ["PUT of a key that needs escaping", {}, (c) => c.write("pdfs/with space & plus+/1.pdf", "x")],
    ["DELETE", {}, (c) => c.delete("pdfs/0b5e1c9a-0000-4000-8000-000000000001/1.pdf")],
    ["HEAD (stat)", { region: "us-east-1" }, (c) => c.stat("pdfs/x/1.pdf").catch(() => {})],
    ["GET of a listing (query string)", {}, (c) => c.list({ prefix: "pdfs/0b5e/", maxKeys: 1000 })],
  ];
  for (const [name, o, fn] of cases) {
    test(name, async () => {
      const a = access(o);
      const c = await send(a, fn);
      expect(c.headers.authorization).toStartWith(`AWS4-HMAC-SHA256 Credential=${a.accessKeyId}/`);
      expect(c.headers.authorization).toContain(`/${a.region}/s3/aws4_request`);
      expect(c.headers.authorization).toBe(resign(c, a));
      // Path-style addressing with an endpoint: the bucket is the first path segment, not in the host.
      expect(c.path).toStartWith("/reports-bucket/");
      expect(c.headers.host).toBe(`127.0.0.1:${endpoint.port}`);
      if (a.sessionToken) expect(c.headers["x-amz-security-token"]).toBe(a.sessionToken);
    });
  }

  test("the check can fail: a different secret gives a different signature", async () => {
    const a = access();
    const c = await send(a, (cl) => cl.write("pdfs/b/1.pdf", "x"));
    expect(resign(c, { ...a, secretAccessKey: `${a.secretAccessKey}x` })).not.toBe(c.headers.authorization);
    expect(resign(c, { ...a, region: "us-east-1" })).not.toBe(c.headers.authorization);
  });

  test("a presigned GET carries the signature aws4 computes for the same query", () => {
    const a = access({ sessionToken: "TOKEN/with+chars" });
    const url = new URL(s3Client("s3://reports-bucket/", a).presign("pdfs/c/1.pdf", { expiresIn: 300 }));
    const theirs = url.searchParams.get("X-Amz-Signature");
    const query = new URLSearchParams(url.search);
    for (const k of ["X-Amz-Signature", "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-SignedHeaders", "X-Amz-Security-Token"])
      query.delete(k);
    const req = aws4.sign(
      { host: url.host, method: "GET", path: `${url.pathname}?${query}`, service: "s3", region: a.region, signQuery: true },
      { accessKeyId: a.accessKeyId, secretAccessKey: a.secretAccessKey, sessionToken: a.sessionToken },
    );
    const ours = new URL(`http://${url.host}${req.path}`).searchParams.get("X-Amz-Signature");
    expect(theirs).toMatch(/^[0-9a-f]{64}$/);
    expect(ours).toBe(theirs);
  });
});
