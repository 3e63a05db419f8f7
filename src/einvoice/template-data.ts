// The invoice as an EJS template sees it (the `e_invoice` variable): the checked invoice with every
// figure reportgen computed filled in as decimal text. It is made from the same CheckedEInvoice the CII
// writer turns into factur-x.xml, so the printed totals and the XML come from the same numbers.

import type { CheckedEInvoice, VatGroup } from "./check";
import { format } from "./decimal";
import type { EInvoiceLine, EInvoiceModel, VatCategory } from "./model";

/** One group of the VAT breakdown (BG-23) as the template sees it. */
export interface TemplateVatGroup {
  category: VatCategory;
  /** The rate as decimal text ("19", "7.5"); absent for O (not subject to VAT). */
  rate?: string;
  taxable_amount: string;
  tax_amount: string;
  exemption_reason?: string;
  exemption_reason_code?: string;
}

/** The totals (BG-22) as decimal text with 2 decimals. */
export interface TemplateTotals {
  line_total: string;
  allowance_total: string;
  charge_total: string;
  tax_basis_total: string;
  tax_total: string;
  grand_total: string;
  prepaid: string;
  rounding: string;
  due_payable: string;
}

/**
 * The `e_invoice` template variable: the invoice as sent (type_code and line ids defaulted), with
 * lines[].net_amount, vat_breakdown[] and totals replaced by the computed figures (decimal strings).
 */
export type EInvoiceTemplateData = Omit<EInvoiceModel, "lines" | "vat_breakdown" | "totals"> & {
  /** facturx, xrechnung, peppol or ubl. */
  format: string;
  /** The Factur-X profile (facturx, or an attached XRechnung); absent for the XML-only formats. */
  profile?: string;
  lines: (EInvoiceLine & { net_amount: string })[];
  vat_breakdown: TemplateVatGroup[];
  totals: TemplateTotals;
};

const amount = (d: bigint) => format(d, 2);

function vatGroup(g: VatGroup): TemplateVatGroup {
  return {
    category: g.category,
    ...(g.rate === undefined ? {} : { rate: format(g.rate) }),
    taxable_amount: amount(g.taxable),
    tax_amount: amount(g.tax),
    ...(g.exemptionReason === undefined ? {} : { exemption_reason: g.exemptionReason }),
    ...(g.exemptionReasonCode === undefined ? {} : { exemption_reason_code: g.exemptionReasonCode }),
  };
}

/** The template's view of a checked JSON-model invoice (for the client's own XML there is none). */
export function templateInvoice(checked: Extract<CheckedEInvoice, { source: "model" }>): EInvoiceTemplateData {
  const { invoice: inv, figures: f } = checked;
  return {
    ...inv,
    format: checked.target.format,
    ...(checked.target.profile && { profile: checked.target.profile }),
    lines: inv.lines.map((l, i) => ({ ...l, net_amount: amount(f.lineNet[i]!) })),
    vat_breakdown: f.vatBreakdown.map(vatGroup),
    totals: {
      line_total: amount(f.lineTotal),
      allowance_total: amount(f.allowanceTotal),
      charge_total: amount(f.chargeTotal),
      tax_basis_total: amount(f.taxBasisTotal),
      tax_total: amount(f.taxTotal),
      grand_total: amount(f.grandTotal),
      prepaid: amount(f.prepaid),
      rounding: amount(f.rounding),
      due_payable: amount(f.duePayable),
    },
  };
}
