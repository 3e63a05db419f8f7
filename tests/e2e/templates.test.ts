// The Templates page end to end: the compiled executable, real HTTP and SQLite, Debian's Chromium.
// Create a template, type in the code editor and watch the live preview change, save a version, see
// the history and a diff, render the template by id through the API; axe-core on the page at desktop
// and phone width; the preview's latency from a keystroke to the new PDF in the frame.
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { mkdirSync } from "node:fs";
import { pdfText } from "../helpers/app";
import { api } from "../helpers/process";
import { type Harness, screenshots, sessionCookie, startHarness, test, viewports, type Watched } from "./harness";
import { expectNoAxeViolations, expectNoAxeViolationsAt, previewPdf } from "./page-checks";
import { openSignedIn } from "./signed-in";

let h: Harness;
let base: string;
/** Where templates-desktop.png and templates-phone.png go (the whole page, for the README): tests/e2e/screenshots unless set. */
const shots = process.env.REPORTGEN_SCREENSHOTS ?? screenshots;

beforeAll(async () => {
  h = await startHarness();
  base = h.server.baseUrl;
}, 180_000);

afterAll(async () => {
  await h?.cleanup();
});

const FRAME = "[data-preview] iframe";
const sequence = (w: Watched) =>
  w.page.evaluate((sel) => Number((document.querySelector(sel) as HTMLElement).dataset.sequence ?? 0), FRAME);

/** What the preview frame shows: the how-many-th PDF, and its blob: URL. */
type Shown = { seq: number; src: string | null };
const NOTHING: Shown = { seq: 0, src: null };

/** Waits until the preview frame shows a newer PDF than `after`, under a new blob: URL. */
async function nextPreview(w: Watched, after: Shown): Promise<Shown> {
  await w.page.waitForFunction(
    ([sel, n]) => Number((document.querySelector(sel as string) as HTMLElement).dataset.sequence ?? 0) > (n as number),
    [FRAME, after.seq],
    { timeout: 30_000 },
  );
  const now = { seq: await sequence(w), src: await w.page.locator(FRAME).getAttribute("src") };
  expect(now.src).toStartWith("blob:");
  expect(now.src).not.toBe(after.src);
  return now;
}

/** Waits until no preview is pending or in flight (before a click that leaves the page, say). */
async function settled(w: Watched): Promise<void> {
  await w.page.locator('[data-preview][aria-busy="false"]').waitFor({ timeout: 30_000 });
}

/** Types at the end of the template's code editor. */
async function typeAtEnd(w: Watched, text: string) {
  const editor = w.page.locator('[data-editor-for="html_template"] .cm-content');
  await editor.click();
  await w.page.keyboard.press("Control+End");
  await w.page.keyboard.type(text);
}

async function finished(id: string): Promise<Record<string, any>> {
  const r = await api(base, h.adminKey, "GET", `/reports/${id}?wait=30`);
  expect(r.status).toBe(200);
  return r.body.data;
}

describe("Templates page", () => {
  test("create with the live preview, save a version, history and diff, render by id; accessible; previews make no reports", async () => {
    const w = await openSignedIn(h);
    const { page } = w;
    await page.getByRole("link", { name: "Templates" }).click();
    await page.waitForURL(`${base}/dashboard/templates`);
    expect(await page.getByRole("heading", { level: 3 }).textContent()).toBe("No templates yet");
    await page.getByRole("link", { name: "New template" }).first().click();
    await page.waitForURL(`${base}/dashboard/templates/new`);

    // The bundled editor took over the textareas (which stay in the form), with HTML and EJS highlighting.
    for (const id of ["html_template", "sample_data", "data_schema", "options"]) {
      await page.locator(`[data-editor-for="${id}"] .cm-content`).waitFor();
      expect(await page.locator(`textarea#${id}`).isHidden()).toBe(true);
    }
    expect(await page.locator('[data-editor-for="html_template"] .cm-ejs').count()).toBeGreaterThan(3);
    // The name of the editable region is its label (for screen readers).
    expect(await page.getByRole("textbox", { name: "Template", exact: true }).count()).toBe(1);

    // The first preview: the example as it opens.
    let seq = await nextPreview(w, NOTHING);
    expect(await pdfText(await previewPdf(page))).toContain("Bill to: Ada Lovelace");
    expect(await page.locator("[data-preview-status]").textContent()).toMatch(/1 page, [\d.]+ KB/);

    // Typing re-renders it (debounced): the new paragraph, with the sample data, is in the frame's PDF.
    // Text outside tags: typing a tag would let the editor close it by itself (lang-html's autoCloseTags).
    await typeAtEnd(w, "\nThanks, <%= customer %>!");
    seq = await nextPreview(w, seq);
    for (let i = 0; i < 50 && !(await pdfText(await previewPdf(page))).includes("Thanks, Ada Lovelace!"); i++) {
      seq = await nextPreview(w, seq);
    }
    expect(await pdfText(await previewPdf(page))).toContain("Thanks, Ada Lovelace!");

    // An error in the template is said next to the preview; fixing it brings the PDF back.
    await typeAtEnd(w, "\n<%= nosuchvariable.x %>");
    await page
      .waitForFunction(() => /^Not rendered.*nosuchvariable/s.test(document.querySelector("[data-preview-status]")!.textContent!), null, {
        timeout: 30_000,
      })
      .catch(async (e: Error) => {
        throw new Error(`${e.message}; the status says: ${await page.locator("[data-preview-status]").textContent()}`);
      });
    // Chromium logs the preview route's 422 for that template; expected here, and forgiven.
    await w.forgiveStatus(422);
    for (let i = 0; i < "\n<%= nosuchvariable.x %>".length; i++) await page.keyboard.press("Backspace");
    seq = await nextPreview(w, seq);

    // Preflight warnings are shown in the editor: an image the network policy blocks.
    const blocked = '\n<img src="https://blocked.example/logo.png" alt="">';
    await typeAtEnd(w, blocked);
    const warnings = page.locator("[data-preview-warnings]");
    await page.waitForFunction(
      () => /blocked_resource.*blocked\.example/s.test(document.querySelector("[data-preview-warnings]")!.textContent!),
      null,
      {
        timeout: 30_000,
      },
    );
    expect(await warnings.isVisible()).toBe(true);
    for (let i = 0; i < blocked.length; i++) await page.keyboard.press("Backspace");
    await page.waitForFunction(() => (document.querySelector("[data-preview-warnings]") as HTMLElement).hidden, null, { timeout: 30_000 });
    seq = { seq: await sequence(w), src: await page.locator(FRAME).getAttribute("src") };

    // Latency, keystroke to updated PDF in the frame: one character at a time, each waited for.
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      await settled(w);
      const t0 = await page.evaluate(() => performance.now());
      await page.keyboard.type(String(i));
      seq = await nextPreview(w, seq);
      const at = await page.evaluate((sel) => Number((document.querySelector(sel) as HTMLElement).dataset.renderedAt), FRAME);
      latencies.push(at - t0);
    }
    latencies.sort((a, b) => a - b);
    const p50 = (latencies[4]! + latencies[5]!) / 2;
    console.error(
      `preview latency keystroke → PDF in frame (400 ms debounce included): p50 ${Math.round(p50)} ms, min ${Math.round(latencies[0]!)}, max ${Math.round(latencies[9]!)}`,
    );
    expect(await pdfText(await previewPdf(page))).toContain("0123456789");

    // Tab indents inside the editor, so it does not trap the keyboard: Escape, then Tab, moves on to the next field.
    await page.keyboard.press("Escape");
    await page.keyboard.press("Tab");
    const focused = () =>
      page.evaluate(() => document.activeElement?.closest("[data-editor-for]")?.getAttribute("data-editor-for") ?? null);
    expect(await focused()).toBe("sample_data");

    // Create: version 1.
    await page.getByLabel("Name", { exact: true }).fill("Invoice e2e");
    await settled(w);
    await page.getByRole("button", { name: "Create template" }).click();
    await page.waitForURL(/\/dashboard\/templates\/[0-9a-f-]{36}\?saved=1$/);
    const templateId = new URL(page.url()).pathname.split("/").pop()!;
    expect(await page.getByRole("status").first().textContent()).toContain("Template created as version 1");

    // Version 2 from the editor.
    await page.locator('[data-editor-for="html_template"] .cm-content').waitFor();
    seq = await nextPreview(w, NOTHING);
    await typeAtEnd(w, "\nVersion two for <%= customer %>");
    seq = await nextPreview(w, seq);
    await settled(w);
    await page.getByRole("button", { name: "Save as new version" }).click();
    await page.waitForURL(`${base}/dashboard/templates/${templateId}?saved=2`);
    expect(await page.getByRole("status").first().textContent()).toContain("Saved as version 2");
    const history = page.getByRole("region", { name: "Version history" });
    expect(await history.getByRole("listitem").allTextContents()).toEqual([
      expect.stringMatching(/^Version 2 Latest/),
      expect.stringMatching(/^Version 1 /),
    ]);

    // Accessibility and screenshots of the editor with its preview, at both widths.
    await Bun.sleep(1500); // let Chromium's viewer paint the PDF for the screenshot
    mkdirSync(shots, { recursive: true });
    for (const [label, vp] of Object.entries(viewports)) {
      await page.setViewportSize(vp);
      // Scrolled through once, so each editor has measured its lines (CodeMirror measures what was in view).
      await page.evaluate(async () => {
        for (let y = 0; y < document.documentElement.scrollHeight; y += 400) {
          window.scrollTo(0, y);
          await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        }
        window.scrollTo(0, 0);
      });
      await expectNoAxeViolations(page, `Templates editor at ${label} width`);
      await page.screenshot({ path: `${shots}/templates-${label}.png`, fullPage: true, timeout: 15_000 }).catch((e: Error) => {
        console.error(`screenshot templates-${label} skipped: ${e.message.split("\n")[0]}`);
      });
    }
    await page.setViewportSize(viewports.desktop);
    await w.shoot("templates-editor");

    // The curl line names this template.
    const curl = await page.locator("textarea#curl").inputValue();
    expect(curl).toContain(`"template_id":"${templateId}"`);
    expect(curl).toContain(`${base}/api/v1/generate-pdf-async`);

    // The diff of version 1 → 2: the added line, and nothing removed.
    await history.getByRole("button", { name: "Show the diff" }).click();
    await page.waitForURL(`${base}/dashboard/templates/${templateId}/diff?from=1&to=2`);
    const added = await page.locator("table.diff tr.added").allTextContents();
    expect(added.some((l) => l.includes("Version two for <%= customer %>"))).toBe(true);
    expect(await page.locator("table.diff tr.removed").allTextContents()).toEqual([]);
    await expectNoAxeViolationsAt(page, "diff page", viewports);
    await w.shoot("templates-diff");

    // The list, checked for accessibility at both widths.
    await page.goto("/dashboard/templates");
    expect(await page.getByRole("link", { name: "Invoice e2e", exact: true }).count()).toBe(1);
    await expectNoAxeViolationsAt(page, "Templates list", viewports);
    await w.shoot("templates-list");

    // A dozen previews, and still no report in the account.
    const before = await api(base, h.adminKey, "GET", "/reports");
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual([]);

    // Render by id through the API, with other data: version 2 is used.
    const gen = await api(base, h.adminKey, "POST", "/generate-pdf-async", {
      template_id: templateId,
      data: { number: 7, customer: "Grace Hopper", items: [{ name: "Compiler", amount: 10 }] },
    });
    expect(gen.status).toBe(202);
    const report = await finished(gen.body.report_id);
    expect(report.status).toBe("succeeded");
    expect(report.template_id).toBe(templateId);
    expect(report.template_version).toBe(2);
    const link = await api(base, h.adminKey, "GET", `/reports/${gen.body.report_id}/download`);
    const url = String(link.body.data);
    const pdf = new Uint8Array(await (await fetch(url.startsWith("http") ? url : base + url)).arrayBuffer());
    const text = await pdfText(pdf);
    expect(text).toContain("Invoice 7");
    expect(text).toContain("Version two for Grace Hopper");
    w.check();
    await w.close();
  }, 240_000);

  test("the preview route: JSON for the page's script, a PDF without it; session, Origin and token required", async () => {
    const w = await openSignedIn(h);
    await w.page.goto("/dashboard/templates/new");
    const csrf = await w.page.locator('input[name="_csrf"]').first().inputValue();
    const cookie = await sessionCookie(w);
    const form = (extra: Record<string, string> = {}) =>
      new URLSearchParams({ _csrf: csrf, engine: "ejs", html_template: "<p>Hi <%= who %></p>", sample_data: '{"who":"Ada"}', ...extra });
    const post = (body: URLSearchParams, headers: Record<string, string>) =>
      fetch(`${base}/dashboard/templates/preview`, { method: "POST", body, headers: { origin: base, cookie, ...headers } });

    const json = await post(form(), { accept: "application/json" });
    expect(json.status).toBe(200);
    const answer = (await json.json()) as { pdf: string; pages: number; bytes: number; warnings: unknown[] };
    expect(answer.pages).toBe(1);
    expect(await pdfText(new Uint8Array(Buffer.from(answer.pdf, "base64")))).toContain("Hi Ada");

    const plain = await post(form(), { accept: "text/html" });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toBe("application/pdf");
    expect(await pdfText(new Uint8Array(await plain.arrayBuffer()))).toContain("Hi Ada");

    // Sample data that is not JSON: 422 naming the field.
    const bad = await post(form({ sample_data: "{nope" }), { accept: "application/json" });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { message: string }).message).toContain("The sample data is not valid JSON");

    // Another origin, a wrong token, no session: refused, and nothing rendered.
    expect((await post(form(), { accept: "application/json", origin: "https://evil.example" })).status).toBe(403);
    expect((await post(form({ _csrf: "x" }), { accept: "application/json" })).status).toBe(403);
    const anonymous = await fetch(`${base}/dashboard/templates/preview`, {
      method: "POST",
      body: form(),
      headers: { origin: base, accept: "application/json" },
    });
    expect(anonymous.status).toBe(401);
    w.check();
    await w.close();
  }, 120_000);

  test("without JavaScript the editors are textareas, and saving and deleting work", async () => {
    const context = await h.browser.newContext({ viewport: viewports.desktop, baseURL: base, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/dashboard/sign-in");
    await page.getByLabel("Access key").fill(h.adminKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${base}/dashboard`);
    await page.goto("/dashboard/templates/new");
    expect(await page.locator("textarea#html_template").isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Preview PDF" }).isVisible()).toBe(true);
    await page.getByLabel("Name", { exact: true }).fill("Plain");
    await page.locator("textarea#html_template").fill("<h1>Plain <%= who %></h1>");
    await page.locator("textarea#sample_data").fill('{"who": "form"}');
    await page.locator("textarea#data_schema").fill('{"type": "object", "required": ["who"]}');
    await page.getByRole("button", { name: "Create template" }).click();
    await page.waitForURL(/\/dashboard\/templates\/[0-9a-f-]{36}\?saved=1$/);
    const id = new URL(page.url()).pathname.split("/").pop()!;

    // Data that breaks the schema is refused at submission, before anything is queued.
    const refused = await api(base, h.adminKey, "POST", "/generate-pdf-async", { template_id: id, data: {} });
    expect(refused.status).toBe(422);

    // Invalid JSON in a field: the page comes back with the field marked and what was typed kept.
    await page.locator("textarea#sample_data").fill("{broken");
    await page.getByRole("button", { name: "Save as new version" }).click();
    expect(await page.locator("#sample_data-error").textContent()).toContain("not valid JSON");
    expect(await page.locator("textarea#sample_data").inputValue()).toBe("{broken");

    // A schema that is not a JSON Schema: the service's 422, shown at the schema's field.
    await page.locator("textarea#sample_data").fill('{"who": "form"}');
    await page.locator("textarea#data_schema").fill('{"type": 5}');
    await page.getByRole("button", { name: "Save as new version" }).click();
    expect(await page.locator("#data_schema-error").textContent()).toContain("data_schema");
    expect(await page.locator("textarea#data_schema").getAttribute("aria-invalid")).toBe("true");
    expect((await api(base, h.adminKey, "GET", `/templates/${id}`)).body.data.versions.length).toBe(1);

    await page.goto(`/dashboard/templates/${id}/delete`);
    await page.getByRole("button", { name: "Delete Plain" }).click();
    await page.waitForURL(`${base}/dashboard/templates?deleted=${id}`);
    expect(await page.getByRole("status").first().textContent()).toContain("was deleted");
    expect((await api(base, h.adminKey, "GET", `/templates/${id}`)).status).toBe(404);
    await context.close();
  }, 120_000);
});
