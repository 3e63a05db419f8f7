// What a module's descriptor adds to the App besides routes: its services, built by bootstrap() after
// the core ones (the webhooks module's signing secrets), and what they run, started and stopped with
// the App (the templates module's data_schema thread, counted in the App's registry of children).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { WebhookSecrets } from "../../src/modules/webhooks/secrets";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeAll(async () => {
  // A generous data_schema deadline: the thread starts on the first check, slowly on a busy machine.
  t = await createTestApp({ config: { schemaTimeout: 60_000 } });
});
afterAll(() => t.close());

test("a module's services are built at start-up and reached as app.services, by the App and the routes alike", async () => {
  expect(t.app.services.webhookSecrets).toBeInstanceOf(WebhookSecrets);
  const res = await t.request("GET", "/api/v1/webhook-secret");
  expect(res.status).toBe(200);
  expect(((await res.json()) as { data: { secret: string } }).data.secret).toStartWith("whsec_");
});

test("a module's start runs with the App's: the data_schema thread is one of the App's children", async () => {
  const res = await t.request("POST", "/api/v1/templates", {
    body: { name: "with schema", engine: "ejs", html_template: "<p><%= n %></p>", data_schema: { type: "object" } },
  });
  expect({ status: res.status, body: await res.text() }).toMatchObject({ status: 201 });
  expect(t.app.children.stats().validator.children).toBe(1);
});
