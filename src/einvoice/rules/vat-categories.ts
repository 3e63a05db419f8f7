// EN 16931's rules of each VAT category (BR-S-*, BR-Z-*, BR-E-*, BR-AE-*, BR-IC-* for K, BR-G-*,
// BR-O-*, BR-AF-* for L (IGIC), BR-AG-* for M (IPSI)) in our words: a used category has its
// breakdown, the parties carry the identifiers it needs, its rate, and its breakdown adds up.
import { type Dec, format } from "../decimal";
import { has, type SemInvoice } from "../semantic";
import { cents, num, num0, type Report, usedCategories } from "./report";

interface Category {
  code: string;
  prefix: string;
  name: string;
  /** The rate: above 0, exactly 0, 0 or more, or none at all. */
  rate: "positive" | "zero" | "any" | "none";
  /** The identifiers the parties must (or must not) carry. */
  parties: "seller" | "reverse" | "intra" | "export" | "none";
  /** The breakdown carries an exemption reason (true), must not (false). */
  exemption: boolean;
  /** Tax is computed from the rate (S, L, M) or is 0. */
  taxed: boolean;
}

const CATEGORIES: Category[] = [
  { code: "S", prefix: "BR-S", name: "standard rated", rate: "positive", parties: "seller", exemption: false, taxed: true },
  { code: "Z", prefix: "BR-Z", name: "zero rated", rate: "zero", parties: "seller", exemption: false, taxed: false },
  { code: "E", prefix: "BR-E", name: "exempt from VAT", rate: "zero", parties: "seller", exemption: true, taxed: false },
  { code: "AE", prefix: "BR-AE", name: "reverse charge", rate: "zero", parties: "reverse", exemption: true, taxed: false },
  { code: "K", prefix: "BR-IC", name: "intra-community supply", rate: "zero", parties: "intra", exemption: true, taxed: false },
  { code: "G", prefix: "BR-G", name: "export outside the EU", rate: "zero", parties: "export", exemption: true, taxed: false },
  { code: "O", prefix: "BR-O", name: "not subject to VAT", rate: "none", parties: "none", exemption: true, taxed: false },
  { code: "L", prefix: "BR-AF", name: "IGIC (Canary Islands)", rate: "any", parties: "seller", exemption: false, taxed: true },
  { code: "M", prefix: "BR-AG", name: "IPSI (Ceuta and Melilla)", rate: "any", parties: "seller", exemption: false, taxed: true },
];

const ONE = 10n ** 12n;
const abs = (d: Dec) => (d < 0n ? -d : d);
const show = (d: Dec) => format(d, 2);

function partiesOk(inv: SemInvoice, c: Category): boolean {
  const s = inv.seller;
  const repVat = has(inv.taxRepresentative?.vatId);
  const sellerVat = has(s?.vatId) || repVat;
  const sellerTax = sellerVat || has(s?.taxRegId);
  switch (c.parties) {
    case "seller":
      return sellerTax;
    case "reverse":
      return sellerTax && (has(inv.buyer?.vatId) || has(inv.buyer?.legalId));
    case "intra":
      return sellerVat && has(inv.buyer?.vatId);
    case "export":
      return sellerVat;
    case "none":
      return !has(s?.vatId) && !repVat && !has(inv.buyer?.vatId);
  }
}

const PARTIES_TEXT: Record<Category["parties"], string> = {
  seller:
    "the seller VAT identifier (BT-31), the seller tax registration identifier (BT-32) or the tax representative VAT identifier (BT-63)",
  reverse:
    "the seller's VAT or tax registration identifier (BT-31/BT-32/BT-63) and the buyer VAT identifier (BT-48) or legal registration identifier (BT-47)",
  intra: "the seller VAT identifier (BT-31 or BT-63) and the buyer VAT identifier (BT-48)",
  export: "the seller VAT identifier (BT-31) or the tax representative VAT identifier (BT-63)",
  none: "no seller, tax representative or buyer VAT identifier",
};

function rateOk(c: Category, rate: Dec | undefined, present: boolean): boolean {
  switch (c.rate) {
    case "positive":
      return rate !== undefined && rate > 0n;
    case "zero":
      return rate !== undefined && rate === 0n;
    case "any":
      return rate !== undefined && rate >= 0n;
    case "none":
      return !present;
  }
}

function category(inv: SemInvoice, r: Report, c: Category) {
  const used = usedCategories(inv).filter((u) => u.code === c.code);
  const groups = inv.vat.filter((v) => v.category?.v === c.code);
  const multi = c.taxed;
  // A breakdown group no line, allowance or charge uses: UBL's binding refuses it for S, CII's for the others.
  const groupsOk =
    used.length > 0
      ? multi
        ? groups.length >= 1
        : groups.length === 1
      : groups.length === 0 || (multi ? inv.syntax === "cii" : inv.syntax === "ubl");
  if (!groupsOk) {
    r.fail(
      `${c.prefix}-01`,
      groups[0]?.at ?? inv.at,
      used.length > 0
        ? `VAT category ${c.code} (${c.name}) is used, so the VAT breakdown needs ${multi ? "at least one group" : "exactly one group"} with it (found ${groups.length})`
        : `the VAT breakdown has category ${c.code} (${c.name}) but no line, allowance or charge uses it`,
    );
  }
  const kinds = { line: "02", allowance: "03", charge: "04" } as const;
  if (!partiesOk(inv, c)) {
    for (const kind of ["line", "allowance", "charge"] as const) {
      const first = used.find((u) => u.kind === kind);
      if (first)
        r.fail(
          `${c.prefix}-${kinds[kind]}`,
          first.at,
          `an invoice with a ${kind} in VAT category ${c.code} (${c.name}) needs ${PARTIES_TEXT[c.parties]}`,
        );
    }
  }
  const rateRules = { line: "05", allowance: "06", charge: "07" } as const;
  for (const u of used) {
    if (!rateOk(c, num(u.rate), has(u.rate))) {
      const want = { positive: "above 0", zero: "0", any: "0 or more", none: "absent" }[c.rate];
      r.fail(
        `${c.prefix}-${rateRules[u.kind]}`,
        u.rate?.at ?? u.at,
        `in VAT category ${c.code} (${c.name}) the ${u.kind} VAT rate must be ${want}${u.rate ? ` (it is ${u.rate.v})` : ""}`,
      );
    }
  }
  for (const g of groups) {
    const rate = num(g.rate);
    const sameRate = (f: { rate?: import("../semantic").Field }) => !multi || (rate !== undefined && num(f.rate) === rate);
    const lines = inv.lines.filter((l) => l.tax?.category?.v === c.code && sameRate(l.tax));
    const charges = inv.charges.filter((x) => x.tax?.category?.v === c.code && sameRate(x.tax!));
    const allowances = inv.allowances.filter((x) => x.tax?.category?.v === c.code && sameRate(x.tax!));
    const expected =
      cents(lines.reduce((s, l) => s + num0(l.net), 0n)) +
      cents(charges.reduce((s, x) => s + num0(x.amount), 0n)) -
      cents(allowances.reduce((s, x) => s + num0(x.amount), 0n));
    const taxable = num(g.taxable);
    if (taxable !== undefined) {
      const off = multi ? abs(taxable - expected) >= ONE || lines.length + charges.length + allowances.length === 0 : taxable !== expected;
      if (off) {
        r.fail(
          `${c.prefix}-08`,
          g.taxable!.at,
          `the taxable amount (BT-116) of VAT category ${c.code}${multi && g.rate ? ` at ${g.rate.v} %` : ""} is ${g.taxable!.v}, but its lines, charges and allowances add up to ${show(expected)}`,
        );
      }
    }
    const tax = num(g.tax);
    if (tax === undefined) r.fail(`${c.prefix}-09`, g.at, `the tax amount (BT-117) of VAT category ${c.code} is missing`);
    else {
      if (c.taxed) {
        if (rate !== undefined && taxable !== undefined) {
          const want = cents((abs(taxable) * rate) / (100n * ONE));
          if (abs(abs(tax) - want) >= ONE)
            r.fail(
              `${c.prefix}-09`,
              g.tax!.at,
              `the tax amount (BT-117) of VAT category ${c.code} is ${g.tax!.v}, but taxable amount × rate is ${show(want)}`,
            );
        }
      } else if (tax !== 0n)
        r.fail(`${c.prefix}-09`, g.tax!.at, `the tax amount (BT-117) of VAT category ${c.code} (${c.name}) must be 0 (it is ${g.tax!.v})`);
    }
    const reason = g.reason !== undefined || g.reasonCode !== undefined;
    if (c.exemption && !reason)
      r.fail(
        `${c.prefix}-10`,
        g.at,
        `the VAT breakdown of category ${c.code} (${c.name}) needs an exemption reason (BT-120) or reason code (BT-121)`,
      );
    if (!c.exemption && reason)
      r.fail(
        `${c.prefix}-10`,
        (g.reason ?? g.reasonCode)!.at,
        `the VAT breakdown of category ${c.code} (${c.name}) has no exemption reason (BT-120) or reason code (BT-121)`,
      );
  }
}

/** Not subject to VAT (O) excludes every other category; intra-community supply (K) needs delivery data. */
function exclusions(inv: SemInvoice, r: Report) {
  if (inv.vat.some((v) => v.category?.v === "O")) {
    for (const v of inv.vat)
      if (v.category && v.category.v !== "O")
        r.fail(
          "BR-O-11",
          v.category.at,
          "with a VAT breakdown of category O (not subject to VAT) there can be no other VAT breakdown group",
        );
    for (const l of inv.lines)
      if (l.tax?.category && l.tax.category.v !== "O")
        r.fail("BR-O-12", l.tax.category.at, "with category O (not subject to VAT) in the breakdown, every line is in category O");
    for (const a of inv.allowances)
      if (a.tax?.category && a.tax.category.v !== "O")
        r.fail(
          "BR-O-13",
          a.tax.category.at,
          "with category O (not subject to VAT) in the breakdown, every document level allowance is in category O",
        );
    for (const c of inv.charges)
      if (c.tax?.category && c.tax.category.v !== "O")
        r.fail(
          "BR-O-14",
          c.tax.category.at,
          "with category O (not subject to VAT) in the breakdown, every document level charge is in category O",
        );
  }
  if (inv.vat.some((v) => v.category?.v === "K")) {
    if (!has(inv.delivery?.date) && !inv.period)
      r.fail("BR-IC-11", inv.at, "an intra-community supply (K) needs the actual delivery date (BT-72) or the invoicing period (BG-14)");
    if ((inv.delivery?.address?.country?.v.length ?? 0) < 2)
      r.fail("BR-IC-12", inv.delivery?.at ?? inv.at, "an intra-community supply (K) needs the deliver to country code (BT-80)");
  }
}

/** All VAT category rules. */
export function vatCategories(inv: SemInvoice, r: Report) {
  for (const c of CATEGORIES) category(inv, r, c);
  exclusions(inv, r);
}
