// The compiled executable with its PDFs in an S3 bucket (moto_server), driven over HTTP: while the
// bucket is unreachable, reports wait (none fails, none spends an attempt) and the service keeps
// accepting them; once the bucket is back they all succeed, and every PDF downloads through its link.
// The only settings given are the bucket's: --storage-url and the standard AWS variables.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { S3Client } from "bun";
import { useS3 } from "../helpers/s3";
import { api, createKey, type Server, startServer, tempDataDir } from "./helpers";

setDefaultTimeout(180_000);
const s3 = useS3();
const data = tempDataDir();
let server: Server;
let key = "";
beforeAll(async () => {
  key = createKey(data.dir);
  server = await startServer(data.dir, { extraArgs: ["--storage-url", `s3://${s3().bucket}/bb`], env: s3().env });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  data.remove();
});

const bucket = () => new S3Client({ endpoint: s3().directEndpoint, bucket: s3().bucket, accessKeyId: "k", secretAccessKey: "s" });
type Report = { status: string; attempts: number; error: unknown; size_bytes: number | null };
const status = async (id: string) => ((await (await api(server, key, "GET", `/reports/${id}`)).json()) as { data: Report }).data;

test("bucket down: 10 reports are accepted and wait; bucket back: all succeed at their first attempt and download", async () => {
  await s3().down();
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await api(server, key, "POST", "/generate-pdf-async", {
      engine: "ejs",
      html_template: "<h1>No <%= n %></h1>",
      data: { n: i },
    });
    expect(res.status).toBe(202);
    ids.push(((await res.json()) as { report_id: string }).report_id);
  }
  await Bun.sleep(4_000);
  for (const id of ids) {
    const r = await status(id);
    expect(["queued", "processing"]).toContain(r.status);
    expect(r.attempts).toBeLessThanOrEqual(1);
  }
  expect(server.log()).toContain("file store unavailable");

  const backAt = performance.now();
  s3().up();
  const pending = new Set(ids);
  const until = Date.now() + 120_000;
  while (pending.size && Date.now() < until) {
    for (const id of [...pending])
      if ((await status(id)).status !== "processing" && (await status(id)).status !== "queued") pending.delete(id);
    await Bun.sleep(100);
  }
  const recoveredMs = Math.round(performance.now() - backAt);
  console.log(`bucket back -> 10 waiting reports done in ${recoveredMs} ms`);
  expect(pending.size).toBe(0);

  for (const id of ids) {
    const r = await status(id);
    expect(r.status).toBe("succeeded");
    expect(r.attempts).toBe(1);
    const objects = (await bucket().list({ prefix: `bb/${id}/` })).contents ?? [];
    expect(objects.map((o) => o.key)).toEqual([`bb/${id}/1.pdf`]);
    const link = ((await (await api(server, key, "GET", `/reports/${id}/download`)).json()) as { data: string }).data;
    const pdf = await fetch(link);
    expect(pdf.status).toBe(200);
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(bytes.length).toBe(r.size_bytes!);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
  }
  expect(server.log()).toContain("file store recovered");
});
