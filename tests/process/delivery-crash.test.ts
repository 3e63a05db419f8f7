// SIGKILL mid-delivery loses no delivery: with uploads to the customer's bucket (moto_server behind the
// fault proxy) hanging, reportgen is killed while attempts are in flight; after the restart every
// delivery is made, to the same key, and the objects are the reports' PDFs byte for byte.
import { Database } from "bun:sqlite";
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { S3Client } from "bun";
import { sha256 } from "../helpers/delivery";
import { api, runCli, sourceCommand, startServer } from "../helpers/process";
import { useS3 } from "../helpers/s3";

setDefaultTimeout(120_000);
const s3 = useS3("customer-crash");
const dir = mkdtempSync(join(tmpdir(), "reportgen-delivery-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = { REPORTGEN_DESTINATION_ALLOW_HOSTS: "127.0.0.1", REPORTGEN_DELIVERY_RETRY_BASE: "200ms", REPORTGEN_DELIVERY_TIMEOUT: "60s" };

function inFlight(): number {
  const db = new Database(join(dir, "reportgen.db"), { readonly: true });
  const n = db
    .query<{ n: number }, []>("SELECT count(*) AS n FROM report_deliveries WHERE status = 'pending' AND claimed_by IS NOT NULL")
    .get()!.n;
  db.close();
  return n;
}

test("SIGKILL with deliveries in flight, then restart: every delivery is made, to the same key", async () => {
  const key = runCli(sourceCommand, ["admin", "create-key", "--name", "crash", "--data-dir", dir]).stdout.trim();
  const first = await startServer(sourceCommand, dir, { env });
  const dest = await api(first.baseUrl, key, "POST", "/destinations", {
    name: "archive",
    type: "s3",
    s3: { endpoint: s3().endpoint, bucket: s3().bucket, prefix: "crash/", access_key_id: "k", secret_access_key: "s" },
  });
  expect(dest.status).toBe(201);
  s3().hang();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await api(first.baseUrl, key, "POST", "/generate-pdf-async", {
      engine: "raw",
      html_template: `<p>delivery ${i}</p>`,
      options: { deliver: [{ destination_id: dest.body.data.id }] },
    });
    expect(r.status).toBe(202);
    ids.push(r.body.report_id);
  }
  const end = Date.now() + 60_000;
  while (inFlight() < 3 && Date.now() < end) await Bun.sleep(50);
  expect(inFlight()).toBe(3);
  first.proc.kill("SIGKILL");
  await first.proc.exited;
  s3().up();

  const second = await startServer(sourceCommand, dir, { env });
  try {
    const bucket = new S3Client({ endpoint: s3().directEndpoint, bucket: s3().bucket, accessKeyId: "k", secretAccessKey: "s" });
    for (const id of ids) {
      let d: any;
      const until = Date.now() + 60_000;
      do {
        d = (await api(second.baseUrl, key, "GET", `/reports/${id}`)).body.data.deliveries[0];
        if (d.status !== "pending") break;
        await Bun.sleep(100);
      } while (Date.now() < until);
      expect(d).toMatchObject({ status: "delivered", target: `${id}.pdf` });
      const link = (await api(second.baseUrl, key, "GET", `/reports/${id}/download`)).body.data as string;
      const pdf = new Uint8Array(await (await fetch(link)).arrayBuffer());
      expect(sha256(new Uint8Array(await bucket.file(`crash/${id}.pdf`).arrayBuffer()))).toBe(sha256(pdf));
    }
    // One object per report, whatever the killed attempts left: the key is the same on every attempt.
    expect(((await bucket.list({ prefix: "crash/" })).contents ?? []).map((o) => o.key).sort()).toEqual(
      ids.map((id) => `crash/${id}.pdf`).sort(),
    );
  } finally {
    second.proc.kill("SIGTERM");
    await second.proc.exited;
  }
});
