// The JSON model (model.ts) as the EN 16931 semantic model (semantic.ts), so that the outgoing check
// runs the very rules (rules/*.ts) the incoming check runs. Each value's `at` is its JSON path inside
// the invoice ("lines.0.vat.rate"); a group's `at` is the group's path. The invoice is read as the
// writers will write it: the computed figures (line net amounts, VAT breakdown, totals) and the
// defaults (a missing rate of a taxed category is 0) are what the XML carries, the rest is the client's.

import type { EInvoiceFigures } from "./business-rules";
import { type Dec, format } from "./decimal";
import type { EInvoiceTarget } from "./formats";
import type { EInvoiceModel } from "./model";
import {
  emptyInvoice,
  type Field,
  type SemAddress,
  type SemAllowanceCharge,
  type SemInvoice,
  type SemParty,
  type SemTax,
} from "./semantic";

const f = (v: string | number | undefined, at: string, attrs: Record<string, string> = {}): Field | undefined =>
  v === undefined ? undefined : { v: String(v), at, attrs };
const amount = (d: Dec, at: string, attrs: Record<string, string> = {}): Field => ({ v: format(d, 2), at, attrs });

type Address = EInvoiceModel["seller"]["address"];
type Party = EInvoiceModel["seller"] & { tax_registration_id?: string };
type Vat = { category: string; rate?: string | number };
type AC = {
  amount: string | number;
  base_amount?: string | number;
  percent?: string | number;
  reason?: string;
  reason_code?: string;
  vat?: Vat;
};

function address(a: Address | undefined, at: string): SemAddress | undefined {
  if (!a) return undefined;
  return {
    at,
    line1: f(a.line1, `${at}.line1`),
    line2: f(a.line2, `${at}.line2`),
    line3: f(a.line3, `${at}.line3`),
    city: f(a.city, `${at}.city`),
    postcode: f(a.postal_code, `${at}.postal_code`),
    subdivision: f(a.country_subdivision, `${at}.country_subdivision`),
    country: f(a.country_code, `${at}.country_code`),
  };
}

function party(p: Party, at: string, creditorId?: string): SemParty {
  const e = p.electronic_address;
  return {
    at,
    name: f(p.name, `${at}.name`),
    tradingName: f(p.trading_name, `${at}.trading_name`),
    ids: creditorId === undefined ? [] : [{ v: creditorId, at: "payment.creditor_id", attrs: { schemeID: "SEPA" } }],
    legalId: f(p.legal_registration_id, `${at}.legal_registration_id`),
    vatId: f(p.vat_id, `${at}.vat_id`),
    taxRegId: f(p.tax_registration_id, `${at}.tax_registration_id`),
    endpoint: e && { v: e.value, at: `${at}.electronic_address.value`, attrs: { schemeID: e.scheme } },
    address: address(p.address, `${at}.address`),
    contact: p.contact && {
      at: `${at}.contact`,
      name: f(p.contact.name, `${at}.contact.name`),
      phone: f(p.contact.phone, `${at}.contact.phone`),
      email: f(p.contact.email, `${at}.contact.email`),
    },
  };
}

/** A VAT category and rate as written: a taxed category without a rate is written with 0. */
function tax(v: Vat, at: string): SemTax {
  const rate = v.rate ?? (v.category === "O" ? undefined : "0");
  return {
    at,
    category: f(v.category, `${at}.category`),
    rate: f(rate, `${at}.rate`),
    scheme: { v: "VAT", at, attrs: {} },
  };
}

function allowanceCharge(ac: AC, at: string, charge: boolean): SemAllowanceCharge {
  return {
    at,
    charge,
    indicator: { v: String(charge), at, attrs: {} },
    amount: f(ac.amount, `${at}.amount`),
    base: f(ac.base_amount, `${at}.base_amount`),
    percent: f(ac.percent, `${at}.percent`),
    reason: f(ac.reason, `${at}.reason`),
    reasonCode: f(ac.reason_code, `${at}.reason_code`),
    tax: ac.vat && tax(ac.vat, `${at}.vat`),
  };
}

const period = (p: { start?: string; end?: string } | undefined, at: string) =>
  p && { at, start: f(p.start, `${at}.start`), end: f(p.end, `${at}.end`) };

/** The invoice as the semantic model: what the writers write for `target`, each value at its JSON path. */
export function semanticOf(inv: EInvoiceModel, figures: EInvoiceFigures, target: EInvoiceTarget): SemInvoice {
  const typeCode = inv.type_code ?? "380";
  const s = emptyInvoice(target.syntax, typeCode === "381" && target.syntax === "ubl" ? "credit_note" : "invoice", "");
  const cur = { currencyID: inv.currency };
  s.customization = { v: target.customization, at: "", attrs: {} };
  if (target.process) s.profile = { v: target.process, at: "", attrs: {} };
  s.number = f(inv.number, "number");
  s.issueDate = f(inv.issue_date, "issue_date");
  s.typeCode = f(typeCode, "type_code");
  s.currency = f(inv.currency, "currency");
  s.dueDate = f(inv.due_date, "due_date");
  s.buyerReference = f(inv.buyer_reference, "buyer_reference");
  s.orderReference = f(inv.order_reference, "order_reference");
  s.paymentTerms =
    inv.payment_terms === undefined ? undefined : { v: inv.payment_terms.trim(), raw: inv.payment_terms, at: "payment_terms", attrs: {} };
  s.notes = (inv.notes ?? []).map((n, i) => ({
    at: `notes.${i}`,
    text: f(n.text, `notes.${i}.text`),
    subject: f(n.subject_code, `notes.${i}.subject_code`),
  }));
  if (inv.preceding_invoice)
    s.preceding = [
      {
        at: "preceding_invoice",
        number: f(inv.preceding_invoice.number, "preceding_invoice.number"),
        date: f(inv.preceding_invoice.issue_date, "preceding_invoice.issue_date"),
      },
    ];
  const p = inv.payment;
  s.seller = party(inv.seller, "seller", p?.creditor_id);
  s.creditorId = f(p?.creditor_id, "payment.creditor_id");
  s.buyer = party(inv.buyer, "buyer");
  const d = inv.delivery;
  if (d)
    s.delivery = {
      at: "delivery",
      date: f(d.date, "delivery.date"),
      name: f(d.ship_to_name, "delivery.ship_to_name"),
      address: address(d.ship_to_address, "delivery.ship_to_address"),
    };
  s.period = period(inv.billing_period, "billing_period");
  if (p)
    s.paymentMeans = [
      {
        at: "payment",
        code: f(p.means_code, "payment.means_code"),
        text: f(p.means_text, "payment.means_text"),
        transfers:
          p.iban === undefined
            ? []
            : [
                {
                  at: "payment",
                  account: f(p.iban.replaceAll(" ", ""), "payment.iban"),
                  name: f(p.account_name, "payment.account_name"),
                  bic: f(p.bic, "payment.bic"),
                },
              ],
        mandate: f(p.mandate_reference, "payment.mandate_reference"),
        debitedAccount: f(p.debited_account?.replaceAll(" ", ""), "payment.debited_account"),
      },
    ];
  s.allowances = (inv.allowances ?? []).map((a, i) => allowanceCharge(a, `allowances.${i}`, false));
  s.charges = (inv.charges ?? []).map((c, i) => allowanceCharge(c, `charges.${i}`, true));
  // The breakdown is computed; a group the client sent an entry for is found at that entry.
  const entries = inv.vat_breakdown ?? [];
  s.vat = figures.vatBreakdown.map((g) => {
    const i = entries.findIndex((e) => e.category === g.category && (g.rate === undefined || format(g.rate) === String(e.rate ?? "0")));
    const at = i < 0 ? "vat_breakdown" : `vat_breakdown.${i}`;
    const given = i < 0 ? undefined : entries[i];
    return {
      at,
      category: { v: g.category, at: `${at}.category`, attrs: {} },
      rate: g.rate === undefined ? undefined : { v: format(g.rate), at: `${at}.rate`, attrs: {} },
      taxable: amount(g.taxable, `${at}.taxable_amount`),
      tax: amount(g.tax, `${at}.tax_amount`),
      reason: f(g.exemptionReason, given?.exemption_reason === undefined ? at : `${at}.exemption_reason`),
      reasonCode: f(g.exemptionReasonCode, given?.exemption_reason_code === undefined ? at : `${at}.exemption_reason_code`),
    };
  });
  s.taxTotals = [amount(figures.taxTotal, "totals.tax_total", cur)];
  s.breakdownTaxTotals = 1;
  const hasAllowances = s.allowances.length > 0;
  const hasCharges = s.charges.length > 0;
  const t = inv.totals;
  s.totals = {
    at: "totals",
    lineTotal: amount(figures.lineTotal, "totals.line_total"),
    allowanceTotal: hasAllowances ? amount(figures.allowanceTotal, "totals.allowance_total") : undefined,
    chargeTotal: hasCharges ? amount(figures.chargeTotal, "totals.charge_total") : undefined,
    taxBasis: amount(figures.taxBasisTotal, "totals.tax_basis_total"),
    grand: amount(figures.grandTotal, "totals.grand_total"),
    prepaid: t?.prepaid === undefined ? undefined : amount(figures.prepaid, "totals.prepaid"),
    rounding: t?.rounding === undefined ? undefined : amount(figures.rounding, "totals.rounding"),
    due: amount(figures.duePayable, "totals.due_payable"),
  };
  s.lines = inv.lines.map((l, i) => {
    const at = `lines.${i}`;
    return {
      at,
      id: f(l.id, `${at}.id`),
      note: f(l.note, `${at}.note`),
      quantity: f(l.quantity, `${at}.quantity`),
      unit: f(l.unit_code, `${at}.unit_code`),
      net: amount(figures.lineNet[i]!, `${at}.net_amount`),
      price: f(l.net_price, `${at}.net_price`),
      priceAt: `${at}.net_price`,
      priceDiscountIndicator: l.gross_price === undefined ? undefined : { v: "false", at: `${at}.price_discount`, attrs: {} },
      priceBaseQuantity: f(l.base_quantity, `${at}.base_quantity`, { unitCode: l.unit_code }),
      gross: f(l.gross_price, `${at}.gross_price`),
      priceDiscount: f(l.price_discount, `${at}.price_discount`),
      name: f(l.name, `${at}.name`),
      tax: tax(l.vat, `${at}.vat`),
      period: period(l.period, `${at}.period`),
      allowances: (l.allowances ?? []).map((a, j) => allowanceCharge(a, `${at}.allowances.${j}`, false)),
      charges: (l.charges ?? []).map((c, j) => allowanceCharge(c, `${at}.charges.${j}`, true)),
      classifications: [],
      attributes: [],
    };
  });
  return s;
}
