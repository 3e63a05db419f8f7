// options.e_invoice through the API with real Chromium: a Factur-X PDF/A-3b file whose factur-x.xml
// matches the CII D16B XML Schema and passes the official EN 16931 rules (shared/einvoice/validate-einvoice;
// skipped, with its reason, where the rules are not installed: tests/helpers/einvoice-validator.ts), listed
// by pdfdetach, described in the XMP (pdfinfo -meta: fx: entries, pdfaid part 3); the client's own XML
// embedded byte for byte.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate, type TestApp, useRenderApp } from "../helpers/app";
import { example1, example2 } from "../helpers/einvoice-examples";
import { VALIDATOR_TIMEOUT_MS, validateEInvoice, validatorMissing, xsdErrors, xsdMissing } from "../helpers/einvoice-validator";
import { EINVOICE_ARTEFACTS, sharedMissing, testIf } from "../helpers/shared";

setDefaultTimeout(60_000);

let t: TestApp;
useRenderApp((a) => (t = a));

const shared = EINVOICE_ARTEFACTS;
/** The Factur-X PDFs the tests below made, by what they hold: checked again by the XML Schema and the rules. */
const made = new Map<string, string>();

const work = mkdtempSync(join(tmpdir(), "reportgen-facturx-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const pdfFile = (pdf: Uint8Array) => {
  const f = join(work, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(f, pdf);
  return f;
};
const run = (cmd: string[]) => {
  const p = Bun.spawnSync(cmd);
  return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
};

function embeddedXml(file: string): Buffer {
  const out = join(work, `x-${Math.random().toString(36).slice(2)}.xml`);
  expect(run(["pdfdetach", "-savefile", "factur-x.xml", "-o", out, file]).code).toBe(0);
  return readFileSync(out);
}

test("an EN 16931 invoice: pdfdetach lists factur-x.xml, the XMP has fx: and pdfaid part 3", async () => {
  const { pdf, report } = await generate(t, {
    engine: "raw",
    html_template: "<title>Invoice 471102</title><h1>Invoice</h1>",
    options: { e_invoice: { profile: "en16931", invoice: example1.invoice } },
  });
  expect(report.error).toBeNull();
  expect(report.pdfa).toBe("3b");
  expect(report.e_invoice).toEqual({
    format: "facturx",
    profile: "en16931",
    invoice_number: example1.invoice.number,
    grand_total: example1.expected.grand_total,
    currency: example1.invoice.currency,
  });
  const file = pdfFile(pdf!);
  expect(run(["pdfdetach", "-list", file]).out).toContain("factur-x.xml");
  const xmp = run(["pdfinfo", "-meta", file]).out;
  expect(xmp).toContain("<pdfaid:part>3</pdfaid:part>");
  for (const v of [
    "<fx:DocumentType>INVOICE</fx:DocumentType>",
    "<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>",
    "<fx:Version>1.0</fx:Version>",
    "<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>",
    "<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>",
  ])
    expect(xmp).toContain(v);
  const objects = JSON.parse(run(["qpdf", "--json=2", "--json-key=qpdf", file]).out).qpdf[1];
  const catalog = objects[`obj:${objects.trailer.value["/Root"]}`].value;
  const spec = objects[`obj:${catalog["/AF"][0]}`].value;
  expect(spec).toMatchObject({ "/AFRelationship": "/Alternative", "/UF": "u:factur-x.xml", "/F": "u:factur-x.xml" });
  expect(spec["/Desc"]).toBe("u:Factur-X invoice, profile EN 16931");
  const ef = objects[`obj:${spec["/EF"]["/F"]}`].stream.dict;
  expect(ef["/Subtype"]).toBe("/text/xml");
  expect(ef["/Params"]["/ModDate"]).toBeDefined();
  expect(embeddedXml(file).toString()).toContain(`<ram:ID>${example1.invoice.number}</ram:ID>`);
  made.set("the EN 16931 invoice", file);
});

testIf(sharedMissing("einvoice/examples/CII_example1.xml"))("xml_base64: the official CII_example1.xml is embedded unchanged", async () => {
  const original = readFileSync(join(shared, "examples", "CII_example1.xml"));
  const { pdf, report } = await generate(t, {
    engine: "raw",
    html_template: "<title>Their invoice</title><p>x</p>",
    options: { e_invoice: { xml_base64: original.toString("base64") } },
  });
  expect(report.error).toBeNull();
  expect(embeddedXml(pdfFile(pdf!)).equals(original)).toBe(true);
});

test("engine ejs: the template prints the totals from e_invoice, and they equal the XML's", async () => {
  const template = `<title>Invoice <%= e_invoice.number %></title><h1><%= greeting %> <%= e_invoice.number %></h1>
<table><% e_invoice.lines.forEach(function (l) { %><tr><td><%= l.name %></td><td>Line net <%= l.net_amount %></td></tr><% }) %></table>
<% e_invoice.vat_breakdown.forEach(function (g) { %><p>VAT <%= g.category %> <%= g.rate %> %: <%= g.tax_amount %> on <%= g.taxable_amount %></p><% }) %>
<p>Without VAT <%= e_invoice.totals.tax_basis_total %></p>
<p>Grand total: <%= e_invoice.totals.grand_total %> <%= e_invoice.currency %></p>
<p>Amount due: <%= e_invoice.totals.due_payable %></p>`;
  const { pdf, report } = await generate(t, {
    engine: "ejs",
    html_template: template,
    // A key e_invoice of the data is replaced by the checked invoice.
    data: { greeting: "Invoice", e_invoice: { number: "not this one" } },
    options: { e_invoice: { profile: "en16931", invoice: example2.invoice } },
  });
  expect(report.error).toBeNull();
  const file = pdfFile(pdf!);
  const xml = embeddedXml(file).toString();
  const xmlTotal = /<ram:GrandTotalAmount>([^<]+)<\/ram:GrandTotalAmount>/.exec(xml)?.[1];
  const xmlDue = /<ram:DuePayableAmount>([^<]+)<\/ram:DuePayableAmount>/.exec(xml)?.[1];
  expect(xmlTotal).toBe(example2.expected.grand_total);
  const text = run(["pdftotext", "-layout", file, "-"]).out;
  expect(text).toContain(`Invoice ${example2.invoice.number}`);
  expect(/Grand total: (\S+) /.exec(text)?.[1]).toBe(xmlTotal);
  expect(/Amount due: (\S+)/.exec(text)?.[1]).toBe(xmlDue);
  const lineAmounts = [...xml.matchAll(/<ram:LineTotalAmount>([^<]+)</g)].map((m) => m[1]);
  const printed = [...text.matchAll(/Line net (\S+)/g)].map((m) => m[1]);
  expect(printed).toEqual(lineAmounts.slice(0, printed.length));
  expect(printed.length).toBe(example2.invoice.lines.length);
  made.set("the ejs invoice", file);
});

test("with the client's own attachments: both embedded, each in /AF, factur-x.xml Alternative and the others Unspecified", async () => {
  const csv = Buffer.from("line,amount\n1,10.00\n");
  const { pdf, report } = await generate(t, {
    engine: "raw",
    html_template: "<title>Invoice with annex</title><p>x</p>",
    options: {
      attachments: [{ filename: "annex.csv", content_base64: csv.toString("base64") }],
      e_invoice: { profile: "en16931", invoice: example1.invoice },
    },
  });
  expect(report.error).toBeNull();
  const file = pdfFile(pdf!);
  const listed = run(["pdfdetach", "-list", file]).out;
  expect(listed).toContain("annex.csv");
  expect(listed).toContain("factur-x.xml");
  const objects = JSON.parse(run(["qpdf", "--json=2", "--json-key=qpdf", file]).out).qpdf[1];
  const catalog = objects[`obj:${objects.trailer.value["/Root"]}`].value;
  const specs = (catalog["/AF"] as string[]).map((ref) => objects[`obj:${ref}`].value);
  expect(Object.fromEntries(specs.map((s) => [s["/UF"], s["/AFRelationship"]]))).toEqual({
    "u:annex.csv": "/Unspecified",
    "u:factur-x.xml": "/Alternative",
  });
  // One name tree, its keys sorted as PDF name trees must be.
  const names = objects[`obj:${catalog["/Names"]}`]?.value ?? catalog["/Names"];
  const tree = names["/EmbeddedFiles"]["/Names"] ?? objects[`obj:${names["/EmbeddedFiles"]}`].value["/Names"];
  expect(tree.filter((_: unknown, i: number) => i % 2 === 0)).toEqual(["u:annex.csv", "u:factur-x.xml"]);
  expect(run(["qpdf", "--check", file]).code).toBe(0);
  made.set("the invoice with an attachment", file);
});

testIf(xsdMissing())("each factur-x.xml above matches the CII D16B XML Schema", () => {
  expect([...made.keys()]).toEqual(["the EN 16931 invoice", "the ejs invoice", "the invoice with an attachment"]);
  for (const [what, file] of made) expect({ what, errors: xsdErrors(embeddedXml(file).toString()) }).toEqual({ what, errors: [] });
});

testIf(validatorMissing("CII"))(
  "each PDF above passes validate-einvoice: the EN 16931 rules on its factur-x.xml",
  async () => {
    expect(made.size).toBe(3);
    for (const [what, file] of made) {
      const v = await validateEInvoice(file);
      expect({ what, fatal: v.summary, code: v.code }).toEqual({ what, fatal: "", code: 0 });
    }
  },
  3 * VALIDATOR_TIMEOUT_MS,
);
