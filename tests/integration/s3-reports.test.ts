// Real renders with the PDFs in an S3 bucket (moto_server): the PDF is uploaded before the report is
// marked succeeded and downloads from the bucket; while the bucket is down reports wait (no attempt
// spent, never blamed on the template) and then succeed; a bucket that refuses one PDF ends that
// report storage_error, a service fault, after its attempts.
import { beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { S3Client } from "bun";
import { fetchLink, generate, pdfText, type TestApp, useRenderApp, waitForReport } from "../helpers/app";
import { useS3 } from "../helpers/s3";
import { submit } from "../helpers/scenario";

setDefaultTimeout(60_000);
const s3 = useS3();
let t: TestApp;
// Settings are read when the app starts, after moto is up: a getter defers them to then.
useRenderApp(
  (a) => (t = a),
  () => ({
    storageUrl: `s3://${s3().bucket}/cluster/`,
    s3: { endpoint: s3().endpoint, accessKeyId: "k", secretAccessKey: "s", sessionToken: "", region: "us-east-1" },
    maxAttempts: 2,
  }),
);
beforeEach(() => s3().up());

const bucket = () => new S3Client({ endpoint: s3().directEndpoint, bucket: s3().bucket, accessKeyId: "k", secretAccessKey: "s" });
const objects = async (id: string) => (await bucket().list({ prefix: `cluster/${id}/` })).contents ?? [];

test("a rendered PDF is in the bucket before the report reads succeeded, and downloads from there", async () => {
  const { report, pdf } = await generate(t, { engine: "ejs", html_template: "<h1>Invoice <%= n %></h1>", data: { n: 4711 } });
  expect(report.status).toBe("succeeded");
  const stored = await objects(report.report_id);
  expect(stored.map((o) => o.key)).toEqual([`cluster/${report.report_id}/1.pdf`]);
  expect(stored[0]?.size).toBe(report.size_bytes);
  expect(await pdfText(pdf!)).toContain("Invoice 4711");
});

test("a thumbnail is kept in the bucket beside the report's PDF, served from there, and removed with the report", async () => {
  const { report } = await generate(t, { engine: "raw", html_template: "<h1 style='color:#36c'>Thumbnail in the bucket</h1>" });
  const id = report.report_id;
  const first = await t.request("GET", `/api/v1/reports/${id}/thumbnail`);
  expect(first.status).toBe(200);
  expect(first.headers.get("content-type")).toBe("image/png");
  const png = new Uint8Array(await first.arrayBuffer());
  expect((await objects(id)).map((o) => o.key).sort()).toEqual([`cluster/${id}/1.pdf`, `cluster/${id}/1.thumb.png`]);
  // Served again from the bucket: the same bytes, and no second object.
  expect(new Uint8Array(await (await t.request("GET", `/api/v1/reports/${id}/thumbnail`)).arrayBuffer())).toEqual(png);
  expect((await t.request("DELETE", `/api/v1/reports/${id}`)).status).toBe(200);
  expect(await objects(id)).toEqual([]);
});

/** The instance's bucket traffic as /metrics shows it (reportgen_bucket_*_total{kind="pdf"}). */
async function traffic() {
  const text = await (await t.request("GET", "/metrics", { key: null })).text();
  const read = (name: string) => Number(new RegExp(`^reportgen_bucket_${name}_total\\{kind="pdf"\\} (\\d+)$`, "m").exec(text)?.[1]);
  return { sent: read("sent_bytes"), received: read("received_bytes"), requests: read("requests") };
}

test("/metrics counts the bucket's traffic: a report's upload adds its PDF's size, its download the same, every request counted", async () => {
  const before = await traffic();
  const proxied = s3().requests.length;
  const { report, pdf } = await generate(t, { engine: "ejs", html_template: "<h1>Traffic <%= n %></h1>", data: { n: 7 } });
  expect(report.status).toBe("succeeded");
  expect(pdf!.length).toBe(report.size_bytes);
  const after = await traffic();
  expect(after.sent - before.sent).toBe(report.size_bytes);
  expect(after.received - before.received).toBe(report.size_bytes);
  // Every request that went through the bucket's proxy is counted: the PUT, the download's lookup
  // (HEAD: a succeeded report whose object is gone answers 410 pdf_missing) and one GET of the PDF read whole.
  const methods = s3()
    .requests.slice(proxied)
    .map((r) => r.method);
  expect(methods).toEqual(["PUT", "HEAD", "GET"]);
  expect(after.requests - before.requests).toBe(methods.length);
});

test("while the upload is held up, the report is still processing: success is recorded only after the PDF is in the bucket", async () => {
  s3().hang();
  const id = await submit(t, { engine: "raw", html_template: "<p>slow bucket</p>" });
  const until = Date.now() + 20_000;
  while (!s3().requests.some((r) => r.method === "PUT" && r.path.includes(id)) && Date.now() < until) await Bun.sleep(20);
  const held = (await (await t.request("GET", `/api/v1/reports/${id}`)).json()) as { data: { status: string } };
  expect(held.data.status).toBe("processing");
  // The held upload is answered 503 now: Bun's client or the processor tries again, and it gets through.
  s3().up();
  const report = await waitForReport(t, id);
  expect(report.status).toBe("succeeded");
  expect((await objects(id)).map((o) => o.key)).toEqual([`cluster/${id}/${report.attempts}.pdf`]);
});

test("an upload abandoned at its deadline spends its attempt: if it lands late it is under its own key, and downloads serve the winner", async () => {
  // Short deadlines for this test only (60 s and 10 s by default).
  const store = t.app.services.files as unknown as { uploadTimeoutMs: number; requestTimeoutMs: number };
  const saved = { ...store };
  Object.assign(store, { uploadTimeoutMs: 500, requestTimeoutMs: 500 });
  try {
    s3().hang();
    const id = await submit(t, { engine: "raw", html_template: "<p>abandoned upload</p>" });
    const until = Date.now() + 20_000;
    while (t.app.services.files.writable && Date.now() < until) await Bun.sleep(20);
    expect(t.app.services.files.writable).toBe(false);
    s3().up();
    const report = await waitForReport(t, id);
    expect(report.status).toBe("succeeded");
    expect(report.attempts).toBe(2);
    const keys = (await objects(id)).map((o) => o.key);
    expect(keys).toContain(`cluster/${id}/2.pdf`);
    for (const k of keys) expect([`cluster/${id}/1.pdf`, `cluster/${id}/2.pdf`]).toContain(k);
    const dl = ((await (await t.request("GET", `/api/v1/reports/${id}/download`)).json()) as { data: string }).data;
    const served = new Uint8Array(await (await fetchLink(t, dl)).arrayBuffer());
    const winner = new Uint8Array(await bucket().file(`cluster/${id}/2.pdf`).arrayBuffer());
    expect(Bun.hash(served)).toBe(Bun.hash(winner));
    expect((await t.request("DELETE", `/api/v1/reports/${id}`)).status).toBe(200);
    expect(await objects(id)).toEqual([]);
  } finally {
    Object.assign(store, saved);
  }
});

test("a merge reads its parts from the bucket, and a part whose object is gone fails part_unavailable", async () => {
  const a = await generate(t, { engine: "raw", html_template: "<h1>Part Alpha</h1>" });
  const b = await generate(t, { engine: "raw", html_template: "<h1>Part Beta</h1>" });
  const ids = [a.report.report_id, b.report.report_id];
  const merged = await t.request("POST", "/api/v1/reports/merge", { body: { report_ids: ids } });
  expect(merged.status).toBe(202);
  const report = await waitForReport(t, ((await merged.json()) as { report_id: string }).report_id);
  expect(report.status).toBe("succeeded");
  expect(report.page_count).toBe(2);
  const dl = ((await (await t.request("GET", `/api/v1/reports/${report.report_id}/download`)).json()) as { data: string }).data;
  const text = await pdfText(new Uint8Array(await (await fetchLink(t, dl)).arrayBuffer()));
  expect(text.indexOf("Part Alpha")).toBeGreaterThanOrEqual(0);
  expect(text.indexOf("Part Beta")).toBeGreaterThan(text.indexOf("Part Alpha"));

  // The row still says succeeded, but the object went (a bucket lifecycle rule, an operator's hand).
  for (const o of await objects(ids[1]!)) await bucket().delete(o.key);
  const again = await t.request("POST", "/api/v1/reports/merge", { body: { report_ids: ids } });
  expect(again.status).toBe(202);
  const failed = await waitForReport(t, ((await again.json()) as { report_id: string }).report_id);
  expect(failed.status).toBe("failed");
  expect(failed.error?.code).toBe("part_unavailable");
});

describe("a bucket that fails", () => {
  test("down: the report waits (no attempt spent, no failure) and succeeds once the bucket is back", async () => {
    await s3().down();
    const id = await submit(t, { engine: "raw", html_template: "<p>waited for the bucket</p>" });
    // It renders, cannot upload, goes back to the queue, and the processor waits for the bucket.
    const until = Date.now() + 3_000;
    while (Date.now() < until) {
      const r = (await (await t.request("GET", `/api/v1/reports/${id}`)).json()) as { data: { status: string; attempts: number } };
      expect(["queued", "processing"]).toContain(r.data.status);
      expect(r.data.attempts).toBeLessThanOrEqual(1);
      await Bun.sleep(100);
    }
    expect(t.app.services.files.writable).toBe(false);
    s3().up();
    const report = await waitForReport(t, id);
    expect(report.status).toBe("succeeded");
    expect(report.error).toBeNull();
    expect(report.attempts).toBe(1);
    expect((await objects(id)).length).toBe(1);
  });

  test("refusing this report's PDF while the bucket works: storage_error after its attempts, never a template code", async () => {
    s3().refuseWrites(403, /\/cluster\/[0-9a-f-]{36}\/\d+\.pdf$/);
    const id = await submit(t, { engine: "raw", html_template: "<p>refused</p>" });
    const report = await waitForReport(t, id);
    expect(report.status).toBe("failed");
    expect(report.error.code).toBe("storage_error");
    expect(report.error.message).toContain("file store refused");
    expect(report.attempts).toBe(2);
    s3().up();
    expect(await objects(id)).toEqual([]);
  });
});
