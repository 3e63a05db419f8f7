// Syntax-bound rules that are part of EN 16931's artefacts for one syntax (CII-SR-*), and what the
// XML Schema refuses (id XSD): a missing mandatory element, and for UBL the order, count and names of
// the root's children. Deeper structure is left to the readers and rules.
import { UBL_CREDIT_NOTE_ROOT, UBL_INVOICE_ROOT } from "../code-lists";
import type { SemInvoice } from "../semantic";
import { child, type XmlElement } from "../xml";
import { ciiStructure } from "./cii-structure";
import type { Report } from "./report";
import { ublStructure } from "./ubl-structure";

/** What the XML Schema says of the structure: CII's throughout, UBL's root here (ubl-structure.ts does the rest). */
export function rootStructure(root: XmlElement, syntax: SemInvoice["syntax"], r: Report) {
  if (syntax === "cii") {
    ciiStructure(root, r);
    return;
  }
  const sequence = root.local === "CreditNote" ? UBL_CREDIT_NOTE_ROOT : UBL_INVOICE_ROOT;
  const position = new Map(sequence.map(([name], i) => [name, i]));
  const counts = new Map<string, number>();
  let last = -1;
  for (const c of root.children) {
    const at = position.get(c.local);
    if (at === undefined) {
      r.fail("XSD", c.xpath, `the element ${c.qname} is not expected in ${root.qname}`);
      continue;
    }
    if (at < last) r.fail("XSD", c.xpath, `the element ${c.qname} is out of the schema's order: it comes before ${sequence[last]![0]}`);
    last = Math.max(last, at);
    counts.set(c.local, (counts.get(c.local) ?? 0) + 1);
  }
  for (const [name, min, max] of sequence) {
    const n = counts.get(name) ?? 0;
    if (n < min) r.fail("XSD", root.xpath, `the XML Schema requires the element ${name} in ${root.qname}`);
    if (max > 0 && n > max) r.fail("XSD", root.xpath, `the element ${name} may appear at most ${max} time(s) in ${root.qname}`);
  }
}

/** Every element under `el`, depth first. */
function* all(el: XmlElement): Generator<XmlElement> {
  yield el;
  for (const c of el.children) yield* all(c);
}

const count = (el: XmlElement | undefined, local: string) => (el ? el.children.filter((c) => c.local === local).length : 0);

/** At most `max` `local` children under each element named `parent`. */
function atMost(r: Report, rule: string, root: XmlElement, parent: string, local: string, max: number, what: string) {
  for (const el of all(root))
    if (el.local === parent && count(el, local) > max)
      r.fail(rule, el.xpath, `${what} shall occur at most ${max === 1 ? "once" : `${max} times`}`);
}

/** EN 16931's UBL syntax rules (UBL-SR-*, UBL-DT-*) that concern the meaning. */
function ublSyntax(root: XmlElement, r: Report) {
  const codes = new Set<string>();
  for (const el of all(root)) {
    if (el.local.endsWith("Amount") && !el.local.endsWith("PriceAmount") && !el.xpath.includes("/cac:Price[")) {
      const dot = el.text.trim().indexOf(".");
      if (dot >= 0 && el.text.trim().length - dot - 1 > 2)
        r.fail("UBL-DT-01", el.xpath, "an amount shall have at most two fraction digits");
    }
    if (el.local === "PartyTaxScheme" && !(child(child(el, "TaxScheme"), "ID") && child(el, "CompanyID"))) {
      r.fail("UBL-SR-53", el.xpath, "a party tax scheme needs its CompanyID (the VAT identifier) and its TaxScheme/ID");
    }
    if (el.local === "EmbeddedDocumentBinaryObject") {
      if (el.attrs.mimeCode === undefined) r.fail("UBL-DT-06", el.xpath, "a binary object shall carry its mimeCode");
      if (el.attrs.filename === undefined) r.fail("UBL-DT-07", el.xpath, "a binary object shall carry its filename");
    }
    if (el.local === "PaymentMeansCode") codes.add(el.text.trim());
    if ((el.local === "InvoiceLine" || el.local === "CreditNoteLine") && count(child(el, "Item"), "ClassifiedTaxCategory") !== 1) {
      r.fail("UBL-SR-48", el.xpath, "an invoice line shall have exactly one classified tax category");
    }
    if (el.local === "BillingReference" && !child(child(el, "InvoiceDocumentReference"), "ID")) {
      r.fail("UBL-SR-07", el.xpath, "a preceding invoice reference shall give the preceding invoice number");
    }
  }
  if (codes.size > 1) r.fail("UBL-SR-47", root.xpath, "when there are several payment means codes, they shall be equal");
  for (const [rule, name, what] of [
    ["UBL-SR-05", "PaymentTerms", "Payment terms"],
    ["UBL-SR-08", "InvoicePeriod", "The invoice period"],
    ["UBL-SR-24", "Delivery", "The deliver to information"],
    ["UBL-SR-45", "DueDate", "The due date"],
    ["UBL-SR-49", "TaxPointDate", "The VAT point date"],
  ] as const) {
    if (count(root, name) > 1) r.fail(rule, root.xpath, `${what} shall occur at most once`);
  }
  atMost(r, "UBL-SR-34", root, "InvoiceLine", "Note", 1, "The invoice line note");
  atMost(r, "UBL-SR-36", root, "InvoiceLine", "InvoicePeriod", 1, "The invoice line period");
  atMost(r, "UBL-SR-50", root, "Item", "Description", 1, "The item description");
  atMost(r, "UBL-SR-42", root, "Party", "PartyTaxScheme", 2, "The party tax scheme");
}

/** EN 16931's CII syntax rules (CII-SR-*, CII-DT-*) that concern the meaning. */
function ciiTree(root: XmlElement, r: Report) {
  const ctx = child(root, "ExchangedDocumentContext");
  if (ctx && count(ctx, "GuidelineSpecifiedDocumentContextParameter") !== 1) {
    r.fail("CII-SR-009", ctx.xpath, "GuidelineSpecifiedDocumentContextParameter must exist exactly once");
  }
  if (ctx && count(child(ctx, "GuidelineSpecifiedDocumentContextParameter"), "ID") !== 1) {
    r.fail("CII-SR-010", ctx.xpath, "the specification identifier (GuidelineSpecifiedDocumentContextParameter/ID) must exist exactly once");
  }
  const doc = child(root, "ExchangedDocument");
  if (doc && count(doc, "TypeCode") !== 1) r.fail("CII-SR-014", doc.xpath, "the document TypeCode must exist exactly once");
  const codes = new Set<string>();
  const sums = [
    ["CII-SR-477", "LineTotalAmount"],
    ["CII-SR-478", "ChargeTotalAmount"],
    ["CII-SR-479", "AllowanceTotalAmount"],
    ["CII-SR-480", "TaxBasisTotalAmount"],
    ["CII-SR-481", "RoundingAmount"],
    ["CII-SR-482", "GrandTotalAmount"],
    ["CII-SR-484", "TotalPrepaidAmount"],
    ["CII-SR-487", "DuePayableAmount"],
  ] as const;
  for (const el of all(root)) {
    if (child(el, "GlobalID") && el.children.some((c) => c.local === "GlobalID" && c.attrs.schemeID === undefined)) {
      r.fail("CII-SR-046", el.xpath, "a GlobalID needs its schemeID");
    }
    if (el.local === "SpecifiedTradeAllowanceCharge" && el.xpath.includes("ApplicableHeaderTradeSettlement")) {
      if (!child(el, "ChargeIndicator"))
        r.fail("CII-SR-463", el.xpath, "each document level allowance or charge shall contain a charge indicator");
      if (!child(child(el, "CategoryTradeTax"), "CategoryCode"))
        r.fail("CII-SR-471", el.xpath, "each document level allowance or charge shall contain a VAT category code (BT-95/BT-102)");
    }
    if (
      (el.local === "ApplicableTradeTax" || el.local === "CategoryTradeTax") &&
      child(el, "TypeCode") &&
      child(el, "TypeCode")!.text.trim() !== "VAT"
    ) {
      r.fail("CII-DT-037", child(el, "TypeCode")!.xpath, "the tax TypeCode shall be 'VAT'");
    }
    if (el.local === "SpecifiedTradeSettlementPaymentMeans") {
      const code = child(el, "TypeCode");
      if (code) codes.add(code.text.trim());
    }
    if (el.local === "SpecifiedTradeSettlementHeaderMonetarySummation") {
      for (const [rule, name] of sums)
        if (count(el, name) > 1) r.fail(rule, el.xpath, `${name} shall occur at most once in the monetary summation`);
    }
  }
  if (codes.size > 1) r.fail("CII-SR-467", root.xpath, "all payment means type codes (BT-81) shall have the same value");
}

/** The syntax rules that look at the XML itself. */
export function syntaxOfTree(root: XmlElement, syntax: SemInvoice["syntax"], r: Report) {
  rootStructure(root, syntax, r);
  if (syntax === "ubl") {
    ublStructure(root, r);
    ublSyntax(root, r);
  } else ciiTree(root, r);
}

/** EN 16931's CII syntax rules that concern the meaning. */
export function ciiSyntax(inv: SemInvoice, r: Report) {
  if (inv.syntax !== "cii") return;
  for (const pm of inv.paymentMeans) {
    if ((pm.code?.v === "30" || pm.code?.v === "58") && !pm.transfers.some((t) => t.account)) {
      r.fail("CII-SR-470", pm.at, "either the IBAN or a proprietary identifier (BT-84) shall be used");
    }
  }
}
