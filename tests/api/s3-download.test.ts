// Downloads, deletion and retention with the PDFs in an S3 bucket (moto_server): the signed link is
// checked here and the PDF streamed from the bucket (not a redirect to it), deleting a report or
// expiring it removes its object, and an unreachable bucket answers 503 storage_unavailable on the
// link without ever failing anything on the client's side of the line.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { S3Client } from "bun";
import { runBackup } from "../../src/jobs/backup";
import { createTestApp, type TestApp } from "../helpers/app";
import { tamperedLink } from "../helpers/links";
import { useS3 } from "../helpers/s3";
import { expectError, submit, succeed } from "../helpers/scenario";

const s3 = useS3();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    config: {
      storageUrl: `s3://${s3().bucket}/pdfs/`,
      s3: { endpoint: s3().endpoint, accessKeyId: "k", secretAccessKey: "s", sessionToken: "", region: "us-east-1" },
    },
  });
});
afterAll(() => t?.close());
beforeEach(() => s3().up());

const bucket = () => new S3Client({ endpoint: s3().directEndpoint, bucket: s3().bucket, accessKeyId: "k", secretAccessKey: "s" });
const objects = async (id: string) => ((await bucket().list({ prefix: `pdfs/${id}/` })).contents ?? []).map((o) => o.key);
const PDF = "%PDF-1.7\n% streamed from the bucket\n%%EOF\n";

async function readyReport(): Promise<{ id: string; link: string }> {
  const id = await submit(t);
  await succeed(t, id, { bytes: PDF });
  const res = await t.request("GET", `/api/v1/reports/${id}/download`);
  expect(res.status).toBe(200);
  return { id, link: ((await res.json()) as { data: string }).data };
}
const pastRetention = (id: string) =>
  t.app.services.backend.db!.$client.run("UPDATE reports SET expires_at = ? WHERE id = ?", [Date.now() - 1, id]);
const open = (link: string) => t.app.http.handle(new Request(link));

describe("the download link streams the PDF from the bucket", () => {
  test("200 with the PDF, its length and our headers: not a redirect to the bucket", async () => {
    const { id, link } = await readyReport();
    expect(await objects(id)).toEqual([`pdfs/${id}/1.pdf`]);
    const res = await open(link);
    expect(res.status).toBe(200);
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="report-${id}.pdf"`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("content-length")).toBe(String(PDF.length));
    expect(await res.text()).toBe(PDF);
  });

  test("nothing is kept on the instance's disk: no reports folder entry, an empty spool", async () => {
    const { link } = await readyReport();
    expect(readdirSync(join(t.dir, "spool"))).toEqual([]);
    expect(existsSync(join(t.dir, "reports"))).toBe(false);
    expect((await open(link)).status).toBe(200);
  });

  test("a tampered link is refused before the bucket is asked", async () => {
    const { link } = await readyReport();
    const before = s3().requests.length;
    await expectError(await open(tamperedLink(link)), 403, "link_invalid");
    expect(s3().requests.length).toBe(before);
  });

  test("a report whose object is gone: its link and its download answer 410 pdf_missing (not 403, not expired); the report says so", async () => {
    const { id, link } = await readyReport();
    await bucket().delete(`pdfs/${id}/1.pdf`);
    await expectError(await open(link), 410, "pdf_missing");
    // The link alone noted it on the report.
    const report = (await (await t.request("GET", `/api/v1/reports/${id}`)).json()) as {
      data: { status: string; error: { code: string } };
    };
    expect(report.data).toMatchObject({ status: "succeeded", error: { code: "pdf_missing" } });
    await expectError(await t.request("GET", `/api/v1/reports/${id}/download`), 410, "pdf_missing");
  });
});

describe("deleting and retention remove the object", () => {
  test("DELETE /reports/{id} removes every object of the report; the link then fails", async () => {
    const { id, link } = await readyReport();
    await bucket().write(`pdfs/${id}/7.pdf`, "a stale attempt's upload");
    const res = await t.request("DELETE", `/api/v1/reports/${id}`);
    expect(res.status).toBe(200);
    expect(await objects(id)).toEqual([]);
    await expectError(await open(link), 403, "link_invalid");
  });

  test("retention: an expired report's object is removed, and an object no report owns too", async () => {
    const { id } = await readyReport();
    const keep = await readyReport();
    const orphan = crypto.randomUUID();
    await bucket().write(`pdfs/${orphan}/1.pdf`, "no row owns me");
    await pastRetention(id);
    await t.app.cleanup();
    expect(await objects(id)).toEqual([]);
    expect(await objects(orphan)).toEqual([]);
    expect(await objects(keep.id)).toEqual([`pdfs/${keep.id}/1.pdf`]);
    const r = (await t.request("GET", `/api/v1/reports/${id}`).then((x) => x.json())) as { data: { status: string } };
    expect(r.data.status).toBe("expired");
  });

  test("retention with the bucket down: the run stops with a fault, and the next run carries on", async () => {
    const { id } = await readyReport();
    await pastRetention(id);
    await s3().down();
    const stopped = await t.app.cleanup();
    expect(stopped.storageFault).toBe("bucket");
    expect(stopped.expired).toBe(0);
    s3().up();
    await t.app.services.files.recovered();
    await t.app.cleanup();
    expect(await objects(id)).toEqual([]);
  });
});

describe("an unreachable bucket", () => {
  test("the link answers 503 storage_unavailable with Retry-After (the link stays valid), then works again", async () => {
    const { link, id } = await readyReport();
    await s3().down();
    const res = await open(link);
    const body = await expectError(res, 503, "storage_unavailable");
    expect(res.headers.get("retry-after")).toBe("5");
    expect(body.message).toContain("bucket");
    // Minting a link does not need the bucket: the PDF was stored before the success was recorded.
    expect((await t.request("GET", `/api/v1/reports/${id}/download`)).status).toBe(200);
    // The operator sees it: /metrics and /readyz (where it is shown, not required: reports are still accepted).
    const metric = async () =>
      /^reportgen_file_store_ok (\d)$/m.exec(await (await t.request("GET", "/metrics", { key: null })).text())?.[1];
    const readyFiles = async () =>
      ((await (await t.request("GET", "/readyz", { key: null })).json()) as { checks: { files: string } }).checks.files;
    expect(await metric()).toBe("0");
    expect(await readyFiles()).toBe("s3: unavailable (reports wait)");
    s3().up();
    await t.app.services.files.recovered();
    expect(await metric()).toBe("1");
    expect(await readyFiles()).toBe("s3: ok");
    const again = await open(link);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(PDF);
  });

  test("DELETE still answers 200 (the row is gone, the link dead); the object goes with the next cleanup", async () => {
    const { id } = await readyReport();
    await s3().down();
    expect((await t.request("DELETE", `/api/v1/reports/${id}`)).status).toBe(200);
    s3().up();
    await t.app.services.files.recovered();
    expect(await objects(id)).toEqual([`pdfs/${id}/1.pdf`]);
    await t.app.cleanup();
    expect(await objects(id)).toEqual([]);
  });
});

describe("backup with the PDFs in a bucket", () => {
  test("copies the database and the link secret, not the PDFs: they stay in the bucket, and the manifest says where", async () => {
    const { id } = await readyReport();
    const to = join(t.dir, "..", `${t.dir.split("/").at(-1)}-backup`);
    try {
      const r = runBackup(t.dir, to, { pdfsIn: t.app.config.storageUrl });
      expect(r.pdfs).toBe(0);
      expect(r.pdfsGone).toBe(0);
      expect(r.reports).toBeGreaterThan(0);
      expect(existsSync(join(to, "reportgen.db"))).toBe(true);
      expect(existsSync(join(to, "link-secret"))).toBe(true);
      expect(readdirSync(join(to, "reports"))).toEqual([]);
      const manifest = JSON.parse(readFileSync(join(to, "backup.json"), "utf8"));
      expect(manifest.pdfs_in).toBe(`s3://${s3().bucket}/pdfs/`);
      expect(await objects(id)).toEqual([`pdfs/${id}/1.pdf`]);
    } finally {
      rmSync(to, { recursive: true, force: true });
    }
  });
});
