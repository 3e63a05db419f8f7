// The JSON model of an EN 16931 invoice (options.e_invoice): the business terms (BT-n) and groups
// (BG-n) of the semantic model, in the API's snake_case, as a TypeBox schema that lands in the OpenAPI
// document. Totals and the VAT breakdown are computed from the lines (check.ts); a client may send them
// too, and they are then checked against the computed figures (BR-CO-10 to BR-CO-16).

import type { Static, TProperties } from "@sinclair/typebox";
import { t } from "elysia";
import { nameOption } from "../http/openapi-names";
import { oneOf } from "../http/schema";

/**
 * A decimal, as a string ("1436.50") or a JSON number (1436.5). Numbers are read by their shortest
 * decimal text and computed exactly, never in binary floating point; a string is the safest form.
 */
const decimal = (description: string, examples: (string | number)[] = ["19.99"]) =>
  t.Union([t.String({ pattern: "^-?\\d{1,18}(\\.\\d{1,12})?$", maxLength: 31 }), t.Number()], {
    description: `${description}. A decimal: a string such as "19.99" (recommended) or a JSON number`,
    error: 'must be a decimal: a string such as "19.99" or a JSON number',
    examples,
  });
/** An amount: at most 2 decimals (the BR-DEC rules). */
const amount = (description: string) => decimal(`${description}; at most 2 decimals`, ["119.00"]);

const text = (maxLength: number, description: string) => t.String({ minLength: 1, maxLength, description });
const date = (description: string) =>
  t.String({
    pattern: "^\\d{4}-\\d{2}-\\d{2}$",
    error: "must be a date YYYY-MM-DD",
    description: `${description} (YYYY-MM-DD)`,
    examples: ["2025-01-31"],
  });
const code = (pattern: string, description: string, examples: string[]) =>
  t.String({ pattern, error: `must match ${pattern}`, description, examples });

const countryCode = code("^[A-Z]{2}$", "ISO 3166-1 alpha-2 country code", ["DE"]);

/** The VAT categories supported (UNTDID 5305): their rules are checked (BR-S-*, BR-Z-*, …). */
export const vatCategories = ["S", "Z", "E", "AE", "K", "G", "O"] as const;
export type VatCategory = (typeof vatCategories)[number];

const vat = (what: string) =>
  t.Object(
    {
      category: oneOf(vatCategories, {
        description:
          "VAT category code: S standard rate, Z zero rated, E exempt, AE reverse charge, K intra-community supply, G export outside the EU, O not subject to VAT",
      }),
      rate: t.Optional(decimal("VAT rate in percent: above 0 for S, 0 for Z, E, AE, K and G (0 when absent), absent for O", ["19"])),
    },
    { additionalProperties: false, description: `VAT category and rate of the ${what}` },
  );

const addressOf = (description: string) =>
  t.Object(
    {
      line1: t.Optional(text(200, "Address line 1 (BT-35 / BT-50 / BT-75)")),
      line2: t.Optional(text(200, "Address line 2")),
      line3: t.Optional(text(200, "Address line 3")),
      city: t.Optional(text(100, "City (BT-37 / BT-52 / BT-77)")),
      postal_code: t.Optional(text(20, "Post code (BT-38 / BT-53 / BT-78)")),
      country_subdivision: t.Optional(text(100, "Country subdivision (region, state)")),
      country_code: countryCode,
    },
    { additionalProperties: false, description },
  );

const electronicAddress = t.Object(
  {
    scheme: code(
      "^[0-9A-Z]{2,4}$",
      "Electronic address scheme (EAS code list), e.g. EM for e-mail, 0088 for GLN, 9930 for a German VAT id",
      ["EM"],
    ),
    value: text(200, "The electronic address"),
  },
  {
    additionalProperties: false,
    description:
      "Electronic address: the seller's (BT-34) or the buyer's (BT-49), and its scheme (BR-62, BR-63). XRechnung and Peppol require both (PEPPOL-EN16931-R020, R010)",
  },
);

const contact = t.Object(
  {
    name: t.Optional(text(200, "Contact person or department")),
    phone: t.Optional(text(50, "Telephone")),
    email: t.Optional(text(200, "E-mail address")),
  },
  {
    additionalProperties: false,
    description:
      "Contact: the seller contact (BG-6: BT-41 name, BT-42 phone, BT-43 e-mail; XRechnung requires all three, BR-DE-2, 5, 6, 7) or the buyer contact (BG-9)",
  },
);

const party = <Extra extends TProperties>(who: "Seller" | "Buyer", extra: Extra) =>
  t.Object(
    {
      name: text(200, `${who} name (${who === "Seller" ? "BT-27, BR-06" : "BT-44, BR-07"})`),
      trading_name: t.Optional(text(200, `${who} trading name (${who === "Seller" ? "BT-28" : "BT-45"})`)),
      legal_registration_id: t.Optional(
        text(100, `${who} legal registration identifier, e.g. the trade register number (${who === "Seller" ? "BT-30" : "BT-47"})`),
      ),
      vat_id: t.Optional(
        code(
          "^[A-Z]{2}[0-9A-Za-z+*.]{2,30}$",
          `${who} VAT identifier with its country prefix (${who === "Seller" ? "BT-31" : "BT-48"}, BR-CO-09)`,
          ["DE123456789"],
        ),
      ),
      ...extra,
      address: addressOf(
        `${who} postal address (${who === "Seller" ? "BG-5, BR-08" : "BG-8, BR-10"}); country_code is required (${who === "Seller" ? "BR-09" : "BR-11"})`,
      ),
      electronic_address: t.Optional(electronicAddress),
      contact: t.Optional(contact),
    },
    { additionalProperties: false, description: `The ${who.toLowerCase()} (${who === "Seller" ? "BG-4" : "BG-7"})` },
  );

const reasons = {
  reason: t.Optional(text(500, "Reason, as text")),
  reason_code: t.Optional(
    code("^[0-9A-Z]{1,3}$", "Reason code: UNTDID 5189 for allowances (e.g. 95 discount), UNTDID 7161 for charges (e.g. FC freight)", [
      "95",
    ]),
  ),
};

const lineAllowanceCharge = (what: "allowance" | "charge") =>
  t.Object(
    {
      amount: amount(`Line ${what} amount, without VAT (${what === "allowance" ? "BT-136" : "BT-141"})`),
      base_amount: t.Optional(amount(`Base amount the percentage applies to (${what === "allowance" ? "BT-137" : "BT-142"})`)),
      percent: t.Optional(decimal(`Percentage (${what === "allowance" ? "BT-138" : "BT-143"})`, ["10"])),
      ...reasons,
    },
    {
      additionalProperties: false,
      description: `An invoice line ${what} (${what === "allowance" ? "BG-27" : "BG-28"}): a reason or a reason code is required (${what === "allowance" ? "BR-42" : "BR-44"})`,
    },
  );

const documentAllowanceCharge = (what: "allowance" | "charge") =>
  t.Object(
    {
      amount: amount(`Document level ${what} amount, without VAT (${what === "allowance" ? "BT-92" : "BT-99"})`),
      base_amount: t.Optional(amount(`Base amount the percentage applies to (${what === "allowance" ? "BT-93" : "BT-100"})`)),
      percent: t.Optional(decimal(`Percentage (${what === "allowance" ? "BT-94" : "BT-101"})`, ["10"])),
      ...reasons,
      vat: vat(`${what} (${what === "allowance" ? "BT-95, BT-96" : "BT-102, BT-103"})`),
    },
    {
      additionalProperties: false,
      description: `A document level ${what} (${what === "allowance" ? "BG-20" : "BG-21"}): a reason or a reason code is required (${what === "allowance" ? "BR-33" : "BR-38"})`,
    },
  );

const period = t.Object(
  { start: t.Optional(date("Start date (BT-73 / BT-134)")), end: t.Optional(date("End date (BT-74 / BT-135)")) },
  {
    additionalProperties: false,
    description: "A period (BG-14 of the invoice, BG-26 of a line): start, end or both, the end not before the start",
  },
);

const line = t.Object(
  {
    id: t.Optional(text(50, "Line identifier (BT-126); default: the line's position, 1, 2, …")),
    note: t.Optional(text(1000, "Line note (BT-127)")),
    name: text(300, "Item name (BT-153, BR-25)"),
    description: t.Optional(text(2000, "Item description (BT-154)")),
    seller_item_id: t.Optional(text(100, "Seller's item identifier (BT-155)")),
    buyer_item_id: t.Optional(text(100, "Buyer's item identifier (BT-156)")),
    quantity: decimal("Invoiced quantity (BT-129, BR-22); negative on a return", ["2"]),
    unit_code: code(
      "^[0-9A-Z]{1,3}$",
      "Unit of measure, UN/ECE Recommendation 20 (BT-130, BR-23): C62 one, H87 piece, HUR hour, KGM kilogram",
      ["C62"],
    ),
    net_price: decimal("Item net price, without VAT, after the price discount (BT-146, BR-26); not negative (BR-27)", ["50.00"]),
    base_quantity: t.Optional(decimal("Number of units the price is for (BT-149); default 1", ["1"])),
    gross_price: t.Optional(decimal("Item gross price before the price discount (BT-148); not negative (BR-28)", ["55.00"])),
    price_discount: t.Optional(decimal("Discount per unit included in net_price (BT-147)", ["5.00"])),
    vat: vat("line (BT-151, BT-152; BR-CO-04)"),
    period: t.Optional(period),
    allowances: t.Optional(t.Array(lineAllowanceCharge("allowance"), { maxItems: 100 })),
    charges: t.Optional(t.Array(lineAllowanceCharge("charge"), { maxItems: 100 })),
    net_amount: t.Optional(
      amount(
        "Line net amount (BT-131): quantity × net_price / base_quantity + charges − allowances, rounded to 2 decimals. Computed; checked when sent",
      ),
    ),
    order_line_reference: t.Optional(text(50, "Referenced purchase order line (BT-132)")),
    accounting_reference: t.Optional(text(100, "Buyer accounting reference (BT-133)")),
  },
  { additionalProperties: false, description: "An invoice line (BG-25)" },
);

const vatBreakdownEntry = t.Object(
  {
    category: vat("breakdown").properties.category,
    rate: t.Optional(decimal("VAT category rate (BT-119); absent for O", ["19"])),
    taxable_amount: t.Optional(amount("VAT category taxable amount (BT-116): computed; checked when sent (BR-S-08 …)")),
    tax_amount: t.Optional(amount("VAT category tax amount (BT-117): computed; checked when sent (BR-CO-17, BR-S-09 …)")),
    exemption_reason: t.Optional(text(1000, "VAT exemption reason text (BT-120): required for E unless a code is given (BR-E-10)")),
    exemption_reason_code: t.Optional(
      code("^VATEX-[A-Z0-9-]+$", "VAT exemption reason code, VATEX list (BT-121), e.g. VATEX-EU-132-1A", ["VATEX-EU-AE"]),
    ),
  },
  { additionalProperties: false, description: "One VAT breakdown group (BG-23), matched by category and rate" },
);

const totals = t.Object(
  {
    line_total: t.Optional(amount("Sum of line net amounts (BT-106, BR-CO-10)")),
    allowance_total: t.Optional(amount("Sum of document level allowances (BT-107, BR-CO-11)")),
    charge_total: t.Optional(amount("Sum of document level charges (BT-108, BR-CO-12)")),
    tax_basis_total: t.Optional(amount("Invoice total without VAT (BT-109, BR-CO-13)")),
    tax_total: t.Optional(amount("Invoice total VAT amount (BT-110, BR-CO-14)")),
    grand_total: t.Optional(amount("Invoice total with VAT (BT-112, BR-CO-15)")),
    prepaid: t.Optional(amount("Paid amount (BT-113); default 0")),
    rounding: t.Optional(amount("Rounding amount (BT-114); default 0")),
    due_payable: t.Optional(amount("Amount due for payment (BT-115, BR-CO-16)")),
  },
  {
    additionalProperties: false,
    description:
      "Document totals (BG-22). All are computed from the lines, allowances and charges; prepaid and rounding are inputs. A total that is sent is checked against the computed one",
  },
);

const payment = t.Object(
  {
    means_code: code(
      "^[0-9]{1,2}$|^ZZZ$",
      "Payment means, UNTDID 4461 (BT-81): 30 credit transfer, 58 SEPA credit transfer, 59 SEPA direct debit",
      ["58"],
    ),
    means_text: t.Optional(text(200, "Payment means text (BT-82)")),
    reference: t.Optional(text(140, "Remittance information to quote with the payment (BT-83)")),
    iban: t.Optional(
      code("^[A-Z]{2}[0-9A-Z ]{2,40}$", "Payee account: IBAN (BT-84); required for means 30 and 58 (BR-61)", ["DE02120300000000202051"]),
    ),
    account_name: t.Optional(text(200, "Payment account name (BT-85)")),
    bic: t.Optional(code("^[A-Z0-9]{8}([A-Z0-9]{3})?$", "Payment service provider: BIC (BT-86)", ["BYLADEM1001"])),
    mandate_reference: t.Optional(
      text(100, "Direct debit (BG-19): the mandate reference (BT-89); required for means 59 by Peppol (PEPPOL-EN16931-R061) and XRechnung"),
    ),
    creditor_id: t.Optional(text(100, "Direct debit (BG-19): the seller's bank assigned creditor identifier (BT-90)")),
    debited_account: t.Optional(
      code("^[A-Z]{2}[0-9A-Z ]{2,40}$", "Direct debit (BG-19): the buyer's debited account, an IBAN (BT-91)", ["DE75512108001245126199"]),
    ),
  },
  {
    additionalProperties: false,
    description:
      "Payment instructions (BG-16): the means, the credit transfer account (BG-17) or the direct debit (BG-19). XRechnung requires them (BR-DE-1)",
  },
);

/** The invoice: EN 16931's business terms. */
export const eInvoiceModelSchema = t.Object(
  {
    number: text(100, "Invoice number (BT-1, BR-02)"),
    issue_date: date("Invoice issue date (BT-2, BR-03)"),
    type_code: t.Optional(
      oneOf(["380", "381", "384", "389", "326", "386"], {
        description:
          "Invoice type code, UNTDID 1001 (BT-3, BR-04): 380 commercial invoice (default), 381 credit note, 384 corrected invoice, 389 self-billed invoice, 326 partial invoice, 386 prepayment invoice",
      }),
    ),
    currency: code("^[A-Z]{3}$", "Invoice currency, ISO 4217 (BT-5, BR-05)", ["EUR"]),
    notes: t.Optional(
      t.Array(
        t.Object(
          {
            text: text(5000, "Invoice note (BT-22)"),
            subject_code: t.Optional(code("^[A-Z]{3}$", "Subject of the note, UNTDID 4451 (BT-21), e.g. AAI general information", ["AAI"])),
          },
          { additionalProperties: false },
        ),
        { maxItems: 50, description: "Invoice notes (BG-1)" },
      ),
    ),
    buyer_reference: t.Optional(
      text(
        200,
        "Buyer reference (BT-10), e.g. the Leitweg-ID of a German public buyer. XRechnung requires it (BR-DE-15); Peppol requires it or order_reference (PEPPOL-EN16931-R003)",
      ),
    ),
    order_reference: t.Optional(text(200, "Purchase order reference (BT-13)")),
    sales_order_reference: t.Optional(text(200, "Sales order reference (BT-14)")),
    contract_reference: t.Optional(text(200, "Contract reference (BT-12)")),
    project_reference: t.Optional(text(200, "Project reference (BT-11)")),
    preceding_invoice: t.Optional(
      t.Object(
        { number: text(100, "Preceding invoice number (BT-25)"), issue_date: t.Optional(date("Its issue date (BT-26)")) },
        { additionalProperties: false, description: "The invoice this one corrects or credits (BG-3)" },
      ),
    ),
    seller: party("Seller", {
      tax_registration_id: t.Optional(text(100, "Seller tax registration identifier, the local tax number (BT-32)")),
    }),
    buyer: party("Buyer", {}),
    delivery: t.Optional(
      t.Object(
        {
          date: t.Optional(date("Actual delivery date (BT-72)")),
          ship_to_name: t.Optional(text(200, "Deliver to party name (BT-70)")),
          ship_to_address: t.Optional(addressOf("Deliver to address (BG-15); country_code is required (BR-57)")),
        },
        { additionalProperties: false, description: "Delivery information (BG-13)" },
      ),
    ),
    billing_period: t.Optional(period),
    due_date: t.Optional(date("Payment due date (BT-9); this or payment_terms is required when an amount is due (BR-CO-25)")),
    payment_terms: t.Optional(text(2000, "Payment terms (BT-20)")),
    payment: t.Optional(payment),
    lines: t.Array(line, { minItems: 1, maxItems: 10_000, description: "Invoice lines (BG-25): at least one (BR-16)" }),
    allowances: t.Optional(
      t.Array(documentAllowanceCharge("allowance"), { maxItems: 100, description: "Document level allowances (BG-20)" }),
    ),
    charges: t.Optional(t.Array(documentAllowanceCharge("charge"), { maxItems: 100, description: "Document level charges (BG-21)" })),
    vat_breakdown: t.Optional(
      t.Array(vatBreakdownEntry, {
        maxItems: 50,
        description:
          "VAT breakdown (BG-23): computed per category and rate from the lines, allowances and charges. Send entries to give exemption reasons (required for E) or to have your figures checked",
      }),
    ),
    totals: t.Optional(totals),
  },
  { additionalProperties: false, description: "The invoice: EN 16931's business terms (BT-n), groups (BG-n)", ...nameOption("Invoice") },
);

/** The formats reportgen writes from the JSON model (options.e_invoice.format). */
export const eInvoiceFormats = ["facturx", "xrechnung", "peppol", "ubl"] as const;
export type EInvoiceFormat = (typeof eInvoiceFormats)[number];

/** The Factur-X / ZUGFeRD profiles a request may ask for, as the API spells them. */
export const modelProfiles = ["minimum", "basic-wl", "basic", "en16931", "extended", "xrechnung"] as const;
export type ModelProfile = (typeof modelProfiles)[number];

/** options.e_invoice: an invoice to write in one of the formats, or the customer's own CII XML. */
export const eInvoiceSchema = t.Union(
  [
    t.Object(
      {
        format: t.Optional(
          oneOf(eInvoiceFormats, {
            description:
              "facturx (default): a Factur-X / ZUGFeRD hybrid, the CII XML in a PDF/A-3b; xrechnung: XRechnung 3.0, the German CIUS, as XML (syntax ubl or cii); peppol: Peppol BIS Billing 3.0 (UBL); ubl: plain EN 16931 UBL 2.1. The XML-only formats still print the readable PDF; GET /reports/{id}/e-invoice serves the XML",
          }),
        ),
        profile: t.Optional(
          oneOf(modelProfiles, {
            description:
              "facturx only: the Factur-X / ZUGFeRD profile, minimum, basic-wl, basic, en16931 (default), extended, or xrechnung (the CII XRechnung embedded as xrechnung.xml)",
          }),
        ),
        syntax: t.Optional(oneOf(["ubl", "cii"], { description: "xrechnung only: UBL 2.1 (default) or UN/CEFACT CII D16B" })),
        embed: t.Optional(
          t.Boolean({
            description:
              "xrechnung, peppol and ubl: also attach the XML to the PDF, made PDF/A-3b (an XRechnung so attached is ZUGFeRD's XRECHNUNG profile). Default false",
          }),
        ),
        invoice: eInvoiceModelSchema,
      },
      { additionalProperties: false, title: "EInvoiceFromModel", description: "reportgen writes the XML from this invoice" },
    ),
    t.Object(
      {
        xml_base64: t.String({
          minLength: 4,
          maxLength: 14_000_000,
          description:
            "Your own UN/CEFACT CII D16B XML (root rsm:CrossIndustryInvoice), base64-encoded: checked to be well-formed with that root, and embedded as it is",
        }),
      },
      { additionalProperties: false, title: "EInvoiceFromXml", description: "The CII XML is yours, embedded as it is" },
    ),
  ],
  { description: "An e-invoice: Factur-X / ZUGFeRD, XRechnung, Peppol BIS or UBL (docs/e-invoices.md)", ...nameOption("EInvoice") },
);

export type EInvoiceModel = Static<typeof eInvoiceModelSchema>;
export type EInvoiceInput = Static<typeof eInvoiceSchema>;
export type EInvoiceLine = EInvoiceModel["lines"][number];

/** What the PDF and the dashboard show of an e-invoice: its number, total and currency. */
export interface EInvoiceSummary {
  number: string;
  currency: string;
  grand_total: string;
  due_payable?: string;
}
