// axe-core's WCAG 2.1 AA rules on every dashboard page and state a person can reach, at desktop and
// phone width: signed out (sign-in, its refusal, 404), and signed in (overview, reports of every
// status, a report's own pages (there is no detail page: its not-ready download, its deletion, an
// unknown id), access keys, signing identities, playground, 404). One server, one browser, in sequence.
// The Templates pages are checked in templates.test.ts. The user guide (/docs) is checked here too: it
// is served under the dashboard's CSP, and its pages hold wide tables and code.
import { afterAll, beforeAll, expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { example1 } from "../helpers/einvoice-examples";
import { api } from "../helpers/process";
import { makePki, openssl, P12_PASSWORD } from "../helpers/signing";
import { type Harness, startHarness, test, Watched } from "./harness";
import { expectNoAxeViolationsAt } from "./page-checks";

let h: Harness;
let w: Watched;
let base: string;

const widths = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** The page as it is now, at both widths. */
const checkBothWidths = (label: string) => expectNoAxeViolationsAt(w.page, label, widths);

/** Waits for a report to finish through the API. */
async function finished(id: string): Promise<void> {
  const r = await api(base, h.adminKey, "GET", `/reports/${id}?wait=30`);
  expect(r.status).toBe(200);
}

// One worker with one print page: a slow report holds it, so reports after it stay queued while the
// Reports page is checked.
beforeAll(async () => {
  h = await startHarness(["--render-workers", "1", "--render-pages", "1"]);
  base = h.server.baseUrl;
  w = await Watched.open(h, widths.desktop);
}, 180_000);

afterAll(async () => {
  if (w) {
    w.check();
    await w.close();
  }
  await h?.cleanup();
}, 60_000);

test("signed out: sign-in, its refusal, and a 404", async () => {
  const { page } = w;
  await page.goto("/dashboard/sign-in");
  await checkBothWidths("sign-in");

  await page.getByLabel("Access key").fill(`rg_aaaaaaaaaaaa_${"A".repeat(43)}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("alert").waitFor();
  await w.forgiveStatus(401);
  await checkBothWidths("sign-in refused");

  await page.goto("/dashboard/nowhere");
  await w.forgiveStatus(404);
  await checkBothWidths("404 signed out");
}, 60_000);

test("the user guide: its index, the longest pages, and a page that does not exist", async () => {
  const { page } = w;
  for (const path of [
    "/docs",
    "/docs/api",
    "/docs/configuration-reference",
    "/docs/errors-reference",
    "/docs/benchmarks",
    "/docs/cluster",
  ]) {
    await page.goto(path);
    await checkBothWidths(`guide ${path}`);
  }
  await page.goto("/docs/no-such-page");
  await w.forgiveStatus(404);
  await checkBothWidths("guide, 404");
}, 120_000);

test("signed in, nothing yet: overview, reports, playground, 404", async () => {
  await w.signIn(h.adminKey);
  const { page } = w;
  await checkBothWidths("overview, no reports");
  await page.goto("/dashboard/reports");
  await checkBothWidths("reports, none yet");
  await page.goto("/dashboard/reports?status=expired");
  await checkBothWidths("reports, empty filter");
  await page.goto("/dashboard/playground");
  await checkBothWidths("playground");
  await page.goto("/dashboard/templates");
  await checkBothWidths("templates, none yet");
  await page.goto("/dashboard/nowhere");
  await w.forgiveStatus(404);
  await checkBothWidths("404 signed in");
}, 60_000);

test("playground: invalid data, a result, a template error", async () => {
  const { page } = w;
  await page.goto("/dashboard/playground");
  await page.getByLabel("Data (JSON object)").fill('{"name": ');
  await page.locator("#data-error").getByText("Not valid JSON").waitFor();
  await checkBothWidths("playground, data not JSON");

  await page.getByRole("textbox", { name: "Template", exact: true }).fill("<h1>Hello <%= name %></h1>");
  await page.getByLabel("Data (JSON object)").fill('{"name": "Ada"}');
  await page.getByRole("button", { name: "Render PDF" }).click();
  await page.locator("iframe.preview").waitFor({ timeout: 45_000 });
  await checkBothWidths("playground, PDF shown");

  await page.getByRole("textbox", { name: "Template", exact: true }).fill("<p><% throw new Error('no such ledger') %></p>");
  await page.getByLabel("Data (JSON object)").fill("{}");
  await page.getByRole("button", { name: "Render PDF" }).click();
  await page.locator("#failure-reason").waitFor({ timeout: 45_000 });
  await checkBothWidths("playground, template error");
}, 120_000);

test("reports of every status, and a report's own pages", async () => {
  const { page } = w;
  const ok = await api(base, h.adminKey, "POST", "/generate-pdf-async", { engine: "raw", html_template: "<p>Fine</p>" });
  await finished(ok.body.report_id);
  // A slow report (its script holds the load event) keeps the one print page busy; the processor
  // takes up to three reports at a time on two cores (src/app/renderer.ts, lanes), so of the five after it at
  // least one waits queued.
  const slow = await api(base, h.adminKey, "POST", "/generate-pdf-async", {
    engine: "raw",
    html_template: "<p>Slow</p><script>const t = Date.now(); while (Date.now() - t < 8000) {}</script>",
  });
  const waiting: string[] = [];
  for (let i = 0; i < 5; i++)
    waiting.push(
      (await api(base, h.adminKey, "POST", "/generate-pdf-async", { engine: "raw", html_template: `<p>Waiting ${i}</p>` })).body.report_id,
    );
  const queued = waiting.at(-1)!;
  await page.goto("/dashboard/reports");
  for (const s of ["succeeded", "failed", "queued"]) expect(await page.locator(`tbody .badge.${s}`).count()).toBeGreaterThan(0);
  await checkBothWidths("reports, every status");
  await page.goto("/dashboard");
  await checkBothWidths("overview, with reports");

  // A report's own pages: its PDF asked for before it is ready, and its deletion.
  await page.goto(`/dashboard/reports/${queued}/download`);
  await w.forgiveStatus(409);
  await checkBothWidths("report not ready");
  await page.goto("/dashboard/reports/no-such-report/delete");
  await w.forgiveStatus(404);
  await checkBothWidths("unknown report");
  await page.goto(`/dashboard/reports/${ok.body.report_id}/delete`);
  await checkBothWidths("report delete confirmation");
  await page.getByRole("button", { name: "Delete report" }).click();
  await page.waitForURL(/deleted=1/);
  await checkBothWidths("reports, after a deletion");
  await page.goto("/dashboard/reports?status=failed");
  await checkBothWidths("reports, failed only");
  await finished(slow.body.report_id);
  for (const id of waiting) await finished(id);
}, 120_000);

test("an e-invoice report: its PDF/A and invoice figures in the row, and the XML link", async () => {
  const { page } = w;
  const r = await api(base, h.adminKey, "POST", "/generate-pdf-async", {
    engine: "raw",
    html_template: "<h1>Invoice</h1>",
    options: { e_invoice: { profile: "en16931", invoice: example1.invoice } },
  });
  expect(r.status).toBe(202);
  await finished(r.body.report_id);
  await page.goto("/dashboard/reports");
  const row = page.locator("tbody tr", { hasText: example1.invoice.number });
  await row.getByText("PDF/A-3b").waitFor();
  await row.getByRole("link", { name: /e-invoice XML/ }).waitFor();
  await checkBothWidths("reports, an e-invoice");
}, 60_000);

test("a chunked report's progress bar while it renders", async () => {
  const { page } = w;
  // Four chunks whose script holds each print ~1.5 s: the report stays processing while it is checked.
  const chunked = await api(base, h.adminKey, "POST", "/generate-pdf-async", {
    engine: "ejs",
    html_template: "<p>Rows from <%= chunk.first_row %></p><script>const t = Date.now(); while (Date.now() - t < 1500) {}</script>",
    data: { rows: Array.from({ length: 400 }, (_, i) => i) },
    options: { chunk: { array: "rows", size: 100 } },
  });
  expect(chunked.status).toBe(202);
  await page.goto("/dashboard/reports");
  const bar = page.getByRole("progressbar", { name: /chunks printed/ });
  await bar.waitFor({ timeout: 30_000 });
  expect(await bar.getAttribute("max")).toBe("4");
  await checkBothWidths("reports, a chunked report in progress");
  await finished(chunked.body.report_id);
}, 90_000);

test("access keys: list, a refused name, a new key shown once, delete confirmation, deleted", async () => {
  const { page } = w;
  await page.goto("/dashboard/keys");
  await checkBothWidths("keys");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.locator("#name-error").waitFor();
  await w.forgiveStatus(422);
  await checkBothWidths("keys, name missing");

  await page.getByLabel("Name").fill("a11y-check");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByLabel("New access key").waitFor();
  await checkBothWidths("keys, new key shown");

  await page.goto("/dashboard/keys");
  await page.getByRole("link", { name: "Delete key a11y-check" }).click();
  await page.getByRole("button", { name: "Delete a11y-check" }).waitFor();
  await checkBothWidths("keys, delete confirmation");
  await page.getByRole("button", { name: "Delete a11y-check" }).click();
  await page.waitForURL(/\/dashboard\/keys\?deleted=/);
  await checkBothWidths("keys, after a deletion");
}, 60_000);

test("signing: none yet, a wrong password, an identity uploaded, one expiring soon, delete confirmation", async () => {
  const { page } = w;
  const dir = mkdtempSync(join(tmpdir(), "rg-a11y-sign-"));
  try {
    makePki(dir);
    openssl(
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "soon.key", "-out", "soon.crt", "-subj", "/CN=Soon", "-days", "5"],
      dir,
    );
    openssl(["pkcs12", "-export", "-inkey", "soon.key", "-in", "soon.crt", "-out", "soon.p12", "-passout", `pass:${P12_PASSWORD}`], dir);
    await page.goto("/dashboard/signing");
    await checkBothWidths("signing, none yet");
    const uploadAs = async (name: string, file: string, password: string) => {
      await page.getByLabel("Name").fill(name);
      await page.getByLabel("PKCS#12 file (.p12, .pfx)").setInputFiles(join(dir, file));
      await page.getByLabel("Password of the file").fill(password);
      await page.getByRole("button", { name: "Upload" }).click();
    };
    await uploadAs("Statements", "self.p12", "wrong");
    await page.locator("#password-error").waitFor();
    await w.forgiveStatus(422);
    await checkBothWidths("signing, wrong password");
    await uploadAs("Statements", "self.p12", P12_PASSWORD);
    await page.locator(".notice.ok").waitFor();
    await uploadAs("Soon", "soon.p12", P12_PASSWORD);
    await page.getByText("Expires in").first().waitFor();
    await checkBothWidths("signing, identities with an expiry warning");
    await page.getByRole("link", { name: "Delete signing identity Soon" }).click();
    await page.getByRole("button", { name: "Delete Soon" }).waitFor();
    await checkBothWidths("signing, delete confirmation");
    await page.getByRole("button", { name: "Delete Soon" }).click();
    await page.waitForURL(/\/dashboard\/signing\?deleted=/);
    await checkBothWidths("signing, after a deletion");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
