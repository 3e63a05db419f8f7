// EN 16931's code-list rules (BR-CL-*) in our words: each coded value is one of its list's codes,
// generated into code-lists.ts.
import {
  COUNTRIES,
  CURRENCIES,
  DOCUMENT_TYPES,
  EAS,
  EXEMPTION_REASONS,
  ICD,
  ITEM_CLASSIFICATIONS,
  NOTE_SUBJECTS,
  PAYMENT_MEANS,
  UNITS,
  VAT_CATEGORIES,
} from "../code-lists";
import { type Field, has, type SemInvoice } from "../semantic";
import type { Report } from "./report";

function code(r: Report, rule: string, f: Field | undefined, list: ReadonlySet<string>, what: string, anyCase = false) {
  if (f && has(f) && !list.has(anyCase ? f.v.toUpperCase() : f.v)) r.fail(rule, f.at, `${what} '${f.v}' is not in its code list`);
}

function scheme(
  r: Report,
  rule: string,
  f: Field | undefined,
  attr: string,
  list: ReadonlySet<string>,
  what: string,
  extra: string[] = [],
) {
  const s = f?.attrs[attr];
  if (f && s !== undefined && !list.has(s) && !extra.includes(s))
    r.fail(rule, `${f.at}/@${attr}`, `the scheme '${s}' of ${what} is not in its code list`);
}

/** The code-list rules. */
export function codeLists(inv: SemInvoice, r: Report) {
  for (const n of inv.notes) code(r, "BR-CL-08", n.subject, NOTE_SUBJECTS, "the invoice note subject code (BT-21, UNTDID 4451)");
  // A VAT identifier starts with its country's code (Greece: EL).
  for (const f of [inv.seller?.vatId, inv.taxRepresentative?.vatId, inv.buyer?.vatId]) {
    if (f && has(f) && !COUNTRIES.has(f.v.slice(0, 2)) && f.v.slice(0, 2) !== "EL") {
      r.fail("BR-CO-09", f.at, `the VAT identifier '${f.v}' does not start with a country code prefix (ISO 3166-1 alpha-2, EL for Greece)`);
    }
  }
  code(r, "BR-CL-01", inv.typeCode, DOCUMENT_TYPES, "the invoice type code (BT-3, UNTDID 1001)");
  code(r, "BR-CL-04", inv.currency, CURRENCIES, "the invoice currency code (BT-5, ISO 4217)");
  code(r, "BR-CL-05", inv.taxCurrency, CURRENCIES, "the VAT accounting currency code (BT-6, ISO 4217)");
  for (const a of inv.amounts) {
    const c = a.attrs.currencyID!;
    if (!CURRENCIES.has(c)) r.fail("BR-CL-03", `${a.at}/@currencyID`, `the currency '${c}' is not an ISO 4217 code`);
  }
  for (const p of [inv.seller, inv.buyer, inv.payee]) {
    for (const id of p?.ids ?? []) scheme(r, "BR-CL-10", id, "schemeID", ICD, "a party identifier (ISO 6523 ICD)", ["SEPA"]);
    scheme(r, "BR-CL-11", p?.legalId, "schemeID", ICD, "a legal registration identifier (ISO 6523 ICD)");
    scheme(r, "BR-CL-25", p?.endpoint, "schemeID", EAS, "an electronic address (EAS)");
  }
  for (const p of [inv.seller, inv.buyer, inv.taxRepresentative])
    code(r, "BR-CL-14", p?.address?.country, COUNTRIES, "the country code (ISO 3166-1)");
  code(r, "BR-CL-14", inv.delivery?.address?.country, COUNTRIES, "the deliver to country code (BT-80, ISO 3166-1)");
  scheme(r, "BR-CL-26", inv.delivery?.locationId, "schemeID", ICD, "the deliver to location identifier (ISO 6523 ICD)");
  for (const pm of inv.paymentMeans) code(r, "BR-CL-16", pm.code, PAYMENT_MEANS, "the payment means code (BT-81, UNTDID 4461)");
  for (const ac of [...inv.allowances, ...inv.charges])
    code(r, "BR-CL-17", ac.tax?.category, VAT_CATEGORIES, "the VAT category code (UNTDID 5305)");
  for (const v of inv.vat) {
    code(r, "BR-CL-17", v.category, VAT_CATEGORIES, "the VAT category code (BT-118, UNTDID 5305)");
    code(r, "BR-CL-22", v.reasonCode, EXEMPTION_REASONS, "the VAT exemption reason code (BT-121, VATEX)", true);
  }
  for (const l of inv.lines) {
    code(r, "BR-CL-18", l.tax?.category, VAT_CATEGORIES, "the invoiced item VAT category code (BT-151, UNTDID 5305)");
    code(r, "BR-CL-15", l.originCountry, COUNTRIES, "the item country of origin (BT-159, ISO 3166-1)");
    scheme(r, "BR-CL-21", l.standardId, "schemeID", ICD, "the item standard identifier (ISO 6523 ICD)");
    for (const c of l.classifications)
      scheme(r, "BR-CL-13", c, "listID", ITEM_CLASSIFICATIONS, "the item classification identifier (UNTDID 7143)");
    code(r, "BR-CL-23", l.unit, UNITS, "the unit of measure (BT-130, UN/ECE Rec 20/21)");
  }
}
