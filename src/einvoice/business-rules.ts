// EN 16931's business rules on a well-shaped JSON invoice: the mandatory terms the schema cannot say,
// the arithmetic (BR-CO-10 to BR-CO-17, computed exactly in decimal.ts) and each VAT category's rules.
// It computes the figures the CII XML and the template carry, or throws one 422 listing every violation.
import { type Dec, div, format, int, mul, parseDec, round, sum, ZERO } from "./decimal";
import type { EInvoiceLine, EInvoiceModel, VatCategory } from "./model";
import { type EInvoiceViolation, eInvoiceInvalid } from "./violations";

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

/** The BR-DEC rule limiting an amount at this path to 2 decimals. */
const DECIMALS: [RegExp, string][] = [
  [/^allowances\.\d+\.amount$/, "BR-DEC-01"],
  [/^allowances\.\d+\.base_amount$/, "BR-DEC-02"],
  [/^charges\.\d+\.amount$/, "BR-DEC-05"],
  [/^charges\.\d+\.base_amount$/, "BR-DEC-06"],
  [/^totals\.line_total$/, "BR-DEC-09"],
  [/^totals\.allowance_total$/, "BR-DEC-10"],
  [/^totals\.charge_total$/, "BR-DEC-11"],
  [/^totals\.tax_basis_total$/, "BR-DEC-12"],
  [/^totals\.tax_total$/, "BR-DEC-13"],
  [/^totals\.grand_total$/, "BR-DEC-14"],
  [/^totals\.prepaid$/, "BR-DEC-16"],
  [/^totals\.rounding$/, "BR-DEC-17"],
  [/^totals\.due_payable$/, "BR-DEC-18"],
  [/^vat_breakdown\.\d+\.taxable_amount$/, "BR-DEC-19"],
  [/^vat_breakdown\.\d+\.tax_amount$/, "BR-DEC-20"],
  [/^lines\.\d+\.net_amount$/, "BR-DEC-23"],
  [/^lines\.\d+\.allowances\.\d+\.amount$/, "BR-DEC-24"],
  [/^lines\.\d+\.allowances\.\d+\.base_amount$/, "BR-DEC-25"],
  [/^lines\.\d+\.charges\.\d+\.amount$/, "BR-DEC-27"],
  [/^lines\.\d+\.charges\.\d+\.base_amount$/, "BR-DEC-28"],
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

  private period(p: { start?: string; end?: string } | undefined, path: string, orderRule: string, usedRule: string) {
    if (!p) return;
    this.date(p.start, `${path}.start`);
    this.date(p.end, `${path}.end`);
    if (p.start === undefined && p.end === undefined) this.fail(usedRule, path, "give a start date, an end date or both");
    if (p.start && p.end && p.end < p.start) this.fail(orderRule, `${path}.end`, `the end (${p.end}) is before the start (${p.start})`);
  }

  /** The rate of a VAT category as its rules want it (S above 0; Z, E, AE, K, G 0; O none). */
  private rate(vat: { category: VatCategory; rate?: string | number }, path: string, rule: "05" | "06" | "07"): Dec | undefined {
    const r = this.dec(vat.rate, `${path}.rate`);
    const id = `${RULES[vat.category]}-${rule}`;
    if (vat.category === "O") {
      if (vat.rate !== undefined)
        this.fail(id, `${path}.rate`, "a line, allowance or charge not subject to VAT (O) has no VAT rate: leave rate out");
      return undefined;
    }
    if (vat.category === "S") {
      if (r === undefined || r <= ZERO) this.fail(id, `${path}.rate`, "standard rated (S) needs a VAT rate above 0");
      return r ?? ZERO;
    }
    if (r !== undefined && r !== ZERO) this.fail(id, `${path}.rate`, `VAT category ${vat.category} has a VAT rate of 0`);
    return ZERO;
  }

  private reason(ac: { reason?: string; reason_code?: string }, path: string, rule: string) {
    if (ac.reason === undefined && ac.reason_code === undefined) this.fail(rule, path, "give a reason, a reason_code or both");
  }

  /** The seller and buyer identifiers a VAT category requires (BR-x-02/03/04), once per category and kind. */
  private parties(category: VatCategory, rule: string) {
    const { seller, buyer } = this.inv;
    const sellerTax = seller.vat_id !== undefined || seller.tax_registration_id !== undefined;
    switch (category) {
      case "S":
      case "Z":
      case "E":
        if (!sellerTax)
          this.fail(rule, "seller.vat_id", `VAT category ${category} needs the seller's VAT identifier or tax registration identifier`);
        break;
      case "AE":
        if (!sellerTax)
          this.fail(rule, "seller.vat_id", "reverse charge (AE) needs the seller's VAT identifier or tax registration identifier");
        if (buyer.vat_id === undefined && buyer.legal_registration_id === undefined) {
          this.fail(rule, "buyer.vat_id", "reverse charge (AE) needs the buyer's VAT identifier or legal registration identifier");
        }
        break;
      case "K":
        if (seller.vat_id === undefined)
          this.fail(rule, "seller.vat_id", "an intra-community supply (K) needs the seller's VAT identifier");
        if (buyer.vat_id === undefined) this.fail(rule, "buyer.vat_id", "an intra-community supply (K) needs the buyer's VAT identifier");
        break;
      case "G":
        if (seller.vat_id === undefined) this.fail(rule, "seller.vat_id", "an export outside the EU (G) needs the seller's VAT identifier");
        break;
      case "O":
        for (const [who, p] of [
          ["seller", seller],
          ["buyer", buyer],
        ] as const) {
          if (p.vat_id !== undefined)
            this.fail(rule, `${who}.vat_id`, `an invoice not subject to VAT (O) carries no ${who} VAT identifier`);
        }
        break;
    }
  }

  run(): EInvoiceFigures {
    const inv = this.inv;
    this.date(inv.issue_date, "issue_date", "BR-03");
    this.date(inv.due_date, "due_date");
    this.date(inv.delivery?.date, "delivery.date");
    this.date(inv.preceding_invoice?.issue_date, "preceding_invoice.issue_date");
    this.period(inv.billing_period, "billing_period", "BR-29", "BR-CO-19");
    if (inv.seller.legal_registration_id === undefined && inv.seller.vat_id === undefined) {
      this.fail(
        "BR-CO-26",
        "seller.vat_id",
        "give the seller's VAT identifier or legal registration identifier, so the buyer can identify the supplier",
      );
    }
    const means = inv.payment?.means_code;
    if ((means === "30" || means === "58") && inv.payment?.iban === undefined) {
      this.fail("BR-61", "payment.iban", `payment means ${means} (credit transfer) needs the payee's account (iban)`);
    }

    const groups = new Map<string, VatGroup>();
    const groupOf = (category: VatCategory, rate: Dec | undefined) => {
      const key = `${category}|${rate === undefined ? "" : format(rate)}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { category, rate, taxable: ZERO, tax: ZERO }));
      return g;
    };
    const categoriesSeen = new Map<string, string>();
    const seenOnce = (category: VatCategory, kind: "02" | "03" | "04") => {
      const rule = `${RULES[category]}-${kind}`;
      if (!categoriesSeen.has(rule)) {
        categoriesSeen.set(rule, rule);
        this.parties(category, rule);
      }
    };

    const lineNet = inv.lines.map((l, i) => this.line(l, `lines.${i}`, groupOf, seenOnce));
    const docAC = (list: DocAC[] | undefined, kind: "allowances" | "charges"): Dec => {
      const amounts = (list ?? []).map((ac, i) => {
        const path = `${kind}.${i}`;
        const a = this.dec(ac.amount, `${path}.amount`) ?? ZERO;
        this.dec(ac.base_amount, `${path}.base_amount`);
        this.dec(ac.percent, `${path}.percent`);
        this.reason(ac, path, kind === "allowances" ? "BR-33" : "BR-38");
        const rate = this.rate(ac.vat, `${path}.vat`, kind === "allowances" ? "06" : "07");
        seenOnce(ac.vat.category, kind === "allowances" ? "03" : "04");
        const g = groupOf(ac.vat.category, rate);
        g.taxable += kind === "allowances" ? -a : a;
        return a;
      });
      return sum(amounts);
    };
    const allowanceTotal = docAC(inv.allowances, "allowances");
    const chargeTotal = docAC(inv.charges, "charges");

    // Not subject to VAT (O) excludes every other category (BR-O-11 to BR-O-14).
    if ([...groups.values()].some((g) => g.category === "O")) {
      inv.lines.forEach((l, i) => {
        if (l.vat.category !== "O")
          this.fail("BR-O-12", `lines.${i}.vat.category`, "an invoice with items not subject to VAT (O) has only O lines");
      });
      for (const [kind, rule] of [
        ["allowances", "BR-O-13"],
        ["charges", "BR-O-14"],
      ] as const) {
        (inv[kind] ?? []).forEach((ac, i) => {
          if (ac.vat.category !== "O")
            this.fail(rule, `${kind}.${i}.vat.category`, "an invoice not subject to VAT (O) has only O allowances and charges");
        });
      }
    }

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

    if (duePayable > ZERO && inv.due_date === undefined && inv.payment_terms === undefined) {
      this.fail("BR-CO-25", "due_date", "an amount is due: give due_date or payment_terms");
    }
    // Intra-community supply (K) needs when and where the goods went.
    if (groups.has("K|0")) {
      if (inv.delivery?.date === undefined && inv.billing_period === undefined) {
        this.fail("BR-IC-11", "delivery.date", "an intra-community supply (K) needs the actual delivery date or the billing period");
      }
      if (inv.delivery?.ship_to_address?.country_code === undefined) {
        this.fail("BR-IC-12", "delivery.ship_to_address.country_code", "an intra-community supply (K) needs the deliver to country code");
      }
    }

    if (this.violations.length > 0) throw eInvoiceInvalid(this.violations);
    return {
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
    };
  }

  private line(
    l: EInvoiceLine,
    path: string,
    groupOf: (c: VatCategory, r: Dec | undefined) => VatGroup,
    seenOnce: (c: VatCategory, kind: "02" | "03" | "04") => void,
  ): Dec {
    const qty = this.dec(l.quantity, `${path}.quantity`) ?? ZERO;
    const price = this.dec(l.net_price, `${path}.net_price`) ?? ZERO;
    if (price < ZERO) this.fail("BR-27", `${path}.net_price`, "the item net price is not negative: use a negative quantity for a return");
    const gross = this.dec(l.gross_price, `${path}.gross_price`);
    if (gross !== undefined && gross < ZERO) this.fail("BR-28", `${path}.gross_price`, "the item gross price is not negative");
    this.dec(l.price_discount, `${path}.price_discount`);
    const base = this.dec(l.base_quantity, `${path}.base_quantity`) ?? int(1);
    if (base <= ZERO) this.fail("schema", `${path}.base_quantity`, "must be above 0");
    this.period(l.period, `${path}.period`, "BR-30", "BR-CO-20");
    const ac = (list: typeof l.allowances, kind: "allowances" | "charges") =>
      sum(
        (list ?? []).map((x, i) => {
          const p = `${path}.${kind}.${i}`;
          this.dec(x.base_amount, `${p}.base_amount`);
          this.dec(x.percent, `${p}.percent`);
          this.reason(x, p, kind === "allowances" ? "BR-42" : "BR-44");
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
    const rate = this.rate(l.vat, `${path}.vat`, "05");
    seenOnce(l.vat.category, "02");
    groupOf(l.vat.category, rate).taxable += net;
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
      const hasReason = e.exemption_reason !== undefined || e.exemption_reason_code !== undefined;
      if (hasReason && (e.category === "S" || e.category === "Z")) {
        this.fail(`${prefix}-10`, `${path}.exemption_reason`, `VAT category ${e.category} has no exemption reason`);
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
      } else if (g.category === "E") {
        this.fail(
          "BR-E-10",
          "vat_breakdown",
          'exempt from VAT (E) needs an exemption reason: add {"category": "E", "exemption_reason": …} or its exemption_reason_code',
        );
      }
    });
    return list;
  }
}
