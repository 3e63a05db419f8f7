// The XML of a checked e-invoice, in its target's syntax: UBL (ubl.ts) or CII (cii.ts), or the
// customer's own XML unchanged.
import type { CheckedEInvoice } from "./check";
import { ciiXml } from "./cii";
import { ublXml } from "./ubl";

export function eInvoiceXml(checked: CheckedEInvoice): string {
  if (checked.source === "xml") return checked.xml;
  return checked.target.syntax === "ubl" ? ublXml(checked) : ciiXml(checked);
}
