// Deliveries on a cluster's database (PostgreSQL): two instances on one database both run the delivery
// worker; each delivery is claimed by one of them (FOR UPDATE SKIP LOCKED and a lease), so every object
// is PUT into the customer's bucket (moto_server) exactly once.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, type TestApp, waitForReport } from "../helpers/app";
import { createDestination, waitForDeliveries } from "../helpers/delivery";
import { usePostgres } from "../helpers/postgres";
import { useS3 } from "../helpers/s3";

setDefaultTimeout(120_000);
const s3 = useS3("customer-cluster");
const pg = usePostgres();
let api: TestApp;
let worker: TestApp;
const dir = mkdtempSync(join(tmpdir(), "rg-delivery-cluster-"));
beforeAll(async () => {
  const config = { databaseUrl: await pg().createDatabase(), destinationAllowHosts: ["127.0.0.1"], deliveryRetryBase: 200 };
  api = await createTestApp({ dir, config });
  worker = await createTestApp({ dir, render: true, config });
}, 90_000);
afterAll(async () => {
  await worker?.close();
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("two instances deliver 20 reports: each object is PUT exactly once", async () => {
  expect(api.app.services.backend.kind).toBe("postgres");
  const dest = await createDestination(api, {
    name: "archive",
    type: "s3",
    s3: { endpoint: s3().endpoint, bucket: s3().bucket, prefix: "c/", access_key_id: "k", secret_access_key: "s" },
  });
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const r = await api.request("POST", "/api/v1/generate-pdf-async", {
      body: { engine: "raw", html_template: `<p>${i}</p>`, options: { deliver: [{ destination_id: dest }] } },
    });
    expect(r.status).toBe(202);
    ids.push(((await r.json()) as { report_id: string }).report_id);
  }
  for (const id of ids) {
    expect((await waitForReport(api, id, 60_000)).status).toBe("succeeded");
    expect((await waitForDeliveries(api, id, undefined, 60_000))[0]).toMatchObject({ status: "delivered", attempts: 1 });
  }
  const puts = s3().requests.filter((r) => r.method === "PUT" && r.path.startsWith(`/${s3().bucket}/c/`));
  expect(puts.map((p) => p.path).sort()).toEqual(ids.map((id) => `/${s3().bucket}/c/${id}.pdf`).sort());
});
