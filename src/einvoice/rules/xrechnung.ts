// XRechnung 3.0's rules (BR-DE-*), the German CIUS, in our words: run in addition to EN 16931's when
// the specification identifier names XRechnung (or when asked for).
import { has, type SemAddress, type SemInvoice } from "../semantic";
import type { Report } from "./report";

const TAX_CODES = new Set(["S", "Z", "E", "AE", "K", "G", "L", "M"]);
const TYPE_CODES = new Set(["326", "380", "384", "389", "381", "875", "876", "877"]);
const XRECHNUNG_IDS = [
  "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0",
  "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0",
  "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0#compliant#urn:xeinkauf.de:kosit:xrechnung:cvd_0.9",
];

/** An IBAN whose ISO 7064 mod-97 check digits are right. */
export function ibanOk(value: string): boolean {
  const s = value.replace(/\s/g, "");
  if (!/^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{0,30}$/.test(s)) return false;
  const digits = `${s.slice(4)}${s.slice(0, 4)}`.toUpperCase().replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return rest === 1;
}

const SKONTO = /^#SKONTO#TAGE=[0-9]+#PROZENT=[0-9]+\.[0-9]{2}(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$/;

/**
 * BR-DE-18: cash discount (Skonto) lines in the payment terms (BT-20) follow KoSIT's form,
 * #SKONTO#TAGE=n#PROZENT=p.pp#[BASISBETRAG=b.bb#], and a line break ends the last one.
 */
function skonto(inv: SemInvoice, r: Report) {
  const text = inv.paymentTerms?.v;
  if (!text) return;
  const raw = inv.paymentTerms!.raw ?? text;
  const lines = raw
    .split(/\r?\n/)
    .map((l) => l.trim().replace(/\s+/g, " "))
    .filter((l) => l.startsWith("#"));
  if (lines.length === 0) return;
  const segments = raw.split(/#[^\n\r]+#/);
  const ok = lines.every((l) => SKONTO.test(l)) && /^\s*\n/.test(segments[segments.length - 1]!);
  if (!ok)
    r.fail(
      "BR-DE-18",
      inv.paymentTerms!.at,
      "cash discount lines in the payment terms (BT-20) must read #SKONTO#TAGE=n#PROZENT=p.pp# (optionally #BASISBETRAG=b.bb#), each ended by a line break",
    );
}

/** BR-DE-30/31: a direct debit (BG-19) needs the creditor identifier (BT-90) and the debited account (BT-91). */
function directDebit(inv: SemInvoice, r: Report) {
  const mandate = inv.paymentMeans.some((pm) => pm.mandate);
  const debited = inv.paymentMeans.some((pm) => pm.debitedAccount);
  const creditor = inv.creditorId !== undefined;
  const exists = inv.syntax === "ubl" ? mandate || debited : mandate || debited || creditor;
  if (!exists) return;
  if (!creditor) r.fail("BR-DE-30", inv.at, "a direct debit (BG-19) needs the bank assigned creditor identifier (BT-90)");
  if (!debited) r.fail("BR-DE-31", inv.at, "a direct debit (BG-19) needs the debited account identifier (BT-91)");
}

/** The XRechnung rules. */
export function xrechnung(inv: SemInvoice, r: Report) {
  skonto(inv, r);
  directDebit(inv, r);
  const names = inv.documents.flatMap((d) => (d.filename ? [d.filename] : []));
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n.v)) r.fail("BR-DE-22", n.at, `the attachment file name '${n.v}' is used twice: file names must be unique`);
    seen.add(n.v);
  }
  if (inv.paymentMeans.length === 0) r.fail("BR-DE-1", inv.at, "an XRechnung needs payment instructions (BG-16)");
  if (!has(inv.buyerReference)) r.fail("BR-DE-15", inv.at, "an XRechnung needs the buyer reference (BT-10), e.g. the Leitweg-ID");
  const s = inv.seller;
  const used = [
    ...inv.lines.map((l) => l.tax?.category),
    ...inv.allowances.map((a) => a.tax?.category),
    ...inv.charges.map((c) => c.tax?.category),
  ];
  if (used.some((c) => c && TAX_CODES.has(c.v)) && !inv.taxRepresentative && !has(s?.vatId) && !has(s?.taxRegId)) {
    r.fail(
      "BR-DE-16",
      s?.at ?? inv.at,
      "with VAT categories S, Z, E, AE, K, G, L or M the seller VAT identifier (BT-31), tax number (BT-32) or tax representative (BG-11) is needed",
    );
  }
  if (inv.typeCode && !TYPE_CODES.has(inv.typeCode.v))
    r.warn(
      "BR-DE-17",
      inv.typeCode.at,
      `the invoice type code (BT-3) should be one of ${[...TYPE_CODES].join(", ")} (it is ${inv.typeCode.v})`,
    );
  if (inv.customization && !XRECHNUNG_IDS.includes(inv.customization.v))
    r.warn("BR-DE-21", inv.customization.at, "the specification identifier (BT-24) should be XRechnung's");
  if (inv.typeCode?.v === "384" && inv.preceding.length === 0)
    r.warn("BR-DE-26", inv.typeCode.at, "a corrected invoice (384) should reference the preceding invoice (BG-3)");
  if (!s?.contact) r.fail("BR-DE-2", s?.at ?? inv.at, "an XRechnung needs the seller contact (BG-6)");
  else {
    const c = s.contact;
    if (!has(c.name)) r.fail("BR-DE-5", c.at, "the seller contact point (BT-41) is missing");
    if (!has(c.phone)) r.fail("BR-DE-6", c.at, "the seller contact telephone number (BT-42) is missing");
    if (!has(c.email)) r.fail("BR-DE-7", c.at, "the seller contact e-mail address (BT-43) is missing");
    if (has(c.phone) && !/(.*\d){3,}/.test(c.phone.v))
      r.warn("BR-DE-27", c.phone.at, "the seller contact telephone number (BT-42) should have at least three digits");
    if (has(c.email) && !/^[^@\s.][^@\s]*[^@\s.]@[^@\s.][^@\s]*\.[^@\s]*[^@\s.]$/.test(c.email.v)) {
      r.warn(
        "BR-DE-28",
        c.email.at,
        "the seller contact e-mail address (BT-43) should have exactly one @ with at least two characters on each side",
      );
    }
  }
  const addr = (a: SemAddress | undefined, city: string, post: string, who: string) => {
    if (!a) return;
    if (!has(a.city)) r.fail(city, a.at, `the ${who} city is missing`);
    if (!has(a.postcode)) r.fail(post, a.at, `the ${who} post code is missing`);
  };
  addr(s?.address, "BR-DE-3", "BR-DE-4", "seller");
  addr(inv.buyer?.address, "BR-DE-8", "BR-DE-9", "buyer");
  addr(inv.delivery?.address, "BR-DE-10", "BR-DE-11", "deliver to");
  for (const v of inv.vat) if (!has(v.rate)) r.fail("BR-DE-14", v.at, "the VAT category rate (BT-119) is missing");
  for (const pm of inv.paymentMeans) {
    const code = pm.code?.v;
    if (code === "30" || code === "58") {
      if (pm.transfers.length === 0) r.fail("BR-DE-23-a", pm.at, "a credit transfer (30, 58) needs the credit transfer group (BG-17)");
      if (pm.card || pm.mandate) r.fail("BR-DE-23-b", pm.at, "a credit transfer (30, 58) carries no card (BG-18) or direct debit (BG-19)");
      if (code === "58" && !pm.transfers.every((t) => t.account && ibanOk(t.account.v)))
        r.warn("BR-DE-19", pm.at, "the payment account identifier (BT-84) should be a correct IBAN for SEPA credit transfer (58)");
    } else if (code === "48" || code === "54" || code === "55") {
      if (!pm.card) r.fail("BR-DE-24-a", pm.at, "a card payment (48, 54, 55) needs the payment card information (BG-18)");
      if (pm.transfers.length > 0 || pm.mandate)
        r.fail("BR-DE-24-b", pm.at, "a card payment (48, 54, 55) carries no credit transfer (BG-17) or direct debit (BG-19)");
    } else if (code === "59") {
      if (!pm.mandate && !pm.debitedAccount) r.fail("BR-DE-25-a", pm.at, "a direct debit (59) needs the direct debit group (BG-19)");
      if (pm.transfers.length > 0 || pm.card)
        r.fail("BR-DE-25-b", pm.at, "a direct debit (59) carries no credit transfer (BG-17) or card (BG-18)");
      if (pm.debitedAccount && !ibanOk(pm.debitedAccount.v))
        r.warn(
          "BR-DE-20",
          pm.debitedAccount.at,
          "the debited account identifier (BT-91) should be a correct IBAN for SEPA direct debit (59)",
        );
    }
  }
  if (!has(inv.delivery?.date) && !inv.period && !(inv.lines.length > 0 && inv.lines.every((l) => l.period))) {
    r.warn(
      "BR-DE-TMP-32",
      inv.at,
      "an invoice should give the delivery or service date: the actual delivery date (BT-72), the invoicing period (BG-14) or a period on every line (BG-26)",
    );
  }
}
