// The contract test's calls for e-invoices: the XML of a report written as an XRechnung (through its API
// link and the signed link it gives) and the check of an incoming invoice, each operation and each status
// it can reach on default settings (tests/blackbox/contract.test.ts checks every answer against the
// served OpenAPI document and that nothing documented was left out).
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tamperedLink } from "../helpers/links";
import type { ContractCall } from "./contract-libraries";

type Call = (c: ContractCall) => Promise<{ status: number; body: any; headers: Headers }>;

const json = (v: unknown) => JSON.stringify(v);
const MISSING = "0b5e4f0c-6a5e-4d7b-9a1e-3f2d1c0b9a8e";
const docs = join(import.meta.dir, "..", "..", "docs", "examples");
/** The guide's worked XRechnung: the request's options.e_invoice, and the XML reportgen wrote from it. */
const xrechnung = JSON.parse(readFileSync(join(docs, "xrechnung-invoice.json"), "utf8"));
const xrechnungXml = readFileSync(join(docs, "xrechnung-invoice.xml"));

/** GET /reports/{id}/e-invoice (200, 202, 401, 404, 409), its link (200, 403), POST /e-invoices/validate and /render. */
export async function eInvoiceCalls(call: Call, plainReportId: string): Promise<void> {
  const gen = { method: "POST", template: "/api/v1/generate-pdf-async", url: "/api/v1/generate-pdf-async" };
  const submit = async (html: string) => {
    const r = await call({ ...gen, body: json({ engine: "raw", html_template: html, options: { e_invoice: xrechnung } }) });
    expect(r.status).toBe(202);
    return r.body.report_id as string;
  };
  const slow = await submit("<script>const t=Date.now();while(Date.now()-t<1500){}</script><p>slow</p>");
  const xml = (id: string, key?: string | null) => ({
    method: "GET",
    template: "/api/v1/reports/{reportID}/e-invoice",
    url: `/api/v1/reports/${id}/e-invoice`,
    key,
  });
  expect((await call(xml(slow))).status).toBe(202);
  const ok = await submit("<p>Invoice RE-2025-0101</p>");
  const link = await call({ ...xml(ok), url: `/api/v1/reports/${ok}/e-invoice?wait=30` });
  expect(link.status).toBe(200);
  const file = await call({ method: "GET", template: "/files/{reportID}/e-invoice", url: link.body.data, key: null });
  expect(file.status).toBe(200);
  expect(new TextDecoder().decode(new Uint8Array(file.body))).toContain("RE-2025-0101");
  expect(
    (await call({ method: "GET", template: "/files/{reportID}/e-invoice", url: tamperedLink(link.body.data), key: null })).status,
  ).toBe(403);
  // A report whose template fails has no e-invoice to give: 409, like its download.
  const broken = await call({
    ...gen,
    body: json({ engine: "ejs", html_template: "<% throw new Error('boom') %>", data: {}, options: { e_invoice: xrechnung } }),
  });
  expect(broken.status).toBe(202);
  expect((await call({ ...xml(broken.body.report_id), url: `/api/v1/reports/${broken.body.report_id}/e-invoice?wait=30` })).status).toBe(
    409,
  );
  expect((await call(xml(plainReportId))).status).toBe(404);
  expect((await call(xml(MISSING))).status).toBe(404);
  expect((await call(xml(ok, null))).status).toBe(401);

  // Checking an incoming invoice: the guide's XRechnung as a raw body, and each refusal.
  const validate = { method: "POST", template: "/api/v1/e-invoices/validate", url: "/api/v1/e-invoices/validate" };
  const checked = await call({ ...validate, body: new Uint8Array(xrechnungXml), headers: { "content-type": "application/xml" } });
  expect(checked.status).toBe(200);
  expect(checked.body.data.valid).toBe(true);
  expect((await call({ ...validate, body: "this is not XML", headers: { "content-type": "application/xml" } })).status).toBe(400);
  expect((await call({ ...validate, body: "<note/>", headers: { "content-type": "application/xml" } })).status).toBe(422);
  expect((await call({ ...validate, body: "x", headers: { "content-type": "text/plain" } })).status).toBe(415);
  expect(
    (await call({ ...validate, body: new Uint8Array(11 * 1024 * 1024).fill(0x20), headers: { "content-type": "application/xml" } })).status,
  ).toBe(413);
  expect((await call({ ...validate, key: null, body: json({ xml_base64: xrechnungXml.toString("base64") }) })).status).toBe(401);

  // Printing it readable: a report like any other, and each refusal.
  const render = { method: "POST", template: "/api/v1/e-invoices/render", url: "/api/v1/e-invoices/render" };
  const queued = await call({
    ...render,
    url: `${render.url}?language=de`,
    body: new Uint8Array(xrechnungXml),
    headers: { "content-type": "application/xml" },
  });
  expect(queued.status).toBe(202);
  expect(queued.headers.get("location")).toBe(`/api/v1/reports/${queued.body.report_id}`);
  const byJson = (extra: Record<string, unknown>, key?: null) =>
    call({ ...render, key, body: json({ xml_base64: xrechnungXml.toString("base64"), ...extra }) });
  expect((await byJson({ language: "it" })).status).toBe(422);
  expect((await byJson({ template_id: MISSING })).status).toBe(404);
  expect((await byJson({}, null)).status).toBe(401);
  expect((await call({ ...render, body: "this is not XML", headers: { "content-type": "application/xml" } })).status).toBe(400);
  expect((await call({ ...render, body: "x", headers: { "content-type": "text/plain" } })).status).toBe(415);
  expect(
    (await call({ ...render, body: new Uint8Array(11 * 1024 * 1024).fill(0x20), headers: { "content-type": "application/xml" } })).status,
  ).toBe(413);
}
