// Syntax-bound rules that are part of EN 16931's artefacts for one syntax (CII-SR-*), and what the
// XML Schema refuses that matters to a reader: a missing mandatory element (id XSD). Element order and
// unknown elements are out of scope: they change nothing in the invoice's meaning.
import { has, type SemInvoice } from "../semantic";
import { child, type XmlElement } from "../xml";
import type { Report } from "./report";

const UBL_MANDATORY = ["ID", "IssueDate", "AccountingSupplierParty", "AccountingCustomerParty", "LegalMonetaryTotal"];
const CII_MANDATORY = ["ExchangedDocumentContext", "ExchangedDocument", "SupplyChainTradeTransaction"];

/** The schema's mandatory elements at the root. */
export function schemaMandatory(root: XmlElement, syntax: SemInvoice["syntax"], r: Report) {
  const names = syntax === "ubl" ? [...UBL_MANDATORY, root.local === "CreditNote" ? "CreditNoteLine" : "InvoiceLine"] : CII_MANDATORY;
  for (const n of names) if (!child(root, n)) r.fail("XSD", root.xpath, `the XML Schema requires the element ${n} in ${root.qname}`);
}

/** EN 16931's CII syntax rules that concern the meaning. */
export function ciiSyntax(inv: SemInvoice, r: Report) {
  if (inv.syntax !== "cii") return;
  for (const pm of inv.paymentMeans) {
    if ((pm.code?.v === "30" || pm.code?.v === "58") && !pm.transfers.some((t) => t.account)) {
      r.fail("CII-SR-470", pm.at, "either the IBAN or a proprietary identifier (BT-84) shall be used");
    }
  }
  if (inv.lines.some((l) => !has(l.id))) return;
}
