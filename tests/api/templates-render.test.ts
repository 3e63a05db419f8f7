// Stored templates with the real renderer: generation by template_id (latest and pinned versions, option
// defaults merged with the request's, data checked against the schema before queueing), template ids on
// reports, listings and webhook events, the preflight's warnings, and the preview (no report row).
import { beforeAll, describe, expect, test } from "bun:test";
import { generate, pdfInfo, pdfText, type TestApp, useRenderApp } from "../helpers/app";
import { type Receiver, startReceiver } from "../helpers/webhook-receiver";

const SCHEMA = {
  type: "object",
  required: ["customer", "lines"],
  properties: {
    customer: { type: "string", minLength: 1 },
    lines: {
      type: "array",
      items: { type: "object", required: ["item", "price"], properties: { item: { type: "string" }, price: { type: "number" } } },
    },
  },
};
const V1 = "<h1>V1 for <%= customer %></h1><% for (const l of lines) { %><p><%= l.item %>: <%= l.price %></p><% } %>";
const V2 = "<h1>V2 for <%= customer %></h1>";
const SAMPLE = { customer: "Ada", lines: [{ item: "Tea", price: 3 }] };

let t: TestApp;
useRenderApp((a) => (t = a), { webhookAllowHosts: ["127.0.0.1"], webhookRetryBase: 100 });

async function json(method: string, path: string, body?: unknown, key?: string) {
  const r = await t.request(method, path, { body, key });
  return { status: r.status, body: (await r.json()) as any };
}

let id: string;
beforeAll(async () => {
  const c = await json("POST", "/api/v1/templates", {
    name: "Invoice",
    engine: "ejs",
    html_template: V1,
    data_schema: SCHEMA,
    sample_data: SAMPLE,
    options: { format: "A5", landscape: true, margin: { top: "20mm", left: "5mm" }, metadata: { title: "From the template" } },
  });
  expect(c.status).toBe(201);
  id = c.body.template_id;
  expect((await json("POST", `/api/v1/templates/${id}/versions`, { html_template: V2, data_schema: SCHEMA })).body.version).toBe(2);
}, 60_000);

describe("generate-pdf-async by template_id", () => {
  test("renders the latest version by default; the report records template_id and template_version", async () => {
    const { report, pdf } = await generate(t, { template_id: id, data: { customer: "Grace", lines: [] } });
    expect(report.status).toBe("succeeded");
    expect(report).toMatchObject({ template_id: id, template_version: 2, engine: "ejs" });
    expect(await pdfText(pdf!)).toContain("V2 for Grace");
    const listed = (await json("GET", "/api/v1/reports?limit=100")).body.data.find((r: any) => r.report_id === report.report_id);
    expect(listed).toMatchObject({ template_id: id, template_version: 2 });
  }, 60_000);

  test("a pinned template_version renders that version; the version's options are defaults the request overrides field by field", async () => {
    const { report, pdf } = await generate(t, {
      template_id: id,
      template_version: 1,
      data: SAMPLE,
      options: { landscape: false, margin: { top: "10mm" } },
    });
    expect(report).toMatchObject({ status: "succeeded", template_version: 1 });
    expect(await pdfText(pdf!)).toContain("V1 for Ada");
    const info = await pdfInfo(pdf!);
    // A5 from the version, portrait from the request (the version said landscape), the title from the version.
    expect(info["Page size"]).toMatch(/^4(19|20)(\.\d+)? x 595(\.\d+)? pts \(A5\)/);
    expect(info.Title).toBe("From the template");
  }, 60_000);

  test("data failing the schema: 422 validation_failed naming every failing path, and nothing is queued", async () => {
    const before = (await json("GET", "/api/v1/reports?limit=100")).body.data.length;
    const r = await json("POST", "/api/v1/generate-pdf-async", {
      template_id: id,
      data: { customer: "", lines: [{ item: 1, price: "free" }, { item: "x" }] },
    });
    expect(r.status).toBe(422);
    expect(r.body.error).toBe("validation_failed");
    expect(r.body.details.map((d: any) => d.field).sort()).toEqual([
      "data.customer",
      "data.lines[0].item",
      "data.lines[0].price",
      "data.lines[1].price",
    ]);
    expect((await json("GET", "/api/v1/reports?limit=100")).body.data.length).toBe(before);
  });

  test.each([
    ["both forms", () => ({ template_id: id, html_template: "<p>x</p>", engine: "raw", data: SAMPLE }), "template_id"],
    ["neither form", () => ({ engine: "ejs", data: SAMPLE }), "html_template"],
    ["template_version without template_id", () => ({ html_template: "<p>x</p>", engine: "raw", template_version: 1 }), "template_version"],
    ["an inline template without engine", () => ({ html_template: "<p>x</p>" }), "engine"],
    ["an engine other than the template's", () => ({ template_id: id, engine: "raw", data: SAMPLE }), "engine"],
    ["template_version 0", () => ({ template_id: id, template_version: 0, data: SAMPLE }), "template_version"],
  ])("422 for %s", async (_n, body, field) => {
    const r = await json("POST", "/api/v1/generate-pdf-async", body());
    expect(r.status).toBe(422);
    expect(r.body.error).toBe("validation_failed");
    expect(JSON.stringify(r.body.details)).toContain(field);
  });

  test("404 for an unknown template or a version it does not have", async () => {
    for (const body of [
      { template_id: crypto.randomUUID(), data: SAMPLE },
      { template_id: id, template_version: 3, data: SAMPLE },
    ]) {
      const r = await json("POST", "/api/v1/generate-pdf-async", body);
      expect(r.status).toBe(404);
      expect(r.body.error).toBe("not_found");
    }
  });

  test("the webhook event carries template_id and template_version", async () => {
    const receiver: Receiver = startReceiver();
    try {
      const r = await json("POST", "/api/v1/generate-pdf-async", { template_id: id, data: SAMPLE, webhook: { url: receiver.url } });
      expect(r.status).toBe(202);
      const [event] = await receiver.waitFor(1, 30_000);
      const body = JSON.parse(event!.body);
      expect(body.type).toBe("report.succeeded");
      expect(body.data).toMatchObject({ report_id: r.body.report_id, template_id: id, template_version: 2 });
    } finally {
      receiver.stop();
    }
  }, 60_000);

  test("deleting the template leaves made reports, their PDFs and their template ids in place", async () => {
    const c = await json("POST", "/api/v1/templates", { name: "Short-lived", engine: "raw", html_template: "<p>kept</p>" });
    const made = await generate(t, { template_id: c.body.template_id });
    expect((await json("DELETE", `/api/v1/templates/${c.body.template_id}`)).status).toBe(200);
    const after = await json("GET", `/api/v1/reports/${made.report.report_id}`);
    expect(after.body.data).toMatchObject({ status: "succeeded", template_id: c.body.template_id, template_version: 1 });
    expect((await t.request("GET", `/api/v1/reports/${made.report.report_id}/download`)).status).toBe(200);
    const again = await json("POST", "/api/v1/generate-pdf-async", { template_id: c.body.template_id });
    expect(again.status).toBe(404);
  }, 60_000);
});

describe("preflight warnings on save", () => {
  const codes = (ws: any[]) => ws.map((w) => w.code);

  test("the sample render's page count and size", async () => {
    const c = await json("POST", "/api/v1/templates", {
      name: "Three pages",
      engine: "ejs",
      html_template: '<% for (let i = 0; i < n; i++) { %><p style="break-after: page">page <%= i + 1 %></p><% } %>',
      sample_data: { n: 3 },
    });
    const w = c.body.warnings.find((x: any) => x.code === "sample_render");
    // A4 by default: 210 × 297 mm (Chromium rounds the page to whole points).
    expect(w).toMatchObject({ pages: 3, page_width_mm: expect.closeTo(210, 0), page_height_mm: expect.closeTo(297, 0) });
    expect(w.bytes).toBeGreaterThan(500);
    expect(codes(c.body.warnings)).not.toContain("missing_glyphs");
    expect(codes(c.body.warnings)).not.toContain("blocked_resource");
  }, 60_000);

  test("a character no installed font has (private use, in the sample data) and a blocked link-local image", async () => {
    const c = await json("POST", "/api/v1/templates", {
      name: "Warnings",
      engine: "ejs",
      html_template: '<p><%= label %></p><img src="http://169.254.169.254/latest/meta-data"><img src="<%= logo %>">',
      sample_data: { label: "Paid \uE000 ✓", logo: "https://cdn.example.com/logo.png" },
    });
    expect(c.status).toBe(201);
    const glyphs = c.body.warnings.find((x: any) => x.code === "missing_glyphs");
    expect(glyphs.characters).toEqual([{ char: "\uE000", code_point: "U+E000", count: expect.any(Number) }]);
    const blocked = c.body.warnings.find((x: any) => x.code === "blocked_resource");
    // The second URL comes from the data: found in the sample render's HTML.
    expect(blocked.resources.map((r: any) => r.url)).toEqual([
      "http://169.254.169.254/latest/meta-data",
      "https://cdn.example.com/logo.png",
    ]);
    expect(codes(c.body.warnings)).toContain("sample_render");
    // Stored with the version.
    expect((await json("GET", `/api/v1/templates/${c.body.template_id}/versions/1`)).body.data.warnings).toEqual(c.body.warnings);
  }, 60_000);

  test("a sample that fails to render is a warning naming the failure, not a refused save", async () => {
    const c = await json("POST", "/api/v1/templates", {
      name: "Broken",
      engine: "ejs",
      html_template: "<p><%= missing.field %></p>",
      sample_data: {},
    });
    expect(c.status).toBe(201);
    const warning = c.body.warnings.find((x: any) => x.code === "sample_render_failed");
    expect(warning).toMatchObject({ failure_code: "template_error" });
    // The cause on the first line, as a failed report's error.message says it.
    expect(warning.message.split("\n")[0]).toBe(
      "the sample did not render (a report with this data would fail the same way): template_error: ReferenceError: missing is not defined (template line 1)",
    );
  }, 60_000);
});

describe("preview and preflight (the service the editor calls)", () => {
  test("preview renders a PDF with its warnings and adds no report", async () => {
    const before = (await json("GET", "/api/v1/reports?limit=100")).body.data.length;
    const p = await t.app.services.templates.preview("ignored", {
      engine: "ejs",
      htmlTemplate: V1,
      data: SAMPLE,
      options: { format: "A5" },
    });
    expect(p.pages).toBe(1);
    expect(p.bytes).toBe(p.pdf.length);
    expect(p.pageSize).toEqual({ widthMm: expect.closeTo(148, 0), heightMm: expect.closeTo(210, 0) }); // A5
    expect(await pdfText(p.pdf)).toContain("Tea: 3");
    expect(p.warnings).toEqual([]);
    expect((await json("GET", "/api/v1/reports?limit=100")).body.data.length).toBe(before);
  }, 60_000);

  test("a template error in the preview is template_render_failed with the failure code", async () => {
    const e = await t.app.services.templates.preview("a", { engine: "ejs", htmlTemplate: "<%= nope.x %>", data: {} }).catch((x) => x);
    expect(e.code).toBe("template_render_failed");
    expect(e.details.code).toBe("template_error");
  }, 60_000);

  test("preflight answers without saving", async () => {
    const ws = await t.app.services.templates.preflight("a", { engine: "raw", htmlTemplate: '<img src="file:///etc/passwd">' });
    expect(ws.map((w) => w.code).sort()).toEqual(["blocked_resource", "sample_render"]);
  }, 60_000);
});
