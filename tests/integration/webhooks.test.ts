// Webhook events from real renders (EJS sandbox + Chromium): a succeeded report's event carries a
// signed link to the real PDF; a template error's event carries the failure code and message.
import { afterAll, expect, test } from "bun:test";
import { fetchLink, pdfText, type TestApp, useRenderApp } from "../helpers/app";
import { startReceiver, verifyStandardWebhook } from "../helpers/webhook-receiver";

let t: TestApp;
useRenderApp((a) => (t = a), { webhookAllowHosts: ["127.0.0.1"], webhookRetryBase: 100 });
const receiver = startReceiver();
afterAll(() => receiver.stop());

async function eventFor(reportId: string) {
  const end = Date.now() + 60_000;
  for (;;) {
    const hit = receiver.received.find((r) => JSON.parse(r.body).data.report_id === reportId);
    if (hit) {
      const secret = ((await (await t.request("GET", "/api/v1/webhook-secret")).json()) as any).data.secret;
      return { headers: hit.headers, event: verifyStandardWebhook(secret, hit.headers, hit.body) };
    }
    if (Date.now() > end) throw new Error(`no event for ${reportId}`);
    await Bun.sleep(25);
  }
}

test("a rendered report: report.succeeded, signed, with a link to the PDF", async () => {
  const r = await t.request("POST", "/api/v1/generate-pdf-async", {
    body: { engine: "ejs", html_template: "<h1>Invoice <%= number %></h1>", data: { number: 4711 }, webhook: { url: receiver.url } },
  });
  const { report_id } = (await r.json()) as { report_id: string };
  const { event, headers } = await eventFor(report_id);
  expect(event.type).toBe("report.succeeded");
  expect(event.data).toMatchObject({ report_id, status: "succeeded", engine: "ejs", page_count: 1, error: null });
  expect(event.data.size_bytes).toBeGreaterThan(500);
  const pdf = await fetchLink(t, event.data.download.url);
  expect(pdf.status).toBe(200);
  expect(await pdfText(new Uint8Array(await pdf.arrayBuffer()))).toContain("Invoice 4711");
  const report = ((await (await t.request("GET", `/api/v1/reports/${report_id}`)).json()) as any).data;
  expect(report.webhook.deliveries[0]).toMatchObject({ webhook_id: headers["webhook-id"], event: "report.succeeded" });
});

test("a template error: report.failed with template_error and the message", async () => {
  const r = await t.request("POST", "/api/v1/generate-pdf-async", {
    body: { engine: "ejs", html_template: "<p><%= missing.field %></p>", data: {}, webhook: { url: receiver.url } },
  });
  const { report_id } = (await r.json()) as { report_id: string };
  const { event } = await eventFor(report_id);
  expect(event.type).toBe("report.failed");
  expect(event.data.status).toBe("failed");
  expect(event.data.error.code).toBe("template_error");
  expect(event.data.error.message).toContain("missing");
  expect(event.data.download).toBeNull();
});
