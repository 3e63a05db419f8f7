// What every rule family shares: the report findings go into, and reading the document's numbers.
import { type Dec, parseDec, round } from "../decimal";
import type { Field, Finding, SemInvoice } from "../semantic";

/** The rule sets, each with the version of the official rules whose meaning ours follow. */
export const RULE_SETS = {
  en16931: "EN 16931 validation 1.3.16",
  xrechnung: "XRechnung 3.0 (schematron 2.5.0)",
  peppol: "Peppol BIS Billing 3.0.19",
} as const;
export type RuleSetId = keyof typeof RULE_SETS;

/** Collects the findings of one check. */
export class Report {
  readonly findings: Finding[] = [];
  fail(rule: string, location: string, message: string, flag: Finding["flag"] = "fatal") {
    this.findings.push({ rule, location, message, flag });
  }
  warn(rule: string, location: string, message: string) {
    this.fail(rule, location, message, "warning");
  }
}

/** A rule family: checks one invoice and reports what it breaks. */
export type Rules = (inv: SemInvoice, r: Report) => void;

const XS_DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** The decimal value of a field (xs:decimal), or undefined when absent, blank or not a number. */
export function num(f: Field | undefined): Dec | undefined {
  if (!f || f.v === "") return undefined;
  const m = XS_DECIMAL.exec(f.v);
  if (!m || (m[2] === "" && !m[3])) return undefined;
  const whole = m[2]!.replace(/^0+(?=\d)/, "") || "0";
  const frac = (m[3] ?? "").slice(0, 12);
  return parseDec(`${m[1] === "-" ? "-" : ""}${whole.slice(-18)}${frac ? `.${frac}` : ""}`)?.value;
}

/** A field's number, 0 when absent. */
export const num0 = (f: Field | undefined): Dec => num(f) ?? 0n;

/** Rounded to cents, as the official rules round sums (round(x * 100) div 100). */
export const cents = (d: Dec): Dec => round(d, 2);

/** The number of decimals a field's text carries. */
export const decimals = (f: Field): number => {
  const dot = f.v.indexOf(".");
  return dot < 0 ? 0 : f.v.length - dot - 1;
};

/** All invoice-level and line-level VAT categories (BT-95, BT-102, BT-151) with where they are. */
export function usedCategories(inv: SemInvoice): { code: string; rate?: Field; at: string; kind: "line" | "allowance" | "charge" }[] {
  const out: { code: string; rate?: Field; at: string; kind: "line" | "allowance" | "charge" }[] = [];
  for (const l of inv.lines)
    if (l.tax?.category) out.push({ code: l.tax.category.v, rate: l.tax.rate, at: l.tax.category.at, kind: "line" });
  for (const a of inv.allowances)
    if (a.tax?.category) out.push({ code: a.tax.category.v, rate: a.tax.rate, at: a.tax.category.at, kind: "allowance" });
  for (const c of inv.charges)
    if (c.tax?.category) out.push({ code: c.tax.category.v, rate: c.tax.rate, at: c.tax.category.at, kind: "charge" });
  return out;
}
