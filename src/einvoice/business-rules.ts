// The figures of a well-shaped JSON invoice, computed exactly (decimal.ts): line net amounts, the VAT
// breakdown and the totals the XML and the template carry. What it checks is the input itself: a decimal
// it cannot read, a date that is no calendar date, and a figure the client sent that differs from the
// computed one (BR-CO-10 to BR-CO-17, BR-24, BR-x-08/09). EN 16931's rules proper are not here: the
// invoice as written is checked by the one rule set of rules/*.ts (check.ts), like an incoming one.
import { type Dec, div, format, int, mul, parseDec, round, sum, ZERO } from "./decimal";
import type { EInvoiceLine, EInvoiceModel, VatCategory } from "./model";
import type { EInvoiceViolation } from "./violations";

/** One group of the VAT breakdown (BG-23), computed. */
export interface VatGroup {
  category: VatCategory;
  /** Absent for O (not subject to VAT). */
  rate?: Dec;
  taxable: Dec;
  tax: Dec;
  exemptionReason?: string;
  exemptionReasonCode?: string;
}

/** The figures computed from the lines, allowances and charges: what the XML carries. */
export interface EInvoiceFigures {
  lineNet: Dec[];
  vatBreakdown: VatGroup[];
  lineTotal: Dec;
  allowanceTotal: Dec;
  chargeTotal: Dec;
  taxBasisTotal: Dec;
  taxTotal: Dec;
  grandTotal: Dec;
  prepaid: Dec;
  rounding: Dec;
  duePayable: Dec;
}

/** The exemption reason code EN 16931 asks for in these categories, written when the client gives none. */
const DEFAULT_EXEMPTION: Partial<Record<VatCategory, { code: string; text: string }>> = {
  AE: { code: "VATEX-EU-AE", text: "Reverse charge" },
  K: { code: "VATEX-EU-IC", text: "Intra-community supply" },
  G: { code: "VATEX-EU-G", text: "Export outside the EU" },
  O: { code: "VATEX-EU-O", text: "Not subject to VAT" },
};

/** The rule-id prefix of each category's rules; K's are BR-IC-* in the standard. */
const RULES: Record<VatCategory, string> = { S: "BR-S", Z: "BR-Z", E: "BR-E", AE: "BR-AE", K: "BR-IC", G: "BR-G", O: "BR-O" };

/** The BR-DEC rule limiting a figure the client sent (which the XML does not carry: the computed one goes there) to 2 decimals. */
const DECIMALS: [RegExp, string][] = [
  [/^totals\.line_total$/, "BR-DEC-09"],
  [/^totals\.allowance_total$/, "BR-DEC-10"],
  [/^totals\.charge_total$/, "BR-DEC-11"],
  [/^totals\.tax_basis_total$/, "BR-DEC-12"],
  [/^totals\.tax_total$/, "BR-DEC-13"],
  [/^totals\.grand_total$/, "BR-DEC-14"],
  [/^vat_breakdown\.\d+\.taxable_amount$/, "BR-DEC-19"],
  [/^vat_breakdown\.\d+\.tax_amount$/, "BR-DEC-20"],
  [/^lines\.\d+\.net_amount$/, "BR-DEC-23"],
];

type DocAC = NonNullable<EInvoiceModel["allowances"]>[number];

/** Checks one invoice (already of the model's shape) and computes its figures. */
export class InvoiceChecker {
  private readonly violations: EInvoiceViolation[] = [];
  constructor(
    private readonly inv: EInvoiceModel,
    private readonly prefix: string,
  ) {}

  private fail(rule: string, path: string, problem: string) {
    this.violations.push({ rule, field: path ? `${this.prefix}.${path}` : this.prefix, problem });
  }

  /** A decimal of the model; amounts are held to 2 decimals by their BR-DEC rule. */
  private dec(v: string | number | undefined, path: string): Dec | undefined {
    if (v === undefined) return undefined;
    const d = parseDec(v);
    if (!d) {
      this.fail("schema", path, "must be a plain decimal with at most 18 digits before and 12 after the point");
      return undefined;
    }
    const rule = DECIMALS.find(([re]) => re.test(path))?.[1];
    if (rule && d.decimals > 2) this.fail(rule, path, "an amount has at most 2 decimals");
    return d.value;
  }

  private date(v: string | undefined, path: string, rule = "schema") {
    if (v === undefined) return;
    const d = new Date(`${v}T00:00:00Z`);
    if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) this.fail(rule, path, "is not a calendar date");
  }

  private period(p: { start?: string; end?: string } | undefined, path: string) {
    this.date(p?.start, `${path}.start`);
    this.date(p?.end, `${path}.end`);
  }

  /** The rate a VAT group is keyed by: S's as given, none for O, 0 for the others (their rules say so). */
  private rate(vat: { category: VatCategory; rate?: string | number }, path: string): Dec | undefined {
    const r = this.dec(vat.rate, `${path}.rate`);
    if (vat.category === "O") return undefined;
    return vat.category === "S" ? (r ?? ZERO) : ZERO;
  }

  /** The figures, and what is wrong with the input itself (none: []). */
  run(): { figures: EInvoiceFigures; violations: EInvoiceViolation[] } {
    const inv = this.inv;
    this.date(inv.issue_date, "issue_date", "BR-03");
    this.date(inv.due_date, "due_date");
    this.date(inv.delivery?.date, "delivery.date");
    this.date(inv.preceding_invoice?.issue_date, "preceding_invoice.issue_date");
    this.period(inv.billing_period, "billing_period");

    const groups = new Map<string, VatGroup>();
    const groupOf = (category: VatCategory, rate: Dec | undefined) => {
      const key = `${category}|${rate === undefined ? "" : format(rate)}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { category, rate, taxable: ZERO, tax: ZERO }));
      return g;
    };

    const lineNet = inv.lines.map((l, i) => this.line(l, `lines.${i}`, groupOf));
    const docAC = (list: DocAC[] | undefined, kind: "allowances" | "charges"): Dec => {
      const amounts = (list ?? []).map((ac, i) => {
        const path = `${kind}.${i}`;
        const a = this.dec(ac.amount, `${path}.amount`) ?? ZERO;
        this.dec(ac.base_amount, `${path}.base_amount`);
        this.dec(ac.percent, `${path}.percent`);
        const g = groupOf(ac.vat.category, this.rate(ac.vat, `${path}.vat`));
        g.taxable += kind === "allowances" ? -a : a;
        return a;
      });
      return sum(amounts);
    };
    const allowanceTotal = docAC(inv.allowances, "allowances");
    const chargeTotal = docAC(inv.charges, "charges");

    const breakdown = this.breakdown(groups);
    const lineTotal = sum(lineNet);
    const taxBasisTotal = lineTotal - allowanceTotal + chargeTotal;
    const taxTotal = sum(breakdown.map((g) => g.tax));
    const grandTotal = taxBasisTotal + taxTotal;
    const t = inv.totals ?? {};
    const prepaid = this.dec(t.prepaid, "totals.prepaid") ?? ZERO;
    const rounding = this.dec(t.rounding, "totals.rounding") ?? ZERO;
    const duePayable = grandTotal - prepaid + rounding;

    const expect = (given: string | number | undefined, path: string, computed: Dec, rule: string, how: string) => {
      const g = this.dec(given, path);
      if (g !== undefined && g !== computed) this.fail(rule, path, `is ${format(g, 2)}, but ${how} is ${format(computed, 2)}`);
    };
    expect(t.line_total, "totals.line_total", lineTotal, "BR-CO-10", "the sum of the line net amounts");
    expect(t.allowance_total, "totals.allowance_total", allowanceTotal, "BR-CO-11", "the sum of the document level allowances");
    expect(t.charge_total, "totals.charge_total", chargeTotal, "BR-CO-12", "the sum of the document level charges");
    expect(t.tax_basis_total, "totals.tax_basis_total", taxBasisTotal, "BR-CO-13", "line total − allowances + charges");
    expect(t.tax_total, "totals.tax_total", taxTotal, "BR-CO-14", "the sum of the VAT breakdown's tax amounts");
    expect(t.grand_total, "totals.grand_total", grandTotal, "BR-CO-15", "total without VAT + VAT");
    expect(t.due_payable, "totals.due_payable", duePayable, "BR-CO-16", "total with VAT − prepaid + rounding");

    return {
      figures: {
        lineNet,
        vatBreakdown: breakdown,
        lineTotal,
        allowanceTotal,
        chargeTotal,
        taxBasisTotal,
        taxTotal,
        grandTotal,
        prepaid,
        rounding,
        duePayable,
      },
      violations: this.violations,
    };
  }

  private line(l: EInvoiceLine, path: string, groupOf: (c: VatCategory, r: Dec | undefined) => VatGroup): Dec {
    const qty = this.dec(l.quantity, `${path}.quantity`) ?? ZERO;
    const price = this.dec(l.net_price, `${path}.net_price`) ?? ZERO;
    this.dec(l.gross_price, `${path}.gross_price`);
    this.dec(l.price_discount, `${path}.price_discount`);
    const base = this.dec(l.base_quantity, `${path}.base_quantity`) ?? int(1);
    if (base <= ZERO) this.fail("schema", `${path}.base_quantity`, "must be above 0");
    this.period(l.period, `${path}.period`);
    const ac = (list: typeof l.allowances, kind: "allowances" | "charges") =>
      sum(
        (list ?? []).map((x, i) => {
          const p = `${path}.${kind}.${i}`;
          this.dec(x.base_amount, `${p}.base_amount`);
          this.dec(x.percent, `${p}.percent`);
          return this.dec(x.amount, `${p}.amount`) ?? ZERO;
        }),
      );
    const allowances = ac(l.allowances, "allowances");
    const charges = ac(l.charges, "charges");
    const net = round((base > ZERO ? div(mul(qty, price), base) : ZERO) + charges - allowances, 2);
    const given = this.dec(l.net_amount, `${path}.net_amount`);
    if (given !== undefined && given !== net) {
      this.fail(
        "BR-24",
        `${path}.net_amount`,
        `is ${format(given, 2)}, but quantity × net_price / base_quantity + charges − allowances is ${format(net, 2)}`,
      );
    }
    groupOf(l.vat.category, this.rate(l.vat, `${path}.vat`)).taxable += net;
    return net;
  }

  /** The breakdown: tax per group, exemption reasons, and the client's entries checked against it. */
  private breakdown(groups: Map<string, VatGroup>): VatGroup[] {
    for (const g of groups.values()) g.tax = g.category === "S" && g.rate !== undefined ? round(mul(g.taxable, g.rate) / 100n, 2) : ZERO;
    const keyOf = (category: VatCategory, rate: Dec | undefined) => `${category}|${category === "O" ? "" : format(rate ?? ZERO)}`;
    (this.inv.vat_breakdown ?? []).forEach((e, i) => {
      const path = `vat_breakdown.${i}`;
      const prefix = RULES[e.category];
      const rate = this.dec(e.rate, `${path}.rate`);
      const g = groups.get(keyOf(e.category, rate));
      if (!g) {
        this.fail(
          `${prefix}-08`,
          path,
          `no line, allowance or charge has VAT category ${e.category}${e.category === "O" ? "" : ` at ${format(rate ?? ZERO)} %`}`,
        );
        return;
      }
      const taxable = this.dec(e.taxable_amount, `${path}.taxable_amount`);
      if (taxable !== undefined && taxable !== g.taxable) {
        this.fail(
          `${prefix}-08`,
          `${path}.taxable_amount`,
          `is ${format(taxable, 2)}, but line net amounts − allowances + charges of this category and rate are ${format(g.taxable, 2)}`,
        );
      }
      const tax = this.dec(e.tax_amount, `${path}.tax_amount`);
      if (tax !== undefined && tax !== g.tax) {
        const rule = e.category === "S" ? "BR-CO-17" : `${prefix}-09`;
        this.fail(
          rule,
          `${path}.tax_amount`,
          `is ${format(tax, 2)}, but ${e.category === "S" ? "taxable amount × rate, rounded to 2 decimals," : `VAT category ${e.category}'s tax`} is ${format(g.tax, 2)}`,
        );
      }
      g.exemptionReason = e.exemption_reason;
      g.exemptionReasonCode = e.exemption_reason_code;
    });
    const list = [...groups.values()];
    list.forEach((g) => {
      if (g.exemptionReason !== undefined || g.exemptionReasonCode !== undefined) return;
      const fallback = DEFAULT_EXEMPTION[g.category];
      if (fallback) {
        g.exemptionReason = fallback.text;
        g.exemptionReasonCode = fallback.code;
      }
    });
    return list;
  }
}
