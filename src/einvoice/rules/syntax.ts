// Syntax-bound rules that are part of EN 16931's artefacts for one syntax (CII-SR-*), and what the
// XML Schema refuses (id XSD): a missing mandatory element, and for UBL the order, count and names of
// the root's children. Deeper structure is left to the readers and rules.
import { UBL_CREDIT_NOTE_ROOT, UBL_INVOICE_ROOT } from "../code-lists";
import { has, type SemInvoice } from "../semantic";
import { child, type XmlElement } from "../xml";
import type { Report } from "./report";

const CII_MANDATORY = ["ExchangedDocumentContext", "ExchangedDocument", "SupplyChainTradeTransaction"];

/** What the XML Schema says of the root's children: the mandatory ones, and for UBL their order and count. */
export function schemaMandatory(root: XmlElement, syntax: SemInvoice["syntax"], r: Report) {
  if (syntax === "cii") {
    for (const n of CII_MANDATORY)
      if (!child(root, n)) r.fail("XSD", root.xpath, `the XML Schema requires the element ${n} in ${root.qname}`);
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
