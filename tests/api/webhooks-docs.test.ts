// The documentation of webhooks and idempotency keys: the OpenAPI document describes them, and the
// verification snippets in the user guide (docs/webhooks.md) and in the OpenAPI description actually verify a real event.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers/app";
import { inlined } from "../helpers/openapi-check";
import { repoRoot } from "../helpers/process";
import { type Receiver, startReceiver } from "../helpers/webhook-receiver";

let t: TestApp;
let spec: any;
let receiver: Receiver;
const tmp = mkdtempSync(join(tmpdir(), "reportgen-snippets-"));
beforeAll(async () => {
  t = await createTestApp({ config: { webhookAllowHosts: ["127.0.0.1"] } });
  // Shapes are read where they are used: named schemas inlined.
  spec = inlined(await (await t.request("GET", "/api/v1/openapi.json")).json());
  receiver = startReceiver();
});
afterAll(async () => {
  await t.close();
  receiver.stop();
  rmSync(tmp, { recursive: true, force: true });
});

test("OpenAPI: the event schema as a 3.1 webhook, with its three headers", () => {
  const op = spec.webhooks.reportFinished.post;
  expect(op.parameters.map((p: any) => p.name)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
  const schema = op.requestBody.content["application/json"].schema;
  expect(Object.keys(schema.properties)).toEqual(["type", "timestamp", "data"]);
  expect(Object.keys(schema.properties.data.properties)).toEqual(
    expect.arrayContaining(["report_id", "status", "created_at", "finished_at", "error", "download"]),
  );
});

test("OpenAPI: Idempotency-Key on both POSTs, the webhook field, the delivery log and the secret endpoints", () => {
  for (const path of ["/api/v1/generate-pdf-async", "/api/v1/access-keys"]) {
    expect(spec.paths[path].post.parameters.map((p: any) => p.name)).toContain("idempotency-key");
  }
  expect(
    spec.paths["/api/v1/generate-pdf-async"].post.requestBody.content["application/json"].schema.properties.webhook.properties.url,
  ).toBeDefined();
  const report = spec.paths["/api/v1/reports/{reportID}"].get.responses["200"].content["application/json"].schema.properties.data;
  expect(report.properties.webhook.properties.deliveries.items.properties.attempts).toBeDefined();
  expect(spec.paths["/api/v1/webhook-secret"].get).toBeDefined();
  expect(spec.paths["/api/v1/webhook-secret/rotate"].post).toBeDefined();
  const d: string = spec.info.description;
  for (const words of ["idempotency_key_reused", "at-least-once", "2^(n−1)", "at most 1 h", "webhook-signature", "Idempotent-Replayed"])
    expect(d).toContain(words);
});

/** The ```ts block of a text that contains `marker`. */
function snippet(text: string, marker: string): string {
  const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const found = blocks.find((b) => b.includes(marker));
  if (!found) throw new Error(`no ts block with ${marker}`);
  return found;
}

async function deliveredEvent() {
  const r = await t.request("POST", "/api/v1/generate-pdf-async", {
    body: { engine: "raw", html_template: "<p>x</p>", webhook: { url: receiver.url } },
  });
  const { report_id } = (await r.json()) as { report_id: string };
  const [claimed] = await t.app.services.repos.queue.claim(Date.now(), 60_000);
  await t.app.services.repos.queue.fail(report_id, claimed!.attempts, "template_error", "boom", Date.now());
  t.app.services.reports.events.finished(report_id);
  const [got] = await receiver.waitFor(1);
  const secret = ((await (await t.request("GET", "/api/v1/webhook-secret")).json()) as any).data.secret as string;
  return { got: got!, secret, report_id };
}

test("the guide's and the OpenAPI description's TypeScript snippets verify a real event and reject a forged one", async () => {
  const readmeFile = join(tmp, "guide-snippet.ts");
  writeFileSync(readmeFile, snippet(readFileSync(join(repoRoot, "docs", "webhooks.md"), "utf8"), "verifyReportgenEvent"));
  const openapiFile = join(tmp, "openapi-snippet.ts");
  writeFileSync(openapiFile, `${snippet(spec.info.description, "function verify")}\nexport { verify };\n`);
  const { verifyReportgenEvent } = await import(readmeFile);
  const { verify } = await import(openapiFile);
  const { got, secret, report_id } = await deliveredEvent();
  const headers = new Headers(got.headers);
  for (const fn of [verifyReportgenEvent, verify]) {
    expect(fn(secret, headers, got.body).data.report_id).toBe(report_id);
    expect(() => fn(secret, headers, got.body.replace("boom", "BOOM"))).toThrow();
    expect(() => fn(`whsec_${Buffer.alloc(32, 1).toString("base64")}`, headers, got.body)).toThrow();
  }
});
