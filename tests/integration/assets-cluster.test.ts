// The asset library in a cluster's setup, PostgreSQL + an S3 bucket (moto_server): the bytes go into
// the bucket under <prefix>assets/<account>/<sha256>, never the data dir; a real render inlines them
// from there; a replacement and a deletion remove the old object; a bucket that refuses the upload is a
// 503 storage_unavailable with nothing stored.
import { beforeAll, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { S3Client } from "bun";
import { generate, type TestApp, useRenderApp } from "../helpers/app";
import { png } from "../helpers/images";
import { pdfImages } from "../helpers/pdf";
import { usePostgres } from "../helpers/postgres";
import { useS3 } from "../helpers/s3";

setDefaultTimeout(60_000);
const s3 = useS3();
const pg = usePostgres();
let t: TestApp;
let databaseUrl = "";
// The database exists before the app starts: hooks run in the order they are registered.
beforeAll(async () => {
  databaseUrl = await pg().createDatabase();
}, 60_000);
useRenderApp(
  (a) => (t = a),
  () => ({
    databaseUrl,
    storageUrl: `s3://${s3().bucket}/cl/`,
    s3: { endpoint: s3().endpoint, accessKeyId: "k", secretAccessKey: "s", sessionToken: "", region: "us-east-1" },
  }),
);
beforeEach(() => s3().up());

const bucket = () => new S3Client({ endpoint: s3().directEndpoint, bucket: s3().bucket, accessKeyId: "k", secretAccessKey: "s" });
const assetKeys = async () => ((await bucket().list({ prefix: "cl/assets/" })).contents ?? []).map((o) => o.key).sort();
const sha = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

async function upload(name: string, bytes: Uint8Array) {
  const r = await t.request("POST", "/api/v1/assets", { body: { name, content_base64: Buffer.from(bytes).toString("base64") } });
  return { status: r.status, body: (await r.json()) as any };
}

/** Bytes of asset objects this instance sent to / read from the bucket, as /metrics shows them. */
async function assetTraffic() {
  const text = await (await t.request("GET", "/metrics", { key: null })).text();
  const read = (name: string) => Number(new RegExp(`^reportgen_bucket_${name}_total\\{kind="asset"\\} (\\d+)$`, "m").exec(text)?.[1]);
  return { sent: read("sent_bytes"), received: read("received_bytes") };
}

test("the bytes are in the bucket, a report renders them, replace and delete remove the old objects", async () => {
  expect(t.app.services.backend.kind).toBe("postgres");
  const first = png(29, 17, () => [10, 120, 200]);
  const before = await assetTraffic();
  const up = await upload("logo.png", first);
  expect(up.status).toBe(201);
  // /metrics counts the asset's bytes going into the bucket, under their own kind.
  expect((await assetTraffic()).sent - before.sent).toBe(first.length);
  const accountId = (await t.app.services.keyAuth.authenticate(t.key))!.accountId;
  expect(await assetKeys()).toEqual([`cl/assets/${accountId}/${sha(first)}`]);
  expect(existsSync(join(t.dir, "assets"))).toBe(false);

  const { report, pdf } = await generate(t, { engine: "raw", html_template: `<img src="asset:logo.png">` });
  expect(report.status).toBe("succeeded");
  expect(pdfImages(pdf!).some((i) => i.width === 29 && i.height === 17)).toBe(true);

  const next = png(31, 19, () => [200, 10, 10]);
  expect((await upload("logo.png", next)).status).toBe(200);
  expect(await assetKeys()).toEqual([`cl/assets/${accountId}/${sha(next)}`]);
  // Resolved when rendering: a report now prints the new bytes (the cache is keyed by sha256, so no stale copy).
  const again = await generate(t, { engine: "raw", html_template: `<img src="asset:logo.png">` });
  expect(pdfImages(again.pdf!).some((i) => i.width === 31 && i.height === 19)).toBe(true);
  const read = (await assetTraffic()).received;
  const content = await t.request("GET", `/api/v1/assets/${up.body.data.id}/content`);
  expect(new Uint8Array(await content.arrayBuffer())).toEqual(new Uint8Array(next));
  expect((await assetTraffic()).received - read).toBe(next.length);

  expect((await t.request("DELETE", `/api/v1/assets/${up.body.data.id}`)).status).toBe(200);
  expect(await assetKeys()).toEqual([]);
});

test("a bucket that refuses the upload: 503 storage_unavailable, and no row names bytes that are not there", async () => {
  s3().refuseWrites();
  const r = await upload(
    "refused.png",
    png(3, 3, () => [1, 1, 1]),
  );
  expect(r.status).toBe(503);
  expect(r.body.error).toBe("storage_unavailable");
  s3().up();
  const list = (await (await t.request("GET", "/api/v1/assets")).json()) as any;
  expect(list.data.map((a: any) => a.name)).not.toContain("refused.png");
});
