// The JSON model (model.ts) and its computed figures as the EN 16931 semantic model (semantic.ts), each
// value located by its JSON path, so that the outgoing check runs the very rules that check incoming
// XML (rules/*.ts). Computed terms (totals, VAT breakdown, line net amounts) are located at the JSON
// property that would carry them.
import type { EInvoiceFigures } from "./business-rules";
import { type Dec, format } from "./decimal";
import type { EInvoiceModel } from "./model";
import { emptyInvoice, type Field, type SemAddress, type SemAllowanceCharge, type SemInvoice, type SemParty } from "./semantic";

type Party = EInvoiceModel["seller"] & { tax_registration_id?: string };
type AC = NonNullable<EInvoiceModel["allowances"]>[number] | NonNullable<EInvoiceModel["lines"][number]["allowances"]>[number];

/** The semantic model of a checked JSON invoice; `guideline` is the specification identifier written (BT-24). */
export function semanticOfModel(inv: EInvoiceModel, f: EInvoiceFigures, prefix: string, guideline: string): SemInvoice {
  const at = (path: string) => (path ? `${prefix}.${path}` : prefix);
  const v = (value: string | number | undefined, path: string, attrs: Record<string, string> = {}): Field | undefined =>
    value === undefined ? undefined : { v: String(value), at: at(path), attrs };
  const amount = (d: Dec, path: string) => v(format(d, 2), path, { currencyID: inv.currency });
  const address = (a: EInvoiceModel["seller"]["address"] | undefined, path: string): SemAddress | undefined =>
    a && {
      at: at(path),
      line1: v(a.line1, `${path}.line1`),
      line2: v(a.line2, `${path}.line2`),
      line3: v(a.line3, `${path}.line3`),
      city: v(a.city, `${path}.city`),
      postcode: v(a.postal_code, `${path}.postal_code`),
      subdivision: v(a.country_subdivision, `${path}.country_subdivision`),
      country: v(a.country_code, `${path}.country_code`),
    };
  const party = (p: Party, path: string): SemParty => ({
    at: at(path),
    name: v(p.name, `${path}.name`),
    tradingName: v(p.trading_name, `${path}.trading_name`),
    ids: [],
    legalId: v(p.legal_registration_id, `${path}.legal_registration_id`),
    vatId: v(p.vat_id, `${path}.vat_id`),
    taxRegId: v(p.tax_registration_id, `${path}.tax_registration_id`),
    endpoint:
      p.electronic_address && v(p.electronic_address.value, `${path}.electronic_address`, { schemeID: p.electronic_address.scheme }),
    address: address(p.address, `${path}.address`),
    contact: p.contact && {
      at: at(`${path}.contact`),
      name: v(p.contact.name, `${path}.contact.name`),
      phone: v(p.contact.phone, `${path}.contact.phone`),
      email: v(p.contact.email, `${path}.contact.email`),
    },
  });
  const ac = (x: AC, path: string, charge: boolean): SemAllowanceCharge => ({
    at: at(path),
    charge,
    amount: v(x.amount, `${path}.amount`),
    base: v(x.base_amount, `${path}.base_amount`),
    percent: v(x.percent, `${path}.percent`),
    reason: v(x.reason, `${path}.reason`),
    reasonCode: v(x.reason_code, `${path}.reason_code`),
    tax:
      "vat" in x
        ? {
            at: at(`${path}.vat`),
            category: v(x.vat.category, `${path}.vat.category`),
            rate: v(x.vat.category === "O" ? undefined : (x.vat.rate ?? 0), `${path}.vat.rate`),
          }
        : undefined,
  });
  const s = emptyInvoice("cii", inv.type_code === "381" ? "credit_note" : "invoice", prefix);
  s.customization = { v: guideline, at: at("profile"), attrs: {} };
  s.number = v(inv.number, "number");
  s.issueDate = v(inv.issue_date, "issue_date");
  s.typeCode = v(inv.type_code ?? "380", "type_code");
  s.currency = v(inv.currency, "currency");
  s.dueDate = v(inv.due_date, "due_date");
  s.buyerReference = v(inv.buyer_reference, "buyer_reference");
  s.orderReference = v(inv.order_reference, "order_reference");
  s.paymentTerms = v(inv.payment_terms, "payment_terms");
  s.notes = (inv.notes ?? []).map((n, i) => ({
    at: at(`notes.${i}`),
    text: v(n.text, `notes.${i}.text`),
    subject: v(n.subject_code, `notes.${i}.subject_code`),
  }));
  if (inv.preceding_invoice) {
    s.preceding = [
      {
        at: at("preceding_invoice"),
        number: v(inv.preceding_invoice.number, "preceding_invoice.number"),
        date: v(inv.preceding_invoice.issue_date, "preceding_invoice.issue_date"),
      },
    ];
  }
  s.seller = party(inv.seller, "seller");
  s.buyer = party(inv.buyer, "buyer");
  if (inv.delivery) {
    s.delivery = {
      at: at("delivery"),
      date: v(inv.delivery.date, "delivery.date"),
      name: v(inv.delivery.ship_to_name, "delivery.ship_to_name"),
      address: address(inv.delivery.ship_to_address, "delivery.ship_to_address"),
    };
  }
  if (inv.billing_period)
    s.period = {
      at: at("billing_period"),
      start: v(inv.billing_period.start, "billing_period.start"),
      end: v(inv.billing_period.end, "billing_period.end"),
    };
  if (inv.payment) {
    const p = inv.payment;
    s.paymentMeans = [
      {
        at: at("payment"),
        code: v(p.means_code, "payment.means_code"),
        text: v(p.means_text, "payment.means_text"),
        transfers:
          p.iban === undefined && p.account_name === undefined
            ? []
            : [
                {
                  at: at("payment"),
                  account: v(p.iban, "payment.iban"),
                  name: v(p.account_name, "payment.account_name"),
                  bic: v(p.bic, "payment.bic"),
                },
              ],
      },
    ];
  }
  s.allowances = (inv.allowances ?? []).map((x, i) => ac(x, `allowances.${i}`, false));
  s.charges = (inv.charges ?? []).map((x, i) => ac(x, `charges.${i}`, true));
  s.vat = f.vatBreakdown.map((g) => {
    const i = (inv.vat_breakdown ?? []).findIndex((e) => e.category === g.category);
    const path = i >= 0 ? `vat_breakdown.${i}` : "vat_breakdown";
    return {
      at: at(path),
      category: v(g.category, `${path}.category`),
      rate: g.rate === undefined ? undefined : v(format(g.rate), `${path}.rate`),
      taxable: amount(g.taxable, `${path}.taxable_amount`),
      tax: amount(g.tax, `${path}.tax_amount`),
      reason: v(g.exemptionReason, `${path}.exemption_reason`),
      reasonCode: v(g.exemptionReasonCode, `${path}.exemption_reason_code`),
    };
  });
  s.taxTotals = [amount(f.taxTotal, "totals.tax_total")!];
  s.totals = {
    at: at("totals"),
    lineTotal: amount(f.lineTotal, "totals.line_total"),
    allowanceTotal: (inv.allowances?.length ?? 0) > 0 ? amount(f.allowanceTotal, "totals.allowance_total") : undefined,
    chargeTotal: (inv.charges?.length ?? 0) > 0 ? amount(f.chargeTotal, "totals.charge_total") : undefined,
    taxBasis: amount(f.taxBasisTotal, "totals.tax_basis_total"),
    grand: amount(f.grandTotal, "totals.grand_total"),
    prepaid: inv.totals?.prepaid === undefined ? undefined : amount(f.prepaid, "totals.prepaid"),
    rounding: inv.totals?.rounding === undefined ? undefined : amount(f.rounding, "totals.rounding"),
    due: amount(f.duePayable, "totals.due_payable"),
  };
  s.lines = inv.lines.map((l, i) => {
    const path = `lines.${i}`;
    return {
      at: at(path),
      id: v(l.id ?? String(i + 1), `${path}.id`),
      note: v(l.note, `${path}.note`),
      quantity: v(l.quantity, `${path}.quantity`),
      unit: v(l.unit_code, `${path}.unit_code`),
      net: amount(f.lineNet[i]!, `${path}.net_amount`),
      price: v(l.net_price, `${path}.net_price`),
      priceBaseQuantity: v(l.base_quantity, `${path}.base_quantity`),
      gross: v(l.gross_price, `${path}.gross_price`),
      priceDiscount: v(l.price_discount, `${path}.price_discount`),
      name: v(l.name, `${path}.name`),
      tax: {
        at: at(`${path}.vat`),
        category: v(l.vat.category, `${path}.vat.category`),
        rate: v(l.vat.category === "O" ? undefined : (l.vat.rate ?? 0), `${path}.vat.rate`),
      },
      period: l.period && {
        at: at(`${path}.period`),
        start: v(l.period.start, `${path}.period.start`),
        end: v(l.period.end, `${path}.period.end`),
      },
      allowances: (l.allowances ?? []).map((x, j) => ac(x, `${path}.allowances.${j}`, false)),
      charges: (l.charges ?? []).map((x, j) => ac(x, `${path}.charges.${j}`, true)),
      classifications: [],
      attributes: [],
    };
  });
  return s;
}
