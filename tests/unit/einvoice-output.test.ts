// The e-invoice's XML side: the customer's own CII (xml_base64), the XML escaper, decimals, the
// Factur-X XMP values, and what a template and the stored report see of a checked invoice.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { checkEInvoice, ciiXml, escapeXml, facturXMetadata, profileOfGuideline, templateInvoice } from "../../src/einvoice";
import { format, parseDec } from "../../src/einvoice/decimal";
import type { AppError } from "../../src/lib/errors";
import { storedEInvoice, withEInvoiceData } from "../../src/modules/reports/post-options";
import { example1 } from "../helpers/einvoice-examples";
import { validInvoice as valid } from "../helpers/einvoice-invoice";

describe("xml_base64: the customer's own CII", () => {
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  const F = "options.e_invoice.xml_base64";
  const ours = ciiXml(checkEInvoice({ profile: "en16931", invoice: valid() }));
  const detail = (input: unknown) => {
    try {
      checkEInvoice(input);
    } catch (e) {
      return ((e as AppError).details as { rule: string; field: string }[])[0];
    }
    throw new Error("accepted");
  };

  test("is accepted as it is, its number, total and currency read for display", () => {
    const c = checkEInvoice({ xml_base64: b64(ours) });
    expect(c).toMatchObject({
      source: "xml",
      profile: "en16931",
      xml: ours,
      summary: { number: "RE-1", currency: "EUR", grand_total: "96.66" },
    });
  });
  const bad: [string, string, string][] = [
    ["not base64", "%%%", "schema"],
    ["not well-formed", b64(ours.replace("</rsm:ExchangedDocument>", "")), "well-formed"],
    ["a bare ampersand", b64(ours.replace("RE-1", "R&D")), "well-formed"],
    ["an undeclared prefix", b64(ours.replace('xmlns:ram="', 'xmlns:rax="')), "well-formed"],
    [
      "a DOCTYPE (entity expansion)",
      b64(`<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]>${ours.slice(ours.indexOf("<rsm:"))}`),
      "well-formed",
    ],
    ["another root", b64('<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>'), "root"],
    ["the right name in the wrong namespace", b64('<rsm:CrossIndustryInvoice xmlns:rsm="urn:example"/>'), "root"],
    ["no invoice number", b64(ours.replace("<ram:ID>RE-1</ram:ID>", "")), "BR-02"],
    ["Latin-1 bytes", Buffer.from([0x3c, 0x61, 0x3e, 0xe9, 0x3c, 0x2f, 0x61, 0x3e]).toString("base64"), "schema"],
  ];
  for (const [name, value, rule] of bad) {
    test(`${name} → 422 ${rule} naming xml_base64`, () => {
      expect(detail({ xml_base64: value })).toMatchObject({ rule, field: F });
    });
  }
});

test("the XML escaper escapes markup and refuses what XML cannot carry", () => {
  expect(escapeXml(`a<b>&"c'\r`)).toBe("a&#60;b&#62;&#38;&#34;c&#39;&#13;");
  expect(() => escapeXml("\u0000")).toThrow();
});

test("decimals: exact, rounded half away from zero", () => {
  expect(format(parseDec("0.1")!.value + parseDec(0.2)!.value, 2)).toBe("0.30");
  expect(parseDec("1e5")).toBeUndefined();
  expect(parseDec(Number.NaN)).toBeUndefined();
});

test("Factur-X XMP values per profile", () => {
  expect(facturXMetadata("en16931")).toMatchObject({
    namespaceUri: "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#",
    documentType: "INVOICE",
    documentFileName: "factur-x.xml",
    version: "1.0",
    conformanceLevel: "EN 16931",
    afRelationship: "Alternative",
  });
  expect(facturXMetadata("extended").conformanceLevel).toBe("EXTENDED");
  expect(facturXMetadata("basicwl")).toMatchObject({ conformanceLevel: "BASIC WL", afRelationship: "Data" });
  expect(profileOfGuideline("urn:cen.eu:en16931:2017")).toBe("en16931");
  expect(profileOfGuideline("urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended")).toBe("extended");
  expect(profileOfGuideline("urn:example")).toBeUndefined();
});

test("the complete example of docs/e-invoices.md passes as it is", async () => {
  const doc = await Bun.file(join(import.meta.dir, "../../docs/e-invoices.md")).text();
  const example = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!)).find((j) => j.profile === "en16931");
  expect(checkEInvoice(example).summary).toEqual({
    number: "RE-2025-0042",
    currency: "EUR",
    grand_total: "1488.91",
    due_payable: "1488.91",
  });
});

test("the template's e_invoice: the checked invoice with the XML's figures as decimal strings", () => {
  const checked = checkEInvoice({ profile: "en16931", invoice: example1.invoice });
  if (checked.source !== "model") throw new Error("expected a model invoice");
  const view = templateInvoice(checked);
  const xml = ciiXml(checked);
  expect(view.number).toBe(example1.invoice.number);
  expect(view.profile).toBe("en16931");
  expect(view.type_code).toBe("380");
  expect(view.totals.grand_total).toBe(example1.expected.grand_total);
  expect(xml).toContain(`<ram:GrandTotalAmount>${view.totals.grand_total}</ram:GrandTotalAmount>`);
  expect(xml).toContain(`<ram:DuePayableAmount>${view.totals.due_payable}</ram:DuePayableAmount>`);
  for (const l of view.lines) expect(xml).toContain(`<ram:LineTotalAmount>${l.net_amount}</ram:LineTotalAmount>`);
  expect(
    view.vat_breakdown.map((g) => ({ category: g.category as string, rate: g.rate, taxable: g.taxable_amount, tax: g.tax_amount })),
  ).toEqual(example1.expected.vat);
});

test("withEInvoiceData: data as given, plus e_invoice for a JSON invoice only", () => {
  const data = JSON.stringify({ a: 1, e_invoice: "mine" });
  const model = storedEInvoice({ profile: "en16931", invoice: example1.invoice });
  const merged = JSON.parse(withEInvoiceData(data, JSON.stringify({ pdfa: "3b", e_invoice: model })));
  expect(merged.a).toBe(1);
  expect(merged.e_invoice.totals.grand_total).toBe(example1.expected.grand_total);
  const xml = storedEInvoice({ xml_base64: Buffer.from(ciiXml(checkEInvoice({ invoice: example1.invoice }))).toString("base64") });
  expect(xml.template_data).toBeUndefined();
  expect(withEInvoiceData(data, JSON.stringify({ e_invoice: xml }))).toBe(data);
  expect(withEInvoiceData(null, null)).toBe("{}");
});
