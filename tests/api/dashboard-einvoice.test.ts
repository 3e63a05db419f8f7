// The dashboard's e-invoice view in-process: a report submitted with options.e_invoice shows "PDF/A-3b"
// and its invoice number, total and currency on the reports page and its live row, and its
// "Invoice XML" link downloads the factur-x.xml of the stored PDF, byte for byte. The PDF here is made
// with qpdf (the submission's own XML attached as factur-x.xml); real Chromium: tests/integration/facturx.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storedEInvoice } from "../../src/modules/reports/post-options";
import { createTestApp, type TestApp } from "../helpers/app";
import { example1 } from "../helpers/einvoice-examples";
import { submit, succeed } from "../helpers/scenario";

let t: TestApp;
let id: string;
let plainId: string;
let embedded: Buffer;
const work = mkdtempSync(join(tmpdir(), "reportgen-dash-einv-"));
const eInvoice = { profile: "en16931", invoice: example1.invoice };

async function get(path: string, key = t.key): Promise<Response> {
  const { id: session } = await t.app.services.sessions.create((await t.app.services.keyAuth.authenticate(key))!);
  return t.app.http.handle(new Request(`http://localhost${path}`, { headers: { cookie: `rg_session=${session}` } }));
}

beforeAll(async () => {
  t = await createTestApp();
  id = await submit(t, { engine: "raw", html_template: "<h1>Invoice</h1>", options: { e_invoice: eInvoice } });
  plainId = await submit(t);
  // The XML the submission stored to embed, attached to a PDF as the pdfa/facturx steps would.
  embedded = Buffer.from(storedEInvoice(eInvoice).xml_base64, "base64");
  writeFileSync(join(work, "factur-x.xml"), embedded);
  const made = Bun.spawnSync(["qpdf", "--empty", "--add-attachment", join(work, "factur-x.xml"), "--", join(work, "out.pdf")]);
  expect(made.exitCode).toBe(0);
  await succeed(t, id, { bytes: readFileSync(join(work, "out.pdf")) });
  await succeed(t, plainId);
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

describe("dashboard e-invoices", () => {
  test("the reports page and the live row show PDF/A-3b and the invoice's number, total and currency", async () => {
    for (const path of ["/dashboard/reports", `/dashboard/reports/${id}/row`]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      const body = await res.text();
      const row = new RegExp(`<tr id="report-${id}"[\\s\\S]*?</tr>`).exec(body)?.[0] ?? "";
      expect(row).toContain("PDF/A-3b");
      expect(row).toContain(
        `E-invoice <span class="mono">${example1.invoice.number}</span>, ${example1.expected.grand_total} ${example1.invoice.currency} (EN 16931)`,
      );
      expect(row).toContain(`href="/dashboard/reports/${id}/factur-x.xml"`);
    }
    const page = await (await get("/dashboard/reports")).text();
    const plain = new RegExp(`<tr id="report-${plainId}"[\\s\\S]*?</tr>`).exec(page)?.[0] ?? "";
    expect(plain).not.toContain("PDF/A");
    expect(plain).not.toContain("factur-x.xml");
  });

  test("Invoice XML downloads the factur-x.xml embedded in the stored PDF", async () => {
    const res = await get(`/dashboard/reports/${id}/factur-x.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="factur-x.xml"');
    expect(Buffer.from(await res.arrayBuffer()).equals(embedded)).toBe(true);
    expect(embedded.toString()).toContain(`<ram:ID>${example1.invoice.number}</ram:ID>`);
  });

  test("a report without an e-invoice is 404; without a session it goes to sign in", async () => {
    expect((await get(`/dashboard/reports/${plainId}/factur-x.xml`)).status).toBe(404);
    const anon = await t.app.http.handle(new Request(`http://localhost/dashboard/reports/${id}/factur-x.xml`));
    expect(anon.status).toBe(303);
    expect(anon.headers.get("location")).toBe("/dashboard/sign-in");
  });
});
