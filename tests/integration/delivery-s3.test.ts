// Delivery to the customer's bucket: a second moto_server (behind the fault-injecting proxy) plays the
// customer's S3. Real renders; the delivered objects are read back and their sha256 compared with the
// report's download. Generate, merge and stored-template renders deliver; a bucket that is down or
// refuses (403) is retried with the same object key; one that hangs holds no render slot.
import { beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { S3Client } from "bun";
import { generate, type TestApp, useRenderApp, waitForReport } from "../helpers/app";
import { createDestination, sha256, waitForDeliveries } from "../helpers/delivery";
import { useS3 } from "../helpers/s3";
import { startReceiver, verifyStandardWebhook } from "../helpers/webhook-receiver";

setDefaultTimeout(60_000);
const s3 = useS3("customer-archive");
let t: TestApp;
useRenderApp(
  (a) => (t = a),
  () => ({
    destinationAllowHosts: ["127.0.0.1"],
    webhookAllowHosts: ["127.0.0.1"],
    deliveryRetryBase: 200,
    deliveryRetryWindow: 6_000,
    deliveryTimeout: 5_000,
  }),
);
beforeEach(() => s3().up());

const bucket = () => new S3Client({ endpoint: s3().directEndpoint, bucket: s3().bucket, accessKeyId: "k", secretAccessKey: "s" });
const destination = (prefix = "reports/") =>
  createDestination(t, {
    name: "archive",
    type: "s3",
    s3: { endpoint: s3().endpoint, region: "us-east-1", bucket: s3().bucket, prefix, access_key_id: "k", secret_access_key: "s" },
  });
const puts = (key: string) => s3().requests.filter((r) => r.method === "PUT" && r.path === `/${s3().bucket}/${key}`).length;

describe("delivery to an S3 bucket", () => {
  test("a generated report lands in the bucket under its path, byte for byte the PDF it downloads", async () => {
    const dest = await destination();
    const { report, pdf } = await generate(t, {
      engine: "ejs",
      html_template: "<h1>Invoice <%= n %></h1>",
      data: { n: 4711 },
      options: { deliver: [{ destination_id: dest, path: "invoices/{yyyy}/{report_id}.pdf" }] },
    });
    expect(report.status).toBe("succeeded");
    const [d] = await waitForDeliveries(t, report.report_id);
    const key = `invoices/${new Date(report.created_at).getUTCFullYear()}/${report.report_id}.pdf`;
    expect(d).toMatchObject({ destination_id: dest, status: "delivered", attempts: 1, target: key, error: null });
    expect(Date.parse(d!.delivered_at!)).toBeGreaterThanOrEqual(Date.parse(report.finished_at));
    const object = new Uint8Array(await bucket().file(`reports/${key}`).arrayBuffer());
    expect(sha256(object)).toBe(sha256(pdf!));
    expect(new TextDecoder().decode(object.subarray(0, 5))).toBe("%PDF-");
  });

  test("stored-template and merge renders deliver too, each to its own default key", async () => {
    const dest = await destination("m/");
    const made = await t.request("POST", "/api/v1/templates", { body: { name: "T", engine: "raw", html_template: "<p>stored</p>" } });
    const templateId = ((await made.json()) as { template_id: string }).template_id;
    const fromTemplate = await generate(t, {
      template_id: templateId,
      options: { deliver: [{ destination_id: dest, path: "{template_id}/{report_id}.pdf" }] },
    });
    const parts = [fromTemplate.report.report_id, (await generate(t, { engine: "raw", html_template: "<p>two</p>" })).report.report_id];
    const merge = await t.request("POST", "/api/v1/reports/merge", {
      body: { report_ids: parts, options: { deliver: [{ destination_id: dest }] } },
    });
    expect(merge.status).toBe(202);
    const mergedId = ((await merge.json()) as { report_id: string }).report_id;
    expect((await waitForReport(t, mergedId)).status).toBe("succeeded");
    expect((await waitForDeliveries(t, fromTemplate.report.report_id))[0]!.status).toBe("delivered");
    expect((await waitForDeliveries(t, mergedId))[0]).toMatchObject({ status: "delivered", target: `${mergedId}.pdf` });
    expect(await bucket().file(`m/${templateId}/${fromTemplate.report.report_id}.pdf`).exists()).toBe(true);
    expect(await bucket().file(`m/${mergedId}.pdf`).exists()).toBe(true);
  });

  test("a bucket that is down is retried with backoff, to the same key, until it is back", async () => {
    const dest = await destination();
    await s3().down();
    const { report, pdf } = await generate(t, {
      engine: "raw",
      html_template: "<p>while down</p>",
      options: { deliver: [{ destination_id: dest }] },
    });
    const failing = await waitForDeliveries(t, report.report_id, (d) => d[0]!.attempts >= 2);
    expect(failing[0]).toMatchObject({ status: "pending", delivered_at: null });
    expect(failing[0]!.error).toContain("connection failed");
    s3().up();
    const [d] = await waitForDeliveries(t, report.report_id);
    expect(d).toMatchObject({ status: "delivered", error: null, target: `${report.report_id}.pdf` });
    expect(d!.attempts).toBeGreaterThanOrEqual(3);
    expect(sha256(new Uint8Array(await bucket().file(`reports/${report.report_id}.pdf`).arrayBuffer()))).toBe(sha256(pdf!));
    expect(puts(`reports/${report.report_id}.pdf`)).toBe(1);
  });

  test("a bucket that refuses the credentials (403 AccessDenied) is retried until the window ends, then failed", async () => {
    const dest = await destination();
    s3().refuseWrites(403);
    const { report } = await generate(t, {
      engine: "raw",
      html_template: "<p>refused</p>",
      options: { deliver: [{ destination_id: dest }] },
    });
    const [d] = await waitForDeliveries(t, report.report_id, undefined, 20_000);
    expect(d).toMatchObject({ status: "failed", delivered_at: null });
    expect(d!.error).toBe("the bucket answered 403 AccessDenied: Access Denied");
    expect(d!.attempts).toBeGreaterThanOrEqual(2);
    // Every attempt wrote the same key.
    expect(puts(`reports/${report.report_id}.pdf`)).toBe(d!.attempts);
  });

  test("a bucket that hangs holds no render slot: other reports render meanwhile", async () => {
    const dest = await destination();
    s3().hang();
    const slow = await generate(t, { engine: "raw", html_template: "<p>slow</p>", options: { deliver: [{ destination_id: dest }] } });
    await waitForDeliveries(t, slow.report.report_id, () => t.app.services.deliveryWorker.busy > 0);
    // Both render slots (renderPages: 2) are free for these while the delivery hangs.
    const others = await Promise.all([1, 2, 3].map((n) => generate(t, { engine: "raw", html_template: `<p>other ${n}</p>` })));
    expect(others.map((o) => o.report.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect((await waitForDeliveries(t, slow.report.report_id, () => true))[0]!.status).toBe("pending");
    s3().up();
  });

  test("the report's webhook gets report.delivered and report.delivery_failed, signed like its other events", async () => {
    const good = await destination();
    const receiver = startReceiver();
    try {
      // The second entry names a destination deleted after the report was accepted: that delivery fails.
      const gone = await destination();
      const res = await t.request("POST", "/api/v1/generate-pdf-async", {
        body: {
          engine: "raw",
          html_template: "<p>events</p>",
          webhook: { url: receiver.url },
          options: { deliver: [{ destination_id: good }, { destination_id: gone, path: "gone/{report_id}.pdf" }] },
        },
      });
      const id = ((await res.json()) as { report_id: string }).report_id;
      expect((await t.request("DELETE", `/api/v1/destinations/${gone}`)).status).toBe(200);
      expect((await waitForReport(t, id)).status).toBe("succeeded");
      await waitForDeliveries(t, id);
      const got = await receiver.waitFor(3, 30_000);
      const secret = ((await (await t.request("GET", "/api/v1/webhook-secret")).json()) as { data: { secret: string } }).data.secret;
      const events = got.map((g) => verifyStandardWebhook(secret, g.headers, g.body));
      const byType = Object.fromEntries(events.map((e) => [e.type, e.data]));
      expect(Object.keys(byType).sort()).toEqual(["report.delivered", "report.delivery_failed", "report.succeeded"]);
      expect(byType["report.delivered"]).toMatchObject({
        report_id: id,
        delivery: { destination_id: good, status: "delivered", target: `${id}.pdf` },
      });
      expect(byType["report.delivery_failed"]).toMatchObject({
        report_id: id,
        delivery: { destination_id: gone, status: "failed", error: "the destination was deleted", attempts: 1 },
      });
      expect(new Set(got.map((g) => g.headers["webhook-id"])).size).toBe(3);
    } finally {
      receiver.stop();
    }
  });

  test("POST /destinations/{id}/test puts a small object and answers what happened", async () => {
    const dest = await destination("t/");
    const ok = (await (await t.request("POST", `/api/v1/destinations/${dest}/test`, { body: {} })).json()) as {
      data: Record<string, unknown>;
    };
    expect(ok.data).toMatchObject({ ok: true, target: "reportgen-test.txt" });
    expect(await bucket().file("t/reportgen-test.txt").text()).toContain("reportgen delivery test");
    await s3().down();
    const down = (await (await t.request("POST", `/api/v1/destinations/${dest}/test`, { body: {} })).json()) as {
      data: Record<string, unknown>;
    };
    expect(down.data.ok).toBe(false);
    expect(down.data.error).toContain("connection failed");
  });
});
