// The customer's own CII XML (options.e_invoice.xml_base64): decoded, checked to be well-formed,
// namespace-well-formed UTF-8 XML whose root is rsm:CrossIndustryInvoice, and read for the few figures
// the service shows (number, grand total, currency). It is embedded as it is: its business rules are
// the customer's affair. A DOCTYPE is refused: no entity expansion of untrusted input.

import { AppError } from "../lib/errors";
import { type FacturXProfile, profileOfGuideline } from "./facturx";
import type { EInvoiceSummary } from "./model";

export const CII_NS = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
export const RAM_NS = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100";

/** The largest XML accepted, decoded. */
export const MAX_XML_BYTES = 10 * 1024 * 1024;

export interface CustomerXmlSummary {
  xml: string;
  profile: FacturXProfile;
  summary: EInvoiceSummary;
}

/** An element of the parsed document: its namespace and local name, its children and its text. */
export interface XmlElement {
  ns: string;
  local: string;
  children: XmlElement[];
  text: string;
}

const NAME = "[A-Za-z_\\u00C0-\\uFFEF][\\w.\\-\\u00B7\\u00C0-\\uFFEF]*";
const QNAME_RE = new RegExp(`^(?:(${NAME}):)?(${NAME})$`);
const ATTR_RE = new RegExp(`\\s*(${NAME}(?::${NAME})?)\\s*=\\s*(?:"([^"<]*)"|'([^'<]*)')`, "y");
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const ENTITY_RE = /&(?:amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});/g;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const decodeEntities = (s: string) =>
  s.replace(/&(#x[0-9A-Fa-f]+|#[0-9]+|\w+);/g, (_, e: string) =>
    e.startsWith("#x")
      ? String.fromCodePoint(Number.parseInt(e.slice(2), 16))
      : e.startsWith("#")
        ? String.fromCodePoint(Number(e.slice(1)))
        : ENTITIES[e]!,
  );

/** Where in the text an offset is, for messages. */
function lineOf(text: string, at: number): number {
  let n = 1;
  for (let i = 0; i < at && i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/**
 * Parses XML 1.0 with namespaces, strictly: one root, matched tags, quoted unique attributes, only the
 * five predefined entities and character references, declared prefixes. No DOCTYPE. Throws an Error
 * whose message says what and on which line.
 */
export function parseXml(text: string): XmlElement {
  const bad = NOT_XML.exec(text);
  if (bad) throw new Error(`line ${lineOf(text, bad.index)}: a control character XML does not allow`);
  const stack: { el: XmlElement; qname: string; scope: Map<string, string> }[] = [];
  let root: XmlElement | undefined;
  let i = 0;
  const fail = (what: string, at = i): never => {
    throw new Error(`line ${lineOf(text, at)}: ${what}`);
  };
  const checkText = (s: string, at: number) => {
    const stripped = s.replace(ENTITY_RE, "");
    const amp = stripped.indexOf("&");
    if (amp >= 0) fail("an & that starts no known entity (write &amp;)", at);
    if (stripped.includes("]]>")) fail("]]> outside a CDATA section", at);
  };
  if (text.startsWith("<?xml")) {
    const end = text.indexOf("?>");
    if (end < 0) fail("the XML declaration is not closed");
    const enc = /encoding\s*=\s*["']([^"']+)["']/.exec(text.slice(0, end));
    if (enc && !/^utf-?8$/i.test(enc[1]!)) fail(`encoding ${enc[1]}: send the XML in UTF-8`);
    i = end + 2;
  }
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    const chunk = text.slice(i, lt < 0 ? text.length : lt);
    if (chunk.length > 0) {
      if (stack.length === 0) {
        if (chunk.trim() !== "") fail(root ? "text after the root element" : "text before the root element");
      } else {
        checkText(chunk, i);
        stack[stack.length - 1]!.el.text += decodeEntities(chunk);
      }
    }
    if (lt < 0) break;
    i = lt;
    if (text.startsWith("<!--", i)) {
      const end = text.indexOf("-->", i + 4);
      if (end < 0) fail("a comment is not closed");
      i = end + 3;
    } else if (text.startsWith("<![CDATA[", i)) {
      if (stack.length === 0) fail("CDATA outside the root element");
      const end = text.indexOf("]]>", i + 9);
      if (end < 0) fail("a CDATA section is not closed");
      stack[stack.length - 1]!.el.text += text.slice(i + 9, end);
      i = end + 3;
    } else if (text.startsWith("<!", i)) {
      fail("a DOCTYPE or other declaration: not accepted in an e-invoice");
    } else if (text.startsWith("<?", i)) {
      const end = text.indexOf("?>", i + 2);
      if (end < 0) fail("a processing instruction is not closed");
      if (/^<\?xml[\s?]/i.test(text.slice(i, i + 6))) fail("an XML declaration that is not at the very start");
      i = end + 2;
    } else if (text.startsWith("</", i)) {
      const end = text.indexOf(">", i);
      if (end < 0) fail("an end tag is not closed");
      const qname = text.slice(i + 2, end).trim();
      const open = stack.pop();
      if (!open) fail(`end tag </${qname}> without a start tag`);
      if (open!.qname !== qname) fail(`end tag </${qname}> does not match <${open!.qname}>`);
      i = end + 1;
    } else {
      const nameMatch = new RegExp(`^<(${NAME}(?::${NAME})?)`).exec(text.slice(i, i + 1000));
      if (!nameMatch) fail("a < that starts no tag (write &lt;)");
      const qname = nameMatch![1]!;
      let j = i + nameMatch![0].length;
      const attrs = new Map<string, string>();
      for (;;) {
        ATTR_RE.lastIndex = j;
        const a = ATTR_RE.exec(text);
        if (!a) break;
        if (attrs.has(a[1]!)) fail(`attribute ${a[1]} given twice`, j);
        const value = a[2] ?? a[3] ?? "";
        checkText(value, j);
        attrs.set(a[1]!, decodeEntities(value));
        j = ATTR_RE.lastIndex;
      }
      while (j < text.length && /\s/.test(text[j]!)) j++;
      const selfClosing = text.startsWith("/>", j);
      if (!selfClosing && text[j] !== ">") fail(`the start tag <${qname}> is malformed`, j);
      if (stack.length === 0 && root) fail("a second root element");
      const scope = new Map(stack.length > 0 ? stack[stack.length - 1]!.scope : [["xml", "http://www.w3.org/XML/1998/namespace"]]);
      for (const [k, v] of attrs) {
        if (k === "xmlns") scope.set("", v);
        else if (k.startsWith("xmlns:")) scope.set(k.slice(6), v);
      }
      const [, prefix, local] = QNAME_RE.exec(qname)!;
      const ns = scope.get(prefix ?? "");
      if (prefix && ns === undefined) fail(`the prefix ${prefix} of <${qname}> is not declared`);
      for (const k of attrs.keys()) {
        const p = k.includes(":") ? k.split(":")[0]! : undefined;
        if (p && p !== "xmlns" && !scope.has(p)) fail(`the prefix ${p} of attribute ${k} is not declared`);
      }
      const el: XmlElement = { ns: ns ?? "", local: local!, children: [], text: "" };
      if (stack.length > 0) stack[stack.length - 1]!.el.children.push(el);
      else root = el;
      if (!selfClosing) stack.push({ el, qname, scope });
      i = j + (selfClosing ? 2 : 1);
    }
  }
  if (stack.length > 0) fail(`<${stack[stack.length - 1]!.qname}> is not closed`, text.length);
  if (!root) fail("no root element", 0);
  return root!;
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
    throw invalid(field, "well-formed", `the XML is not well-formed: ${(e as Error).message}`);
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
