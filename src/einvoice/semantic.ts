// The EN 16931 semantic model the rules run on: the business terms (BT-n) and groups (BG-n) of one
// invoice, each value with where it came from. The XML readers (read-ubl.ts, read-cii.ts) fill it
// with XPath locations; the JSON model (from-model.ts) fills it with JSON paths. So one rule set
// (rules/*.ts) serves the incoming check and the outgoing check, and every finding can say where.
// Values are kept as the text the document carries: the rules decide what is missing, malformed or wrong.

/** One value: its text (trimmed), where it is, and the attributes it carried (schemeID, unitCode, currencyID, ...). */
export interface Field {
  v: string;
  at: string;
  attrs: Record<string, string>;
  /** The text as written, where its line breaks matter (payment terms). */
  raw?: string;
}

/** A VAT category and rate (BT-151/152, BT-95/96, BT-102/103). */
export interface SemTax {
  at: string;
  category?: Field;
  rate?: Field;
  /** The tax scheme (VAT), where the syntax carries one. */
  scheme?: Field;
  /** CII: an exemption reason on a line's or a charge's tax (no business term; read for the readable copy). */
  reason?: Field;
}

/** A document level or line allowance or charge (BG-20/21, BG-27/28). */
export interface SemAllowanceCharge {
  at: string;
  charge: boolean;
  /** The charge indicator as written (true / false). */
  indicator?: Field;
  amount?: Field;
  base?: Field;
  percent?: Field;
  reason?: Field;
  reasonCode?: Field;
  tax?: SemTax;
}

export interface SemAddress {
  at: string;
  line1?: Field;
  line2?: Field;
  line3?: Field;
  city?: Field;
  postcode?: Field;
  subdivision?: Field;
  country?: Field;
}

export interface SemParty {
  at: string;
  name?: Field;
  tradingName?: Field;
  /** BT-29 / BT-46 / BT-60: identifiers with their scheme. */
  ids: Field[];
  legalId?: Field;
  vatId?: Field;
  taxRegId?: Field;
  /** UBL: the TaxScheme ID beside the tax registration (BT-32), "FC" by convention (read for the readable copy). */
  taxRegScheme?: Field;
  endpoint?: Field;
  /** CII: where the electronic address group is, present even when its URIID is not. */
  endpointGroup?: string;
  address?: SemAddress;
  contact?: { at: string; name?: Field; phone?: Field; email?: Field };
  /** BT-33: the seller's additional legal information (read for the readable copy). */
  legalInfo?: Field;
}

export interface SemPeriod {
  at: string;
  start?: Field;
  end?: Field;
}

export interface SemLine {
  at: string;
  id?: Field;
  note?: Field;
  quantity?: Field;
  /** BT-130: the unitCode of the quantity. */
  unit?: Field;
  net?: Field;
  /** Where the item price group is (cac:Price, ram:NetPriceProductTradePrice), when there is one. */
  priceAt?: string;
  price?: Field;
  priceBaseQuantity?: Field;
  gross?: Field;
  priceDiscount?: Field;
  /** The charge indicator of the price discount, as written. */
  priceDiscountIndicator?: Field;
  name?: Field;
  tax?: SemTax;
  period?: SemPeriod;
  allowances: SemAllowanceCharge[];
  charges: SemAllowanceCharge[];
  standardId?: Field;
  classifications: Field[];
  attributes: { at: string; name?: Field; value?: Field }[];
  originCountry?: Field;
  objectId?: Field;
  /** The document type of the line's object reference (130 for an invoiced object). */
  objectTypeCode?: Field;
  /** BT-154, BT-155, BT-156, BT-132, BT-133: read for the readable copy; no rule needs them. */
  description?: Field;
  sellerItemId?: Field;
  buyerItemId?: Field;
  orderLineReference?: Field;
  accountingReference?: Field;
  /** XRechnung's extension: the line's sub-lines (UBL cac:SubInvoiceLine), for the readable copy; no rule reads them. */
  subLines?: SemLine[];
}

export interface SemVatBreakdown {
  at: string;
  category?: Field;
  rate?: Field;
  taxable?: Field;
  tax?: Field;
  reason?: Field;
  reasonCode?: Field;
}

export interface SemPaymentMeans {
  at: string;
  code?: Field;
  text?: Field;
  /** BG-17: the credit transfer accounts (BT-84 in each; absent when the group has no identifier). */
  transfers: { at: string; account?: Field; name?: Field; bic?: Field }[];
  card?: Field;
  /** BT-88 the card holder, and UBL's card network (read for the readable copy). */
  cardHolder?: Field;
  cardNetwork?: Field;
  mandate?: Field;
  debitedAccount?: Field;
}

export interface SemTotals {
  at: string;
  lineTotal?: Field;
  allowanceTotal?: Field;
  chargeTotal?: Field;
  taxBasis?: Field;
  grand?: Field;
  prepaid?: Field;
  rounding?: Field;
  due?: Field;
}

/** A finding of a reader or a rule: the rule id, what is wrong, and where. */
export interface Finding {
  rule: string;
  message: string;
  location: string;
  flag: "fatal" | "warning";
}

export interface SemInvoice {
  syntax: "ubl" | "cii";
  document: "invoice" | "credit_note";
  at: string;
  customization?: Field;
  profile?: Field;
  number?: Field;
  issueDate?: Field;
  typeCode?: Field;
  currency?: Field;
  taxCurrency?: Field;
  dueDate?: Field;
  taxPointDate?: Field;
  taxPointCode?: Field;
  buyerReference?: Field;
  orderReference?: Field;
  paymentTerms?: Field;
  notes: { at: string; text?: Field; subject?: Field }[];
  preceding: { at: string; number?: Field; date?: Field }[];
  /**
   * BG-24: supporting documents, with the file name of an attached one; `content` is the attached
   * file's base64 text and `mime` its media type (BT-125), for the readable copy's attachments.
   */
  documents: {
    at: string;
    id?: Field;
    /** BT-18-1: the scheme of an invoiced object identifier (UBL schemeID, CII ReferenceTypeCode). */
    scheme?: Field;
    filename?: Field;
    typeCode?: Field;
    description?: Field;
    /** BT-124: where an external document is. */
    uri?: Field;
    mime?: string;
    content?: string;
  }[];
  /** BT-15 receiving advice, BT-16 despatch advice, BT-17 tender or lot (UBL): read for the readable copy. */
  receivingAdvice?: Field;
  despatchAdvice?: Field;
  tenderReference?: Field;
  /** BG-DEX-09 (XRechnung's extension, UBL): third party payments, each BT-DEX-001..003. */
  thirdPartyPayments: { at: string; type?: Field; amount?: Field; description?: Field }[];
  /** BT-12, BT-11, BT-14, BT-83: read for the readable copy; no rule needs them. */
  contractReference?: Field;
  projectReference?: Field;
  /** CII: the project's name beside its reference (read for the readable copy). */
  projectName?: Field;
  /** BT-19: the buyer's accounting reference. */
  accountingReference?: Field;
  salesOrderReference?: Field;
  paymentReference?: Field;
  /** BT-90: the bank assigned creditor identifier. */
  creditorId?: Field;
  seller?: SemParty;
  buyer?: SemParty;
  payee?: SemParty;
  taxRepresentative?: SemParty;
  delivery?: { at: string; date?: Field; name?: Field; locationId?: Field; address?: SemAddress };
  period?: SemPeriod;
  paymentMeans: SemPaymentMeans[];
  allowances: SemAllowanceCharge[];
  charges: SemAllowanceCharge[];
  vat: SemVatBreakdown[];
  /** BT-110 and BT-111: the invoice's tax totals, each with its currency. */
  taxTotals: Field[];
  /** UBL: how many tax totals come without a VAT breakdown (the one in accounting currency, BT-111). */
  bareTaxTotals: number;
  /** UBL: how many tax totals carry a VAT breakdown. */
  breakdownTaxTotals: number;
  totals?: SemTotals;
  lines: SemLine[];
  /** What the reader found that the XML Schema or the syntax rules refuse. */
  syntaxFindings: Finding[];
  /** Where the document has an element with neither children nor text (XML input only). */
  emptyElements: string[];
  /** Every amount that names its currency (currencyID), BT-111 aside (XML input only). */
  amounts: Field[];
}

/** A field with a value (present and not blank). */
export const has = (f: Field | undefined): f is Field => f !== undefined && f.v !== "";

/** A new, empty invoice of this syntax. */
export function emptyInvoice(syntax: SemInvoice["syntax"], document: SemInvoice["document"], at: string): SemInvoice {
  return {
    syntax,
    document,
    at,
    notes: [],
    preceding: [],
    documents: [],
    thirdPartyPayments: [],
    paymentMeans: [],
    allowances: [],
    charges: [],
    vat: [],
    taxTotals: [],
    bareTaxTotals: 0,
    breakdownTaxTotals: 0,
    lines: [],
    syntaxFindings: [],
    emptyElements: [],
    amounts: [],
  };
}
