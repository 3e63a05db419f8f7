// The customer's own CII XML (options.e_invoice.xml_base64): decoded, checked to be well-formed,
// namespace-well-formed UTF-8 XML whose root is rsm:CrossIndustryInvoice, and read for the few figures
// the service shows (number, grand total, currency). It is embedded as it is: its business rules are
// the customer's affair. A DOCTYPE is refused: no entity expansion of untrusted input.

import { AppError } from "../lib/errors";
import { type FacturXProfile, profileOfGuideline } from "./facturx";
import type { EInvoiceSummary } from "./model";
import { parseXml, XML_LIMITS, type XmlElement, XmlRejected } from "./xml";

export { parseXml, type XmlElement } from "./xml";

export const CII_NS = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
export const RAM_NS = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100";

/** The largest XML accepted, decoded. */
export const MAX_XML_BYTES = XML_LIMITS.maxBytes;

export interface CustomerXmlSummary {
  xml: string;
  profile: FacturXProfile;
  summary: EInvoiceSummary;
}

/** The first element along a path of local names in the CII namespaces. */
export function find(el: XmlElement, ...path: string[]): XmlElement | undefined {
  let cur: XmlElement | undefined = el;
  for (const name of path) {
    cur = cur.children.find((c) => c.local === name && (c.ns === CII_NS || c.ns === RAM_NS));
    if (!cur) return undefined;
  }
  return cur;
}

const invalid = (field: string, rule: string, problem: string) =>
  new AppError("e_invoice_invalid", `the e-invoice XML is invalid (${rule}) at ${field}: ${problem}`, [{ rule, field, problem }]);

/** Checks the customer's base64 CII XML; throws 422 e_invoice_invalid naming `field`. */
export function checkCustomerXml(value: unknown, field: string): CustomerXmlSummary {
  if (typeof value !== "string" || !/^[A-Za-z0-9+/\r\n]*={0,2}\s*$/.test(value)) {
    throw invalid(field, "schema", "must be the XML file in base64");
  }
  const bytes = Buffer.from(value, "base64");
  if (bytes.length === 0) throw invalid(field, "schema", "is empty");
  if (bytes.length > MAX_XML_BYTES) throw invalid(field, "schema", `the XML is larger than ${MAX_XML_BYTES / 1024 / 1024} MB`);
  let xml: string;
  try {
    xml = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw invalid(field, "schema", "is not UTF-8 text: send the XML in UTF-8");
  }
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (e) {
    if (!(e instanceof XmlRejected)) throw e;
    throw invalid(field, "well-formed", `the XML is not well-formed or not accepted: ${e.message}`);
  }
  if (root.local !== "CrossIndustryInvoice" || root.ns !== CII_NS) {
    throw invalid(
      field,
      "root",
      `the root element is {${root.ns}}${root.local}; a Factur-X / ZUGFeRD invoice is rsm:CrossIndustryInvoice in namespace ${CII_NS}`,
    );
  }
  const text = (...path: string[]) => find(root, ...path)?.text.trim() || undefined;
  const settlement = ["SupplyChainTradeTransaction", "ApplicableHeaderTradeSettlement"];
  const sums = [...settlement, "SpecifiedTradeSettlementHeaderMonetarySummation"];
  const number = text("ExchangedDocument", "ID");
  const currency = text(...settlement, "InvoiceCurrencyCode");
  const grandTotal = text(...sums, "GrandTotalAmount");
  const guideline = text("ExchangedDocumentContext", "GuidelineSpecifiedDocumentContextParameter", "ID");
  if (!number) throw invalid(field, "BR-02", "the XML has no invoice number (rsm:ExchangedDocument/ram:ID)");
  if (!currency) throw invalid(field, "BR-05", "the XML has no invoice currency (ram:InvoiceCurrencyCode)");
  if (!grandTotal) throw invalid(field, "BR-14", "the XML has no total with VAT (ram:GrandTotalAmount)");
  if (!guideline)
    throw invalid(field, "BR-01", "the XML has no specification identifier (ram:GuidelineSpecifiedDocumentContextParameter/ram:ID)");
  const profile = profileOfGuideline(guideline);
  if (!profile) throw invalid(field, "BR-01", `the specification identifier ${guideline} is no Factur-X / ZUGFeRD profile`);
  return {
    xml,
    profile,
    summary: { number, currency, grand_total: grandTotal, due_payable: text(...sums, "DuePayableAmount") },
  };
}
