// Checks an incoming e-invoice: UBL 2.1 (Invoice, CreditNote) or UN/CEFACT CII D16B XML is parsed
// (xml.ts), read into the EN 16931 semantic model (read-ubl.ts, read-cii.ts) and checked by our rules:
// EN 16931 always, XRechnung and Peppol when the specification identifier names them or when asked.
// Pure and synchronous, with no I/O: it can run in a worker thread (validate-worker.ts).

import { type IncomingAttachment, incomingTemplateData } from "./incoming-view";
import { readCii } from "./read-cii";
import { readUbl, UBL_CREDIT_NOTE_NS, UBL_INVOICE_NS } from "./read-ubl";
import { codeLists } from "./rules/code-lists";
import { en16931Core } from "./rules/en16931-core";
import { peppol, xrechnungPeppol } from "./rules/peppol";
import { Report, RULE_SETS, type RuleSetId } from "./rules/report";
import { ciiSyntax, syntaxOfTree } from "./rules/syntax";
import { vatCategories } from "./rules/vat-categories";
import { xrechnung } from "./rules/xrechnung";
import type { Finding, SemInvoice } from "./semantic";
import { parseXml, type XmlElement } from "./xml";

export { RULE_SETS, type RuleSetId } from "./rules/report";
export { XmlRejected } from "./xml";

const CII_NS = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";

/** One broken rule, as the validate endpoint returns it. */
export interface EInvoiceIssue {
  rule: string;
  message: string;
  /** An XPath to the element concerned. */
  location: string;
}

export interface EInvoiceValidation {
  valid: boolean;
  syntax: "cii" | "ubl";
  document: "invoice" | "credit_note";
  customization: string | null;
  rules: { id: RuleSetId; version: string }[];
  errors: EInvoiceIssue[];
  warnings: EInvoiceIssue[];
}

/** The document is XML, but no e-invoice syntax this checker reads. */
export class NotAnEInvoice extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotAnEInvoice";
  }
}

/** The rule sets a document asks for by its specification identifier (BT-24). */
export function ruleSetsFor(customization: string | undefined): RuleSetId[] {
  const sets: RuleSetId[] = ["en16931"];
  if (customization && /xrechnung/i.test(customization)) sets.push("xrechnung");
  if (customization?.includes("urn:fdc:peppol.eu:2017:poacc:billing")) sets.push("peppol");
  return sets;
}

/** Empty elements (PEPPOL-EN16931-R008) and amounts with a currency (BR-CL-03, PEPPOL-EN16931-R051). */
function walk(el: XmlElement, inv: SemInvoice, parent?: XmlElement) {
  // CII's schema requires the header delivery even when there is nothing to say about it.
  const required = inv.syntax === "cii" && el.local === "ApplicableHeaderTradeDelivery";
  if (el.children.length === 0 && el.text.trim() === "" && !required) inv.emptyElements.push(el.xpath);
  const currency = el.attrs.currencyID;
  // The total VAT in accounting currency (BT-111) is the one amount allowed another currency.
  const accounting = el.local === "TaxAmount" && parent?.local === "TaxTotal" && !parent.children.some((c) => c.local === "TaxSubtotal");
  if (currency !== undefined && !accounting && el.local !== "TaxTotalAmount")
    inv.amounts.push({ v: el.text.trim(), at: el.xpath, attrs: el.attrs });
  for (const c of el.children) walk(c, inv, el);
}

/** The semantic model of a parsed e-invoice; NotAnEInvoice for any other root element. */
export function readEInvoice(root: XmlElement): SemInvoice {
  let inv: SemInvoice;
  if (root.ns === CII_NS && root.local === "CrossIndustryInvoice") inv = readCii(root);
  else if ((root.ns === UBL_INVOICE_NS && root.local === "Invoice") || (root.ns === UBL_CREDIT_NOTE_NS && root.local === "CreditNote"))
    inv = readUbl(root);
  else {
    throw new NotAnEInvoice(
      `the root element {${root.ns}}${root.local} is no e-invoice: expected a UBL 2.1 Invoice or CreditNote, or a CII rsm:CrossIndustryInvoice`,
    );
  }
  walk(root, inv);
  return inv;
}

/** Runs the rule sets on an invoice of the semantic model; returns every finding. */
export function runRules(inv: SemInvoice, sets: RuleSetId[]): Finding[] {
  const r = new Report();
  r.findings.push(...inv.syntaxFindings);
  en16931Core(inv, r);
  vatCategories(inv, r);
  codeLists(inv, r);
  ciiSyntax(inv, r);
  if (sets.includes("peppol")) peppol(inv, r);
  else if (sets.includes("xrechnung")) xrechnungPeppol(inv, r);
  if (sets.includes("xrechnung")) xrechnung(inv, r);
  return r.findings;
}

/**
 * Checks an e-invoice's XML. Throws XmlRejected when it is not XML or is hostile (a 4xx), and
 * NotAnEInvoice when its root is no UBL or CII invoice. `rules` overrides the rule sets the
 * specification identifier asks for (EN 16931 is always checked).
 */
export function validateEInvoice(input: Uint8Array | string, options: { rules?: RuleSetId[] } = {}): EInvoiceValidation {
  const root = parseXml(input);
  return checkRead(root, readEInvoice(root), options.rules);
}

/** What POST /e-invoices/render prints: the check's verdict and the invoice as a template sees it. */
export interface IncomingReading {
  validation: EInvoiceValidation;
  e_invoice: Record<string, unknown>;
  attachments: IncomingAttachment[];
}

/** Checks an e-invoice's XML like validateEInvoice, and reads it for the readable copy (incoming-view.ts). */
export function readIncoming(input: Uint8Array | string, options: { rules?: RuleSetId[] } = {}): IncomingReading {
  const root = parseXml(input);
  const inv = readEInvoice(root);
  return { validation: checkRead(root, inv, options.rules), ...incomingTemplateData(inv) };
}

function checkRead(root: XmlElement, inv: SemInvoice, rules: RuleSetId[] | undefined): EInvoiceValidation {
  const options = { rules };
  const sets = options.rules
    ? (["en16931", ...options.rules.filter((s) => s !== "en16931")] as RuleSetId[])
    : ruleSetsFor(inv.customization?.v);
  const r = new Report();
  syntaxOfTree(root, inv.syntax, r);
  const findings = [...r.findings, ...runRules(inv, sets)];
  // A rule failing at one place is reported once, however many families reach it.
  const seen = new Set<string>();
  const unique = findings.filter((f) => {
    const key = `${f.rule}|${f.location}|${f.flag}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const issue = ({ rule, message, location }: Finding): EInvoiceIssue => ({ rule, message, location });
  const errors = unique.filter((f) => f.flag === "fatal").map(issue);
  return {
    valid: errors.length === 0,
    syntax: inv.syntax,
    document: inv.document,
    customization: inv.customization?.v ?? null,
    rules: sets.map((id) => ({ id, version: RULE_SETS[id] })),
    errors,
    warnings: unique.filter((f) => f.flag === "warning").map(issue),
  };
}
