// validateEInvoice on small edits of an official example: rule-set selection, the override, the schema
// checks of the UBL root, and what is no e-invoice at all.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { NotAnEInvoice, ruleSetsFor, validateEInvoice } from "../../src/einvoice/validate";
import { EINVOICE_SHARED } from "../helpers/einvoice-corpus";

const file = join(EINVOICE_SHARED, "examples", "xrechnung", "01.01a-INVOICE_ubl.xml");
const absent = existsSync(file) ? undefined : `${file} is absent`;
const xml = () => readFileSync(file, "utf8");
const rules = (s: string, opts = {}) => validateEInvoice(s, opts).errors.map((e) => e.rule);

test("the specification identifier selects the rule sets", () => {
  expect(ruleSetsFor("urn:cen.eu:en16931:2017")).toEqual(["en16931"]);
  expect(ruleSetsFor("urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0")).toEqual(["en16931", "xrechnung"]);
  expect(ruleSetsFor("urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0")).toEqual(["en16931", "peppol"]);
});

test.skipIf(absent !== undefined)(
  "an XRechnung is valid, names its rule sets and versions, and a removed buyer reference is BR-DE-15",
  () => {
    const res = validateEInvoice(xml());
    expect(res).toMatchObject({ valid: true, syntax: "ubl", document: "invoice", errors: [] });
    expect(res.rules.map((r) => r.id)).toEqual(["en16931", "xrechnung"]);
    const broken = xml().replace(/<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, "");
    expect(rules(broken)).toEqual(["BR-DE-15"]);
    // Asked for EN 16931 alone, the same document has no error.
    expect(rules(broken, { rules: [] })).toEqual([]);
  },
);

test.skipIf(absent !== undefined)("the UBL root's children follow the schema: order, names and mandatory ones (XSD)", () => {
  const swapped = xml().replace(/(<cbc:IssueDate>[^<]*<\/cbc:IssueDate>)([\s\S]*?)(<cbc:ID>[^<]*<\/cbc:ID>)/, "$3$2$1");
  expect(rules(swapped)).toContain("XSD");
  expect(rules(xml().replace("<cbc:IssueDate>", "<cbc:Foo>x</cbc:Foo><cbc:IssueDate>"))).toContain("XSD");
  const located = validateEInvoice(xml().replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, "")).errors;
  expect(located.map((e) => e.rule).sort()).toEqual(["BR-03", "XSD"]);
  expect(located.find((e) => e.rule === "BR-03")?.location).toBe("/ubl:Invoice[1]");
});

test("XML that is no e-invoice is NotAnEInvoice", () => {
  expect(() => validateEInvoice("<html xmlns='http://www.w3.org/1999/xhtml'/>")).toThrow(NotAnEInvoice);
});

const cii = join(EINVOICE_SHARED, "examples", "xrechnung", "01.01a-INVOICE_uncefact.xml");
test.skipIf(absent !== undefined).each([
  {
    name: "a VAT identifier without its country prefix",
    file,
    from: "<cbc:CompanyID>DE 123456789",
    to: "<cbc:CompanyID>123456789",
    rule: "BR-CO-09",
  },
  { name: "a party tax scheme without CompanyID", file, from: "<cbc:CompanyID>DE 123456789</cbc:CompanyID>", to: "", rule: "UBL-SR-53" },
  {
    name: "an amount with three decimals",
    file,
    from: ">314.86</cbc:TaxExclusiveAmount>",
    to: ">314.860</cbc:TaxExclusiveAmount>",
    rule: "UBL-DT-01",
  },
  {
    name: "a missing total without VAT (CII)",
    file: cii,
    from: "<ram:TaxBasisTotalAmount>314.86</ram:TaxBasisTotalAmount>",
    to: "",
    rule: "BR-CO-13",
  },
  {
    name: "a tax type other than VAT (CII)",
    file: cii,
    from: "<ram:TypeCode>VAT</ram:TypeCode>",
    to: "<ram:TypeCode>GST</ram:TypeCode>",
    rule: "CII-DT-037",
  },
  { name: "a Skonto line out of form", file, from: "Zahlbar sofort ohne Abzug.", to: "#SKONTO#TAGE=7#PROZENT=2#\n", rule: "BR-DE-18" },
  {
    name: "a Skonto line with no line break after it",
    file,
    from: "Zahlbar sofort ohne Abzug.",
    to: "#SKONTO#TAGE=7#PROZENT=2.00#",
    rule: "BR-DE-18",
  },
  {
    name: "no business process",
    file,
    from: "<cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>",
    to: "",
    rule: "PEPPOL-EN16931-R001",
  },
  {
    name: "a second tax total with a breakdown",
    file,
    from: "<cac:TaxTotal>",
    to: '<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">0</cbc:TaxAmount><cac:TaxSubtotal/></cac:TaxTotal><cac:TaxTotal>',
    rule: "PEPPOL-EN16931-R053",
  },
  {
    name: "a price discount that does not explain the net price",
    file,
    from: '<cbc:PriceAmount currencyID="EUR">288.79</cbc:PriceAmount>',
    to: '<cbc:PriceAmount currencyID="EUR">288.79</cbc:PriceAmount><cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="EUR">1.00</cbc:Amount><cbc:BaseAmount currencyID="EUR">300.00</cbc:BaseAmount></cac:AllowanceCharge>',
    rule: "PEPPOL-EN16931-R046",
  },
  {
    name: "an unknown element inside an aggregate",
    file,
    from: "<cac:TaxScheme>",
    to: "<cac:TaxScheme><cbc:Bogus>1</cbc:Bogus>",
    rule: "XSD",
  },
  {
    name: "a quantity that is no decimal",
    file,
    from: '<cbc:InvoicedQuantity unitCode="XPP">1<',
    to: '<cbc:InvoicedQuantity unitCode="XPP">one<',
    rule: "XSD",
  },
  {
    name: "a missing VAT category tax amount (CII)",
    file: cii,
    from: "<ram:CalculatedAmount>22.04</ram:CalculatedAmount>",
    to: "",
    rule: "BR-S-09",
  },
  {
    name: "a CII amount that is no decimal",
    file: cii,
    from: "<ram:TaxBasisTotalAmount>314.86</ram:TaxBasisTotalAmount>",
    to: "<ram:TaxBasisTotalAmount>n/a</ram:TaxBasisTotalAmount>",
    rule: "XSD",
  },
  {
    name: "an unknown CII element",
    file: cii,
    from: "<ram:TaxBasisTotalAmount>",
    to: "<ram:Bogus>1</ram:Bogus><ram:TaxBasisTotalAmount>",
    rule: "XSD",
  },
])("$name breaks $rule", ({ file: f, from, to, rule }) => {
  const text = readFileSync(f, "utf8");
  expect(text).toContain(from);
  expect(rules(text.replace(from, to))).toContain(rule);
});

test.skipIf(absent !== undefined)("rule contexts as the official CII rules bind them", () => {
  const ciiText = readFileSync(cii, "utf8");
  // The buyer's electronic address group without its URIID has no scheme identifier (BR-63).
  expect(rules(ciiText.replace('<ram:URIID schemeID="EM">buyer@info.de</ram:URIID>', ""))).toContain("BR-63");
  // Without the specification identifier: BR-01 and CII-SR-010.
  const noId = rules(ciiText.replace("<ram:ID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</ram:ID>", ""));
  expect(noId).toEqual(expect.arrayContaining(["BR-01", "CII-SR-010"]));
  // A not-subject-to-VAT group (O) is checked by its category's rules alone: its missing tax amount is BR-O-09.
  const o = readFileSync(join(EINVOICE_SHARED, "examples", "XRechnung-O.xml"), "utf8");
  expect(rules(o.replace("<ram:CalculatedAmount>0.00</ram:CalculatedAmount>", ""))).toEqual(["BR-O-09"]);
  // UBL: a tax total with a breakdown but no amount breaks BR-CO-14.
  const ubl = xml().replace(/(<cac:TaxTotal>\s*)<cbc:TaxAmount[^>]*>[^<]*<\/cbc:TaxAmount>/, "$1");
  expect(rules(ubl)).toContain("BR-CO-14");
});
