// options.e_invoice.format and its settings: what goes with what, the rules each format adds to EN 16931
// (422 naming the rule and the JSON path of the field to add), and what each Factur-X profile carries.
import { expect, test } from "bun:test";
import { checkEInvoice, eInvoiceXml, targetOf } from "../../src/einvoice";
import { AppError } from "../../src/lib/errors";

const xrechnung = (await Bun.file(`${import.meta.dir}/../../docs/examples/xrechnung-invoice.json`).json()).invoice;

function details(e: unknown): string[] {
  try {
    checkEInvoice(e);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    expect(err.code).toBe("e_invoice_invalid");
    return (err.details as { rule: string; field: string }[]).map((d) => `${d.rule} ${d.field}`);
  }
  return [];
}
const P = "options.e_invoice";

test("each setting goes with its format only, and has its values", () => {
  expect(details({ format: "xrechnung", profile: "basic", invoice: xrechnung })).toEqual([`schema ${P}.profile`]);
  expect(details({ format: "peppol", syntax: "cii", invoice: xrechnung })).toEqual([`schema ${P}.syntax`]);
  expect(details({ format: "facturx", embed: true, invoice: xrechnung })).toEqual([`schema ${P}.embed`]);
  expect(details({ format: "zugferd", invoice: xrechnung })).toEqual([`schema ${P}.format`]);
  expect(details({ format: "xrechnung", syntax: "cii", embed: true, invoice: xrechnung })).toEqual([]);
});

test("the targets: syntax, specification identifier, rule sets, the attached file", () => {
  expect(targetOf({})).toMatchObject({
    format: "facturx",
    syntax: "cii",
    profile: "en16931",
    embed: true,
    rules: ["en16931"],
    fileName: "factur-x.xml",
  });
  expect(targetOf({ format: "facturx", profile: "basic-wl" })).toMatchObject({
    profile: "basicwl",
    customization: "urn:factur-x.eu:1p0:basicwl",
  });
  expect(targetOf({ format: "xrechnung" })).toMatchObject({ syntax: "ubl", embed: false, rules: ["en16931", "xrechnung"] });
  expect(targetOf({ format: "xrechnung", embed: true })).toMatchObject({ profile: "xrechnung", fileName: "xrechnung.xml" });
  expect(targetOf({ format: "peppol" })).toMatchObject({
    syntax: "ubl",
    rules: ["en16931", "peppol"],
    customization: "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0",
    process: "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0",
  });
});

test("XRechnung's rules, each at the field to add: buyer reference, contact, addresses, electronic addresses, payment", () => {
  const inv = structuredClone(xrechnung);
  delete inv.buyer_reference;
  delete inv.seller.contact.email;
  delete inv.buyer.address.postal_code;
  delete inv.buyer.electronic_address;
  delete inv.payment;
  expect(details({ format: "xrechnung", invoice: inv }).sort()).toEqual(
    [
      `BR-DE-1 ${P}.invoice.payment`,
      `BR-DE-15 ${P}.invoice.buyer_reference`,
      `BR-DE-7 ${P}.invoice.seller.contact.email`,
      `BR-DE-9 ${P}.invoice.buyer.address.postal_code`,
      `PEPPOL-EN16931-R010 ${P}.invoice.buyer.electronic_address`,
    ].sort(),
  );
  // The same invoice is a valid plain UBL or Factur-X invoice: those formats do not ask for them.
  expect(details({ format: "ubl", invoice: inv })).toEqual([]);
  expect(details({ invoice: inv })).toEqual([]);
});

test("Peppol's rules: a buyer or order reference, and no e-mail electronic address", () => {
  const inv = structuredClone(xrechnung);
  delete inv.buyer_reference;
  delete inv.order_reference;
  inv.seller.electronic_address = { scheme: "EM", value: "invoices@muster.example" };
  expect(details({ format: "peppol", invoice: inv }).sort()).toEqual(
    [`PEPPOL-EN16931-CL008 ${P}.invoice.seller.electronic_address.scheme`, `PEPPOL-EN16931-R003 ${P}.invoice.buyer_reference`].sort(),
  );
});

test("the Factur-X profiles: MINIMUM has the header figures only, BASIC WL no lines, BASIC no item ids or contacts", () => {
  const xml = (profile: string) => eInvoiceXml(checkEInvoice({ format: "facturx", profile, invoice: xrechnung }));
  const min = xml("minimum");
  expect(min).toContain("<ram:ID>urn:factur-x.eu:1p0:minimum</ram:ID>");
  expect(min).toContain("<ram:GrandTotalAmount>1447.26</ram:GrandTotalAmount>");
  for (const gone of ["IncludedSupplyChainTradeLineItem", "ApplicableTradeTax", "PostalTradeAddress><ram:LineOne", "DefinedTradeContact"])
    expect(min).not.toContain(gone);
  const wl = xml("basic-wl");
  expect(wl).not.toContain("IncludedSupplyChainTradeLineItem");
  expect(wl).toContain("<ram:ApplicableTradeTax>");
  const basic = xml("basic");
  expect(basic).toContain("IncludedSupplyChainTradeLineItem");
  expect(basic).not.toContain("DefinedTradeContact");
  expect(xml("en16931")).toContain("DefinedTradeContact");
});

test("a credit note (381) is a UBL CreditNote with CreditNoteLine and CreditedQuantity, its due date in the payment means", () => {
  const inv = { ...structuredClone(xrechnung), type_code: "381", preceding_invoice: { number: "RE-2025-0100" } };
  const xml = eInvoiceXml(checkEInvoice({ format: "xrechnung", invoice: inv }));
  expect(xml).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
  expect(xml).toContain("<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>");
  expect(xml).toContain('<cbc:CreditedQuantity unitCode="HUR">12.5</cbc:CreditedQuantity>');
  expect(xml).toContain("<cbc:PaymentDueDate>2025-04-30</cbc:PaymentDueDate>");
  expect(xml).not.toContain("<cbc:DueDate>");
});
