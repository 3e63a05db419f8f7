// The Destinations page in real Chromium, with axe-core's WCAG 2.1 AA rules at desktop and phone width
// in every state a person reaches: none yet, a refusal (a loopback endpoint), destinations listed, a
// failed test, the delete confirmation and after it. The forms work without JavaScript.
import { afterAll, beforeAll, expect } from "bun:test";
import { api } from "../helpers/process";
import { type Harness, startHarness, test, Watched } from "./harness";
import { expectNoAxeViolationsAt } from "./page-checks";

let h: Harness;
let w: Watched;
const widths = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const checkBothWidths = (label: string) => expectNoAxeViolationsAt(w.page, label, widths);

beforeAll(async () => {
  h = await startHarness();
  w = await Watched.open(h, widths.desktop);
}, 180_000);
afterAll(async () => {
  if (w) {
    w.check();
    await w.close();
  }
  await h?.cleanup();
}, 60_000);

test("destinations: none yet, a refusal, added, a failed test, delete confirmation and after", async () => {
  const { page } = w;
  await w.signIn(h.adminKey);
  await page.goto("/dashboard/destinations");
  await page.getByRole("link", { name: "Destinations" }).first().waitFor();
  await checkBothWidths("destinations, none yet");

  const s3 = page.locator("form").filter({ has: page.locator('input[name="type"][value="s3"]') });
  await s3.getByLabel("Name").fill("archive");
  await s3.getByLabel("Endpoint").fill("https://127.0.0.1:9000");
  await s3.getByLabel("Bucket").fill("acme-archive");
  await s3.getByLabel("Access key id").fill("AKIAEXAMPLE");
  await s3.getByLabel("Secret access key").fill("secret");
  await s3.getByRole("button", { name: "Add" }).click();
  await page.getByRole("alert").waitFor();
  expect(await page.getByRole("alert").textContent()).toContain("s3.endpoint");
  await w.forgiveStatus(422);
  await checkBothWidths("destinations, a refused endpoint");

  const email = page.locator("form").filter({ has: page.locator('input[name="type"][value="email"]') });
  await email.getByLabel("Name").fill("buyers");
  await email.getByLabel("Recipients").fill("ap@buyer.example, cfo@buyer.example");
  await email.getByRole("button", { name: "Add" }).click();
  await page.locator(".notice.ok").waitFor();
  await checkBothWidths("destinations, one listed");
  // No SMTP server is configured: the test says so.
  await page.getByRole("button", { name: "Test destination buyers" }).click();
  await page.getByRole("alert").waitFor();
  expect(await page.getByRole("alert").textContent()).toContain("--smtp-url");
  await checkBothWidths("destinations, a failed test");

  await page.getByRole("link", { name: "Delete destination buyers" }).click();
  await page.getByRole("button", { name: "Delete buyers" }).waitFor();
  await checkBothWidths("destinations, delete confirmation");
  await page.getByRole("button", { name: "Delete buyers" }).click();
  await page.waitForURL(/\/dashboard\/destinations\?deleted=/);
  await checkBothWidths("destinations, after a deletion");
}, 120_000);

test("reports: a report's deliveries show under its status, with the last error", async () => {
  const { page } = w;
  const base = h.server.baseUrl;
  // A name that never resolves: the delivery stays pending, retried, and says why.
  const dest = await api(base, h.adminKey, "POST", "/destinations", {
    name: "archive",
    type: "s3",
    s3: { endpoint: "https://s3.reportgen.invalid", bucket: "acme-archive", access_key_id: "k", secret_access_key: "s" },
  });
  expect(dest.status).toBe(201);
  const r = await api(base, h.adminKey, "POST", "/generate-pdf-async", {
    engine: "raw",
    html_template: "<p>delivered</p>",
    options: { deliver: [{ destination_id: dest.body.data.id, path: "invoices/{report_id}.pdf" }] },
  });
  const id = r.body.report_id as string;
  const end = Date.now() + 60_000;
  while ((await api(base, h.adminKey, "GET", `/reports/${id}`)).body.data.deliveries[0].attempts < 1 && Date.now() < end)
    await Bun.sleep(100);
  await page.goto("/dashboard/reports");
  const list = page.getByRole("list", { name: `Deliveries of report ${id.slice(0, 8)}` });
  await list.waitFor();
  expect(await list.textContent()).toContain(`invoices/${id}.pdf`);
  expect(await list.textContent()).toContain("Delivery pending");
  await checkBothWidths("reports, a delivery pending with its error");
}, 120_000);
