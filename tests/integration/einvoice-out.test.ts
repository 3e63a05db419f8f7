// The XML-only formats and the e-invoice download through the API, with real Chromium and the data dir:
// an XRechnung report prints its readable PDF (a plain PDF, no attachment) and keeps its XML beside it;
// GET /reports/{id}/e-invoice answers like /download with a signed link serving the XML, named after the
// invoice number; embed: true makes the PDF a PDF/A-3b carrying xrechnung.xml (ZUGFeRD's XRECHNUNG);
// a broken XRechnung rule is a 422 naming rule and path with nothing queued; deleting the report
// deletes its XML, and a report that fails keeps none.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateEInvoice } from "../../src/einvoice/validate";
import { fetchLink, generate, type TestApp, useRenderApp } from "../helpers/app";

setDefaultTimeout(60_000);

let t: TestApp;
useRenderApp((a) => (t = a));

const xrechnung = JSON.parse(readFileSync(join(import.meta.dir, "../../docs/examples/xrechnung-invoice.json"), "utf8"));
const template =
  "<title>Invoice <%= e_invoice.number %></title><h1>Invoice <%= e_invoice.number %></h1><p>Total <%= e_invoice.totals.grand_total %></p>";
const work = mkdtempSync(join(tmpdir(), "reportgen-einvoice-out-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const attachments = (pdf: Uint8Array) => {
  const file = join(work, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return Bun.spawnSync(["pdfdetach", "-list", file]).stdout.toString();
};

/** GET /reports/{id}/e-invoice, then the link it gives. */
async function eInvoice(id: string) {
  const res = await t.request("GET", `/api/v1/reports/${id}/e-invoice`);
  const body = (await res.json()) as { data: string; expires_at: string };
  return { status: res.status, body, file: body.data ? await fetchLink(t, body.data) : undefined };
}

test("an XRechnung: the readable PDF from the template, no attachment; its XML behind /e-invoice, named after the invoice number", async () => {
  const { report, pdf, link } = await generate(t, { engine: "ejs", html_template: template, data: {}, options: { e_invoice: xrechnung } });
  expect(report.error).toBeNull();
  expect(report.pdfa).toBeNull();
  expect(report.e_invoice).toEqual({
    format: "xrechnung",
    profile: null,
    invoice_number: "RE-2025-0101",
    grand_total: "1447.26",
    currency: "EUR",
  });
  expect(attachments(pdf!)).toContain("0 embedded files");
  const { status, body, file } = await eInvoice(report.report_id);
  expect(status).toBe(200);
  expect(body.data).toContain(`/files/${report.report_id}/e-invoice?`);
  expect(file!.status).toBe(200);
  expect(file!.headers.get("content-type")).toBe("application/xml; charset=utf-8");
  expect(file!.headers.get("content-disposition")).toBe('attachment; filename="RE-2025-0101.xml"');
  const xml = await file!.text();
  expect(xml).toContain("<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>");
  const check = validateEInvoice(xml);
  expect({ valid: check.valid, errors: check.errors }).toEqual({ valid: true, errors: [] });
  expect(check.rules.map((r) => r.id)).toEqual(["en16931", "xrechnung"]);
  // A PDF link's signature does not open the XML, nor the XML's the PDF.
  const pdfQuery = new URL(link!).search;
  const xmlQuery = new URL(body.data).search;
  expect((await fetchLink(t, `${new URL(body.data).origin}/files/${report.report_id}/e-invoice${pdfQuery}`)).status).toBe(403);
  expect((await fetchLink(t, `${new URL(link!).origin}/files/${report.report_id}${xmlQuery}`)).status).toBe(403);
  // Deleting the report deletes its XML: the file is gone and the link refused.
  const stored = join(t.dir, "reports", `${report.report_id}.xml`);
  expect(existsSync(stored)).toBe(true);
  expect((await t.request("DELETE", `/api/v1/reports/${report.report_id}`)).status).toBe(200);
  expect(existsSync(stored)).toBe(false);
  expect((await fetchLink(t, body.data)).status).toBe(403);
});

test("embed: true attaches the XRechnung to a PDF/A-3b as xrechnung.xml (ZUGFeRD XRECHNUNG); /e-invoice serves the same bytes", async () => {
  const { report, pdf } = await generate(t, {
    engine: "ejs",
    html_template: template,
    data: {},
    options: { e_invoice: { ...xrechnung, syntax: "cii", embed: true } },
  });
  expect(report.error).toBeNull();
  expect(report.pdfa).toBe("3b");
  expect(report.e_invoice.profile).toBe("xrechnung");
  const file = join(work, "embedded.pdf");
  writeFileSync(file, pdf!);
  expect(Bun.spawnSync(["pdfdetach", "-list", file]).stdout.toString()).toContain("xrechnung.xml");
  expect(Bun.spawnSync(["pdfinfo", "-meta", file]).stdout.toString()).toContain("<fx:ConformanceLevel>XRECHNUNG</fx:ConformanceLevel>");
  const out = join(work, "embedded.xml");
  expect(Bun.spawnSync(["pdfdetach", "-savefile", "xrechnung.xml", "-o", out, file]).exitCode).toBe(0);
  const served = new Uint8Array(await (await eInvoice(report.report_id)).file!.arrayBuffer());
  expect(Buffer.from(served).equals(readFileSync(out))).toBe(true);
  expect(validateEInvoice(served).errors).toEqual([]);
});

test("Factur-X: /e-invoice serves the XML embedded in the PDF", async () => {
  const { report, pdf } = await generate(t, {
    engine: "ejs",
    html_template: template,
    data: {},
    options: { e_invoice: { invoice: xrechnung.invoice } },
  });
  expect(report.e_invoice).toMatchObject({ format: "facturx", profile: "en16931" });
  const file = join(work, "facturx.pdf");
  writeFileSync(file, pdf!);
  const out = join(work, "facturx.xml");
  expect(Bun.spawnSync(["pdfdetach", "-savefile", "factur-x.xml", "-o", out, file]).exitCode).toBe(0);
  const served = await (await eInvoice(report.report_id)).file!.arrayBuffer();
  expect(Buffer.from(served).equals(readFileSync(out))).toBe(true);
});

test("a broken XRechnung rule is a 422 naming the rule and the JSON path; nothing is queued", async () => {
  const before = ((await (await t.request("GET", "/api/v1/reports")).json()) as { data: unknown[] }).data.length;
  const invoice = structuredClone(xrechnung.invoice);
  delete invoice.buyer_reference;
  delete invoice.seller.contact.phone;
  const res = await t.request("POST", "/api/v1/generate-pdf-async", {
    body: { engine: "ejs", html_template: template, data: {}, options: { e_invoice: { format: "xrechnung", invoice } } },
  });
  expect(res.status).toBe(422);
  const err = (await res.json()) as { error: string; details: { rule: string; field: string }[] };
  expect(err.error).toBe("e_invoice_invalid");
  expect(err.details.map((d) => `${d.rule} ${d.field}`)).toEqual([
    "BR-DE-15 options.e_invoice.invoice.buyer_reference",
    "BR-DE-6 options.e_invoice.invoice.seller.contact.phone",
  ]);
  expect(((await (await t.request("GET", "/api/v1/reports")).json()) as { data: unknown[] }).data.length).toBe(before);
});

test("an e-invoice report that fails keeps no XML: the XML written while it printed goes with the attempt", async () => {
  // The XML is stored while Chromium prints (e-invoice-xml.ts): a template that fails must not leave it.
  const failing = `${template}<% throw new Error("no invoice today") %>`;
  const { report } = await generate(t, { engine: "ejs", html_template: failing, data: {}, options: { e_invoice: xrechnung } });
  expect(report.status).toBe("failed");
  expect(existsSync(join(t.dir, "reports", `${report.report_id}.xml`))).toBe(false);
  // As for /download: the report did not succeed.
  expect((await t.request("GET", `/api/v1/reports/${report.report_id}/e-invoice`)).status).toBe(409);
});

test("a report without an e-invoice: /e-invoice is 404 at once", async () => {
  const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "raw", html_template: "<p>x</p>" } });
  const { report_id } = (await res.json()) as { report_id: string };
  expect((await t.request("GET", `/api/v1/reports/${report_id}/e-invoice`)).status).toBe(404);
});
