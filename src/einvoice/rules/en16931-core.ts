// EN 16931's core business rules in our words: the mandatory terms (BR-01 to BR-65), the conditions
// between terms (BR-CO-*) and the decimals of amounts (BR-DEC-*). The VAT category rules live in
// vat-categories.ts, the code lists in code-lists.ts.
import { type Dec, format } from "../decimal";
import { type Field, has, type SemAllowanceCharge, type SemInvoice, type SemPeriod } from "../semantic";
import { cents, decimals, num, num0, type Report } from "./report";

const need = (r: Report, rule: string, f: Field | undefined, at: string, what: string) => {
  if (!has(f)) r.fail(rule, (f as Field | undefined)?.at ?? at, `${what} is missing`);
};

const amountDecimals = (r: Report, rule: string, f: Field | undefined, what: string) => {
  if (f && has(f) && decimals(f) > 2) r.fail(rule, f.at, `${what} has more than 2 decimals (${f.v})`);
};

function period(r: Report, p: SemPeriod | undefined, orderRule: string, usedRule: string, what: string) {
  if (!p) return;
  if (!has(p.start) && !has(p.end)) r.fail(usedRule, p.at, `the ${what} has neither a start date nor an end date`);
  if (has(p.start) && has(p.end) && p.end.v < p.start.v)
    r.fail(orderRule, p.end.at, `the ${what} ends (${p.end.v}) before it starts (${p.start.v})`);
}

function allowanceCharges(r: Report, list: SemAllowanceCharge[], line: boolean) {
  for (const ac of list) {
    const kind = ac.charge ? "charge" : "allowance";
    const [amountRule, reasonRule, coRule, decA, decB] = line
      ? ac.charge
        ? ["BR-43", "BR-44", "BR-CO-24", "BR-DEC-27", "BR-DEC-28"]
        : ["BR-41", "BR-42", "BR-CO-23", "BR-DEC-24", "BR-DEC-25"]
      : ac.charge
        ? ["BR-36", "BR-38", "BR-CO-22", "BR-DEC-05", "BR-DEC-06"]
        : ["BR-31", "BR-33", "BR-CO-21", "BR-DEC-01", "BR-DEC-02"];
    const what = `${line ? "invoice line" : "document level"} ${kind}`;
    need(r, amountRule!, ac.amount, ac.at, `the ${what} amount`);
    if (!has(ac.reason) && !has(ac.reasonCode)) {
      r.fail(reasonRule!, ac.at, `the ${what} has neither a reason nor a reason code`);
      r.fail(coRule!, ac.at, `the ${what} needs a reason, a reason code or both`);
    }
    amountDecimals(r, decA!, ac.amount, `the ${what} amount`);
    amountDecimals(r, decB!, ac.base, `the ${what} base amount`);
    if (!line && !has(ac.tax?.category)) r.fail(ac.charge ? "BR-37" : "BR-32", ac.at, `the ${what} has no VAT category code`);
  }
}

const show = (d: Dec) => format(d, 2);

/**
 * The VAT breakdown groups the general breakdown rules (BR-45 to BR-48, BR-DEC-19/20, BR-CO-17) apply
 * to. In CII the official rules give O, L and M groups to their category's own rules instead.
 */
const generalBreakdown = (inv: SemInvoice) =>
  inv.syntax === "cii" ? inv.vat.filter((v) => !["O", "L", "M"].includes(v.category?.v ?? "")) : inv.vat;

/** The mandatory terms and groups. */
function mandatory(inv: SemInvoice, r: Report) {
  need(r, "BR-01", inv.customization, inv.at, "the specification identifier (BT-24)");
  need(r, "BR-02", inv.number, inv.at, "the invoice number (BT-1)");
  need(r, "BR-03", inv.issueDate, inv.at, "the invoice issue date (BT-2)");
  need(r, "BR-04", inv.typeCode, inv.at, "the invoice type code (BT-3)");
  need(r, "BR-05", inv.currency, inv.at, "the invoice currency code (BT-5)");
  need(r, "BR-06", inv.seller?.name, inv.seller?.at ?? inv.at, "the seller name (BT-27)");
  need(r, "BR-07", inv.buyer?.name, inv.buyer?.at ?? inv.at, "the buyer name (BT-44)");
  if (!inv.seller?.address) r.fail("BR-08", inv.seller?.at ?? inv.at, "the seller postal address (BG-5) is missing");
  else need(r, "BR-09", inv.seller.address.country, inv.seller.address.at, "the seller country code (BT-40)");
  if (!inv.buyer?.address) r.fail("BR-10", inv.buyer?.at ?? inv.at, "the buyer postal address (BG-8) is missing");
  else need(r, "BR-11", inv.buyer.address.country, inv.buyer.address.at, "the buyer country code (BT-55)");
  const t = inv.totals;
  need(r, "BR-12", t?.lineTotal, t?.at ?? inv.at, "the sum of invoice line net amounts (BT-106)");
  need(r, "BR-13", t?.taxBasis, t?.at ?? inv.at, "the invoice total without VAT (BT-109)");
  need(r, "BR-14", t?.grand, t?.at ?? inv.at, "the invoice total with VAT (BT-112)");
  need(r, "BR-15", t?.due, t?.at ?? inv.at, "the amount due for payment (BT-115)");
  if (inv.lines.length === 0) r.fail("BR-16", inv.at, "the invoice has no invoice line (BG-25)");
  if (inv.payee && !has(inv.payee.name)) r.fail("BR-17", inv.payee.at, "the payee (BG-10) has no name (BT-59)");
  const rep = inv.taxRepresentative;
  if (rep) {
    need(r, "BR-18", rep.name, rep.at, "the seller tax representative name (BT-62)");
    if (!rep.address) r.fail("BR-19", rep.at, "the seller tax representative postal address (BG-12) is missing");
    else need(r, "BR-20", rep.address.country, rep.address.at, "the tax representative country code (BT-69)");
    need(r, "BR-56", rep.vatId, rep.at, "the seller tax representative VAT identifier (BT-63)");
  }
  for (const l of inv.lines) {
    need(r, "BR-21", l.id, l.at, "the invoice line identifier (BT-126)");
    need(r, "BR-22", l.quantity, l.at, "the invoiced quantity (BT-129)");
    if (l.quantity && l.unit === undefined) r.fail("BR-23", l.quantity.at, "the invoiced quantity has no unit of measure code (BT-130)");
    need(r, "BR-24", l.net, l.at, "the invoice line net amount (BT-131)");
    need(r, "BR-25", l.name, l.at, "the item name (BT-153)");
    need(r, "BR-26", l.price, l.at, "the item net price (BT-146)");
    const price = num(l.price);
    if (price !== undefined && price < 0n) r.fail("BR-27", l.price!.at, `the item net price (BT-146) is negative (${l.price!.v})`);
    // A price group without a price: the official rule cannot see a non-negative price either.
    if (price === undefined && l.priceAt)
      r.fail("BR-27", l.priceAt, "the item net price (BT-146) is missing, so it is not a price of 0 or more");
    const gross = num(l.gross);
    if (gross !== undefined && gross < 0n) r.fail("BR-28", l.gross!.at, `the item gross price (BT-148) is negative (${l.gross!.v})`);
    if (!has(l.tax?.category)) r.fail("BR-CO-04", l.at, "the invoice line has no invoiced item VAT category code (BT-151)");
    amountDecimals(r, "BR-DEC-23", l.net, "the invoice line net amount (BT-131)");
    period(r, l.period, "BR-30", "BR-CO-20", "invoice line period (BG-26)");
    allowanceCharges(r, l.allowances, true);
    allowanceCharges(r, l.charges, true);
    for (const a of l.attributes) {
      if (!has(a.name) || !has(a.value)) r.fail("BR-54", a.at, "an item attribute (BG-32) needs both a name (BT-160) and a value (BT-161)");
    }
    if (l.standardId && !l.standardId.attrs.schemeID)
      r.fail("BR-64", l.standardId.at, "the item standard identifier (BT-157) has no scheme identifier");
    for (const c of l.classifications)
      if (!c.attrs.listID) r.fail("BR-65", c.at, "the item classification identifier (BT-158) has no scheme identifier");
  }
  period(r, inv.period, "BR-29", "BR-CO-19", "invoicing period (BG-14)");
  allowanceCharges(r, inv.allowances, false);
  allowanceCharges(r, inv.charges, false);
  for (const v of generalBreakdown(inv)) {
    need(r, "BR-45", v.taxable, v.at, "the VAT category taxable amount (BT-116)");
    need(r, "BR-46", v.tax, v.at, "the VAT category tax amount (BT-117)");
    need(r, "BR-47", v.category, v.at, "the VAT category code (BT-118)");
    if (v.category?.v !== "O") need(r, "BR-48", v.rate, v.at, "the VAT category rate (BT-119)");
    amountDecimals(r, "BR-DEC-19", v.taxable, "the VAT category taxable amount (BT-116)");
    amountDecimals(r, "BR-DEC-20", v.tax, "the VAT category tax amount (BT-117)");
  }
  for (const pm of inv.paymentMeans) {
    need(r, "BR-49", pm.code, pm.at, "the payment means type code (BT-81)");
    for (const tr of pm.transfers)
      need(r, "BR-50", tr.account, tr.at, "the payment account identifier (BT-84) of the credit transfer (BG-17)");
    if ((pm.code?.v === "30" || pm.code?.v === "58") && !pm.transfers.some((tr) => has(tr.account))) {
      r.fail("BR-61", pm.at, `payment means ${pm.code.v} is a credit transfer but no payment account identifier (BT-84) is given`);
    }
    if (pm.card && pm.card.v.replace(/\D/g, "").length > 10) {
      r.warn("BR-51", pm.card.at, "the card primary account number (BT-87) should show at most the first 6 and the last 4 digits");
    }
  }
  for (const d of inv.documents) need(r, "BR-52", d.id, d.at, "the supporting document reference (BT-122)");
  for (const p of inv.preceding) need(r, "BR-55", p.number, p.at, "the preceding invoice reference (BT-25)");
  if (inv.delivery?.address) need(r, "BR-57", inv.delivery.address.country, inv.delivery.address.at, "the deliver to country code (BT-80)");
  for (const [rule, p, who] of [
    ["BR-62", inv.seller, "seller electronic address (BT-34)"],
    ["BR-63", inv.buyer, "buyer electronic address (BT-49)"],
  ] as const) {
    // CII's group without its URIID has no scheme identifier either.
    const at = p?.endpoint ? (p.endpoint.attrs.schemeID ? undefined : p.endpoint.at) : p?.endpointGroup;
    if (at) r.fail(rule, at, `the ${who} has no scheme identifier`);
  }
  if (has(inv.taxCurrency) && !inv.taxTotals.some((t) => t.attrs.currencyID === inv.taxCurrency!.v)) {
    r.fail(
      "BR-53",
      inv.totals?.at ?? inv.at,
      `the VAT accounting currency ${inv.taxCurrency.v} (BT-6) is given but the total VAT in it (BT-111) is not`,
    );
  }
}

/** The arithmetic of the totals and the other conditions between terms (BR-CO-*). */
function conditions(inv: SemInvoice, r: Report) {
  const t = inv.totals;
  if (t) {
    const lineSum = cents(inv.lines.reduce((s, l) => s + num0(l.net), 0n));
    const allowances = cents(inv.allowances.reduce((s, a) => s + num0(a.amount), 0n));
    const charges = cents(inv.charges.reduce((s, c) => s + num0(c.amount), 0n));
    const lineTotal = num(t.lineTotal);
    // A total that is missing breaks its arithmetic rule too, as in the official rules.
    const missing = (rule: string, what: string) => r.fail(rule, t.at, `${what} is missing, so it cannot be checked`);
    if (lineTotal === undefined) missing("BR-CO-10", "the sum of line net amounts (BT-106)");
    else if (lineTotal !== lineSum) {
      r.fail(
        "BR-CO-10",
        t.lineTotal!.at,
        `the sum of line net amounts (BT-106) is ${t.lineTotal!.v}, but the lines add up to ${show(lineSum)}`,
      );
    }
    const allowanceTotal = num(t.allowanceTotal);
    if ((allowanceTotal ?? 0n) !== allowances && (allowanceTotal !== undefined || inv.allowances.length > 0)) {
      r.fail(
        "BR-CO-11",
        t.allowanceTotal?.at ?? t.at,
        `the sum of allowances (BT-107) is ${t.allowanceTotal?.v ?? "absent"}, but the document level allowances add up to ${show(allowances)}`,
      );
    }
    const chargeTotal = num(t.chargeTotal);
    if ((chargeTotal ?? 0n) !== charges && (chargeTotal !== undefined || inv.charges.length > 0)) {
      r.fail(
        "BR-CO-12",
        t.chargeTotal?.at ?? t.at,
        `the sum of charges (BT-108) is ${t.chargeTotal?.v ?? "absent"}, but the document level charges add up to ${show(charges)}`,
      );
    }
    const taxBasis = num(t.taxBasis);
    const expectedBasis = cents((lineTotal ?? 0n) - (allowanceTotal ?? 0n) + (chargeTotal ?? 0n));
    if (taxBasis === undefined) missing("BR-CO-13", "the total without VAT (BT-109)");
    else if (taxBasis !== expectedBasis) {
      r.fail(
        "BR-CO-13",
        t.taxBasis!.at,
        `the total without VAT (BT-109) is ${t.taxBasis!.v}, but line total − allowances + charges is ${show(expectedBasis)}`,
      );
    }
    const taxTotal = inv.taxTotals.filter((x) => x.attrs.currencyID === inv.currency?.v);
    const grand = num(t.grand);
    if (grand === undefined) missing("BR-CO-15", "the total with VAT (BT-112)");
    else {
      const vat = taxTotal.length === 1 ? num(taxTotal[0]) : undefined;
      // CII may leave the total VAT out when there is none: the total with VAT is then the total without.
      const ciiNoVat = inv.syntax === "cii" && grand === taxBasis;
      if (!ciiNoVat && (taxTotal.length !== 1 || cents((taxBasis ?? 0n) + (vat ?? 0n)) !== grand)) {
        r.fail(
          "BR-CO-15",
          t.grand!.at,
          taxTotal.length !== 1
            ? `the total with VAT (BT-112) needs exactly one total VAT amount (BT-110) in the invoice currency ${inv.currency?.v ?? ""}, found ${taxTotal.length}`
            : `the total with VAT (BT-112) is ${t.grand!.v}, but total without VAT + VAT is ${show(cents((taxBasis ?? 0n) + (vat ?? 0n)))}`,
        );
      }
    }
    const due = num(t.due);
    if (due === undefined || grand === undefined) missing("BR-CO-16", "the amount due (BT-115) or the total with VAT (BT-112)");
    else {
      const expected = cents(grand - num0(t.prepaid) + num0(t.rounding));
      if (due !== expected)
        r.fail("BR-CO-16", t.due!.at, `the amount due (BT-115) is ${t.due!.v}, but total with VAT − paid + rounding is ${show(expected)}`);
    }
    for (const [rule, f, what] of [
      ["BR-DEC-09", t.lineTotal, "the sum of line net amounts (BT-106)"],
      ["BR-DEC-10", t.allowanceTotal, "the sum of allowances (BT-107)"],
      ["BR-DEC-11", t.chargeTotal, "the sum of charges (BT-108)"],
      ["BR-DEC-12", t.taxBasis, "the total without VAT (BT-109)"],
      ["BR-DEC-14", t.grand, "the total with VAT (BT-112)"],
      ["BR-DEC-16", t.prepaid, "the paid amount (BT-113)"],
      ["BR-DEC-17", t.rounding, "the rounding amount (BT-114)"],
      ["BR-DEC-18", t.due, "the amount due (BT-115)"],
    ] as const)
      amountDecimals(r, rule, f, what);
    for (const x of inv.taxTotals) {
      amountDecimals(r, x.attrs.currencyID === inv.currency?.v ? "BR-DEC-13" : "BR-DEC-15", x, "the total VAT amount (BT-110/BT-111)");
    }
    const vatSum = cents(inv.vat.reduce((s, v) => s + num0(v.tax), 0n));
    if (taxTotal.length === 1 && inv.vat.length > 0 && num(taxTotal[0]) !== undefined && num(taxTotal[0]) !== vatSum) {
      r.fail(
        "BR-CO-14",
        taxTotal[0]!.at,
        `the total VAT amount (BT-110) is ${taxTotal[0]!.v}, but the VAT breakdown adds up to ${show(vatSum)}`,
      );
    }
    // UBL: a tax total with a breakdown but without its amount cannot equal the breakdown's sum.
    if (inv.syntax === "ubl" && inv.breakdownTaxTotals > inv.taxTotals.length - inv.bareTaxTotals) {
      r.fail("BR-CO-14", inv.at, "a tax total with a VAT breakdown has no total VAT amount (BT-110)");
    }
  }
  // The official UBL rules ask it of an Invoice only, not of a CreditNote.
  const due = num(inv.totals?.due);
  if (inv.document === "invoice" && due !== undefined && due > 0n && !has(inv.dueDate) && !has(inv.paymentTerms))
    r.fail(
      "BR-CO-25",
      inv.at,
      "the amount due (BT-115) is positive, so the payment due date (BT-9) or the payment terms (BT-20) must be given",
    );
  if (has(inv.taxPointDate) && has(inv.taxPointCode))
    r.fail("BR-CO-03", inv.taxPointDate.at, "the VAT point date (BT-7) and the VAT point date code (BT-8) exclude each other");
  for (const v of generalBreakdown(inv)) {
    const rate = num(v.rate);
    const taxable = num(v.taxable);
    const tax = num(v.tax);
    if (rate !== undefined && tax === undefined)
      r.fail("BR-CO-17", v.at, "the VAT category tax amount (BT-117) is missing, so it is not taxable amount × rate");
    if (rate === undefined || taxable === undefined || tax === undefined) continue;
    const abs = (d: Dec) => (d < 0n ? -d : d);
    const expected = cents((abs(taxable) * rate) / 10n ** 14n);
    // The official rule allows a difference below 1 (currency unit) and wants 0 tax at rate 0.
    const ok = cents(rate) === 0n ? cents(tax) === 0n : abs(abs(tax) - expected) < 10n ** 12n;
    if (!ok)
      r.fail("BR-CO-17", v.tax!.at, `the VAT category tax amount (BT-117) ${v.tax!.v} is not taxable amount × rate (${show(expected)})`);
  }
  if (inv.vat.length === 0) r.fail("BR-CO-18", inv.at, "the invoice has no VAT breakdown (BG-23)");
  const s = inv.seller;
  if (s && !has(s.vatId) && !has(s.legalId) && !s.ids.some((i) => has(i) && i.attrs.schemeID !== "SEPA")) {
    r.fail("BR-CO-26", s.at, "the seller needs an identifier (BT-29), a legal registration identifier (BT-30) or a VAT identifier (BT-31)");
  }
}

/** EN 16931's core rules. */
export function en16931Core(inv: SemInvoice, r: Report) {
  mandatory(inv, r);
  conditions(inv, r);
}
