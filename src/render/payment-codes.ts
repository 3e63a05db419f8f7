// The payloads of the two payment QR codes invoices carry, built and checked for templates:
//   - EPC069-12 v3.1 "SEPA credit transfer" QR (GiroCode): version 002, UTF-8;
//   - the Swiss QR-bill's QR code (SIX "Swiss Implementation Guidelines for the QR-bill" v2.3: SPC 0200,
//     structured addresses "S").
// Every field is checked against its standard, and a bad one is named in the error, so a template
// cannot print a code that a bank app rejects (or, worse, a wrong IBAN that passes a glance).
import { BarcodeError } from "./barcodes";

type Fields = Record<string, unknown>;

function fail(helper: string, problem: string): never {
  throw new BarcodeError(`${helper}: ${problem}`);
}

/** The IBAN without spaces, upper-case, after its ISO 13616 mod-97 check; otherwise an error naming it. */
export function checkIban(helper: string, value: unknown, field = "iban"): string {
  if (typeof value !== "string") fail(helper, `${field} must be a string`);
  const iban = value.replace(/\s+/g, "").toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban))
    fail(helper, `${field} "${value.slice(0, 40)}" is not an IBAN (two letters, two check digits, then 11 to 30 letters or digits)`);
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  if (rest !== 1) fail(helper, `${field} "${value.slice(0, 40)}" has a wrong check digit (ISO 13616 mod-97 check fails)`);
  return iban;
}

function text(helper: string, f: Fields, name: string, max: number, required = false): string {
  const v = f[name];
  if (v === undefined || v === null || v === "") {
    if (required) fail(helper, `${name} is required`);
    return "";
  }
  if (typeof v !== "string") fail(helper, `${name} must be a string`);
  if (/[\r\n]/.test(v)) fail(helper, `${name} must be one line`);
  if ([...v].length > max) fail(helper, `${name} has ${[...v].length} characters; at most ${max} are allowed`);
  return v.trim();
}

function amount(helper: string, f: Fields, min: number, max: number): string {
  const v = f.amount;
  if (v === undefined || v === null || v === "") return "";
  const n = typeof v === "string" && /^\d+(\.\d{1,2})?$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n) || Math.round(n * 100) !== Math.round(n * 1e6) / 1e4)
    fail(helper, `amount must be a number with at most two decimals, not ${JSON.stringify(v)?.slice(0, 40)}`);
  if (n < min || n > max) fail(helper, `amount must be from ${min} to ${max}`);
  return n.toFixed(2);
}

/** A reference as printed (in groups, any case), without its spaces, upper-case, at most `max` characters. */
function compactReference(helper: string, f: Fields, max: number): string {
  const ref = text(helper, f, "reference", 2 * max)
    .replace(/\s+/g, "")
    .toUpperCase();
  if (ref.length > max) fail(helper, `reference has ${ref.length} characters without spaces; at most ${max} are allowed`);
  return ref;
}

/** ISO 11649 creditor reference ("RF" + 2 check digits + up to 21 characters), mod-97 like an IBAN. */
function isCreditorReference(ref: string): boolean {
  if (!/^RF\d{2}[A-Z0-9]{1,21}$/.test(ref)) return false;
  const digits = (ref.slice(4) + ref.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return rest === 1;
}

function only(helper: string, f: Fields, known: string[]): void {
  if (f === null || typeof f !== "object" || Array.isArray(f)) fail(helper, "expects an object of fields");
  for (const k of Object.keys(f)) if (!known.includes(k)) fail(helper, `unknown field "${k.slice(0, 40)}" (known: ${known.join(", ")})`);
}

const EPC_FIELDS = ["name", "iban", "bic", "amount", "currency", "remittance", "reference", "purpose", "information"];

/**
 * EPC069-12 payload: BCD / 002 / 1 (UTF-8) / SCT / BIC / name / IBAN / EUR amount / purpose /
 * structured reference or unstructured remittance / information, one per line.
 */
export function epcPayload(f: Fields): string {
  const h = "epcQr";
  only(h, f, EPC_FIELDS);
  const currency = f.currency ?? "EUR";
  if (currency !== "EUR") fail(h, 'currency must be "EUR": the EPC QR code is for SEPA credit transfers in euro');
  const name = text(h, f, "name", 70, true);
  const iban = checkIban(h, f.iban);
  const bic = text(h, f, "bic", 11).toUpperCase();
  if (bic && !/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) fail(h, `bic "${bic}" is not a BIC (8 or 11 letters and digits)`);
  const sum = amount(h, f, 0.01, 999999999.99);
  const purpose = text(h, f, "purpose", 4).toUpperCase();
  if (purpose && !/^[A-Z]{4}$/.test(purpose)) fail(h, "purpose must be a four-letter ISO 20022 purpose code");
  const reference = compactReference(h, f, 35);
  const remittance = text(h, f, "remittance", 140);
  if (reference && remittance) fail(h, "give either reference (structured, RF…) or remittance (free text), not both");
  if (reference && !isCreditorReference(reference)) fail(h, `reference "${reference}" is not an ISO 11649 creditor reference (RF…)`);
  const info = text(h, f, "information", 70);
  const lines = ["BCD", "002", "1", "SCT", bic, name, iban, sum ? `EUR${sum}` : "", purpose, reference, remittance, info];
  const payload = lines.join("\n").replace(/\n+$/, "");
  if (new TextEncoder().encode(payload).length > 331) fail(h, "the fields are longer than the 331 bytes an EPC QR code may hold");
  return payload;
}

const ADDRESS_FIELDS = ["name", "street", "buildingNumber", "postalCode", "town", "country"];

function address(h: string, v: unknown, field: string, required: boolean): string[] {
  if (v === undefined || v === null) {
    if (required) fail(h, `${field} is required ({name, street?, buildingNumber?, postalCode, town, country})`);
    return ["", "", "", "", "", "", ""];
  }
  only(`${h}: ${field}`, v as Fields, ADDRESS_FIELDS);
  const a = v as Fields;
  const p = `${h}: ${field}`;
  const country = text(p, a, "country", 2, true).toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) fail(p, "country must be a two-letter ISO 3166 code");
  return [
    "S",
    text(p, a, "name", 70, true),
    text(p, a, "street", 70),
    text(p, a, "buildingNumber", 16),
    text(p, a, "postalCode", 16, true),
    text(p, a, "town", 35, true),
    country,
  ];
}

/** The QRR reference's check digit: modulo 10, recursive (the Swiss ISR/ESR algorithm). */
function qrrCheckDigit(digits: string): number {
  const table = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5];
  let carry = 0;
  for (const d of digits) carry = table[(carry + Number(d)) % 10]!;
  return (10 - carry) % 10;
}

const SWISS_FIELDS = ["iban", "creditor", "amount", "currency", "debtor", "reference", "message", "billInformation"];

/** The Swiss QR-bill's QR payload (SPC 0200), lines separated by LF as the guidelines allow. */
export function swissQrBillPayload(f: Fields): string {
  const h = "swissQrBill";
  only(h, f, SWISS_FIELDS);
  const iban = checkIban(h, f.iban);
  if (!/^(CH|LI)/.test(iban)) fail(h, "iban must be a Swiss or Liechtenstein IBAN (CH… or LI…)");
  const iid = Number(iban.slice(4, 9));
  const qrIban = iid >= 30000 && iid <= 31999;
  const currency = f.currency ?? "CHF";
  if (currency !== "CHF" && currency !== "EUR") fail(h, 'currency must be "CHF" or "EUR"');
  const sum = amount(h, f, 0.01, 999999999.99);
  const reference = compactReference(h, f, 27);
  let refType = "NON";
  if (qrIban) {
    if (!/^\d{27}$/.test(reference)) fail(h, "a QR-IBAN needs a QR reference: 27 digits (field reference)");
    if (qrrCheckDigit(reference.slice(0, 26)) !== Number(reference[26]))
      fail(h, `reference "${reference}" has a wrong check digit (modulo 10, recursive)`);
    refType = "QRR";
  } else if (reference) {
    if (/^\d+$/.test(reference)) fail(h, "a QR reference (27 digits) needs a QR-IBAN; this IBAN takes an RF creditor reference or none");
    if (!isCreditorReference(reference)) fail(h, `reference "${reference}" is not an ISO 11649 creditor reference (RF…)`);
    refType = "SCOR";
  }
  const message = text(h, f, "message", 140);
  const bill = text(h, f, "billInformation", 140);
  if (message.length + bill.length > 140) fail(h, "message and billInformation together may hold at most 140 characters");
  const lines = [
    "SPC",
    "0200",
    "1",
    iban,
    ...address(h, f.creditor, "creditor", true),
    ...["", "", "", "", "", "", ""],
    sum,
    currency as string,
    ...address(h, f.debtor, "debtor", false),
    refType,
    refType === "NON" ? "" : reference,
    message,
    "EPD",
  ];
  if (bill) lines.push(bill);
  return lines.join("\n");
}
