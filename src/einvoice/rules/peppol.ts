// Peppol BIS Billing 3.0's rules (PEPPOL-EN16931-R*) in our words. `xrechnungPeppol` is the subset that
// XRechnung adopts; `peppol` adds the rest for documents that name Peppol's specification identifier.
import { format } from "../decimal";
import { has, type SemInvoice } from "../semantic";
import { cents, num, num0, type Report } from "./report";

const ONE = 10n ** 12n;
const abs = (d: bigint) => (d < 0n ? -d : d);

/** The Peppol rules XRechnung runs too. */
export function xrechnungPeppol(inv: SemInvoice, r: Report, lineNetFlag: "fatal" | "warning" = "warning") {
  for (const at of inv.emptyElements) r.fail("PEPPOL-EN16931-R008", at, "the document must not contain empty elements");
  if (!has(inv.profile)) r.fail("PEPPOL-EN16931-R001", inv.at, "the business process (BT-23) must be given");
  if (
    inv.syntax === "ubl" ? inv.breakdownTaxTotals !== 1 : inv.taxTotals.filter((t) => t.attrs.currencyID === inv.currency?.v).length > 1
  ) {
    r.fail(
      "PEPPOL-EN16931-R053",
      inv.totals?.at ?? inv.at,
      "only one tax total with a VAT breakdown, in the invoice currency, may be given",
    );
  }
  if (has(inv.taxCurrency)) {
    const main = num(inv.taxTotals.find((t) => t.attrs.currencyID === inv.currency?.v));
    const accounting = num(inv.taxTotals.find((t) => t.attrs.currencyID === inv.taxCurrency!.v));
    if (main !== undefined && accounting !== undefined && main < 0n !== accounting < 0n && main !== 0n && accounting !== 0n) {
      r.fail(
        "PEPPOL-EN16931-R055",
        inv.totals?.at ?? inv.at,
        "the total VAT (BT-110) and the total VAT in accounting currency (BT-111) must have the same sign",
      );
    }
  }
  for (const ac of [...inv.allowances, ...inv.charges, ...inv.lines.flatMap((l) => [...l.allowances, ...l.charges])]) {
    if (ac.indicator && ac.indicator.v !== "true" && ac.indicator.v !== "false") {
      r.fail("PEPPOL-EN16931-R043", ac.indicator.at, "the charge indicator must be 'true' or 'false'");
    }
  }
  if (has(inv.taxCurrency) && inv.taxCurrency.v === inv.currency?.v) {
    r.fail("PEPPOL-EN16931-R005", inv.taxCurrency.at, "the VAT accounting currency (BT-6) must differ from the invoice currency (BT-5)");
  }
  if (!inv.buyer?.endpoint) r.fail("PEPPOL-EN16931-R010", inv.buyer?.at ?? inv.at, "the buyer electronic address (BT-49) must be given");
  if (!inv.seller?.endpoint) r.fail("PEPPOL-EN16931-R020", inv.seller?.at ?? inv.at, "the seller electronic address (BT-34) must be given");
  const others = inv.syntax === "ubl" ? inv.bareTaxTotals : inv.taxTotals.filter((t) => t.attrs.currencyID !== inv.currency?.v).length;
  if (others !== (has(inv.taxCurrency) ? 1 : 0)) {
    r.fail(
      "PEPPOL-EN16931-R054",
      inv.totals?.at ?? inv.at,
      "a tax total in another currency than the invoice's is given exactly when the VAT accounting currency (BT-6) is",
    );
  }
  for (const ac of [...inv.allowances, ...inv.charges, ...inv.lines.flatMap((l) => [...l.allowances, ...l.charges])]) {
    const base = num(ac.base);
    const pct = num(ac.percent);
    if (base !== undefined && pct !== undefined) {
      const want = (base * pct) / (100n * ONE);
      if (abs(num0(ac.amount) - want) > 2n * 10n ** 10n)
        r.fail("PEPPOL-EN16931-R040", ac.amount?.at ?? ac.at, `the amount must be base amount × percentage / 100 (${format(want, 2)})`);
    }
    if (pct !== undefined && base === undefined)
      r.fail("PEPPOL-EN16931-R041", ac.at, "an allowance or charge with a percentage needs its base amount");
    if (base !== undefined && pct === undefined)
      r.fail("PEPPOL-EN16931-R042", ac.at, "an allowance or charge with a base amount needs its percentage");
  }
  for (const pm of inv.paymentMeans)
    if (pm.code?.v === "59" && !has(pm.mandate)) r.fail("PEPPOL-EN16931-R061", pm.at, "a direct debit needs the mandate reference (BT-89)");
  for (const l of inv.lines) {
    if (l.priceDiscountIndicator && l.priceDiscountIndicator.v !== "false" && (inv.syntax === "ubl" || l.priceDiscount)) {
      r.fail(
        "PEPPOL-EN16931-R044",
        l.priceDiscountIndicator.at,
        "a charge on the item price is not allowed: the price discount's indicator must be 'false'",
      );
    }
    const gross = num(l.gross);
    if (gross !== undefined && num(l.price) !== undefined && num(l.price) !== gross - num0(l.priceDiscount)) {
      r.fail(
        "PEPPOL-EN16931-R046",
        l.price!.at,
        "the item net price (BT-146) must be the gross price (BT-148) minus the price discount (BT-147)",
      );
    }
    if (l.objectTypeCode && l.objectTypeCode.v !== "130") {
      r.fail(
        "PEPPOL-EN16931-R101",
        l.objectTypeCode.at,
        "a document reference on a line can only be an invoiced object (document type 130)",
      );
    }
    const base = num(l.priceBaseQuantity);
    if (base !== undefined && base <= 0n)
      r.fail("PEPPOL-EN16931-R121", l.priceBaseQuantity!.at, "the item price base quantity (BT-149) must be above 0");
    if (l.period && inv.period) {
      if (has(l.period.start) && has(inv.period.start) && l.period.start.v < inv.period.start.v)
        r.fail("PEPPOL-EN16931-R110", l.period.start.at, "the line period must start within the invoicing period");
      if (has(l.period.end) && has(inv.period.end) && l.period.end.v > inv.period.end.v)
        r.fail("PEPPOL-EN16931-R111", l.period.end.at, "the line period must end within the invoicing period");
    }
    const qty = num(l.quantity);
    const price = num(l.price);
    const net = num(l.net);
    if (qty !== undefined && price !== undefined && net !== undefined) {
      const per = base !== undefined && base > 0n ? base : ONE;
      const want =
        (qty * price) / per + l.charges.reduce((s, c) => s + num0(c.amount), 0n) - l.allowances.reduce((s, a) => s + num0(a.amount), 0n);
      const slack = inv.currency?.v === "HUF" ? 5n * 10n ** 11n : 2n * 10n ** 10n;
      if (abs(net - want) > slack) {
        r.fail(
          "PEPPOL-EN16931-R120",
          l.net!.at,
          `the line net amount must be quantity × (price / base quantity) + charges − allowances (${format(cents(want), 2)})`,
          lineNetFlag,
        );
      }
    }
    if (l.priceBaseQuantity?.attrs.unitCode !== undefined && l.unit && l.priceBaseQuantity.attrs.unitCode !== l.unit.v) {
      r.fail("PEPPOL-EN16931-R130", l.priceBaseQuantity.at, "the unit of the price base quantity must be the invoiced quantity's");
    }
  }
}

/** The Peppol BIS Billing 3.0 rules. */
export function peppol(inv: SemInvoice, r: Report) {
  xrechnungPeppol(inv, r, "fatal");
  if (has(inv.profile) && !/^urn:fdc:peppol\.eu:2017:poacc:billing:\d{2}:1\.0$/.test(inv.profile.v))
    r.fail("PEPPOL-EN16931-R007", inv.profile.at, "the business process (BT-23) must be urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0");
  const germans = inv.seller?.address?.country?.v === "DE" && inv.buyer?.address?.country?.v === "DE";
  if (inv.syntax === "ubl" ? inv.notes.length > 1 && !germans : inv.notes.length > 1 || inv.notes.some((n) => n.subject)) {
    r.fail("PEPPOL-EN16931-R002", inv.notes[1]?.at ?? inv.notes[0]!.at, "no more than one note is allowed on document level");
  }
  if (!inv.buyerReference && !inv.orderReference)
    r.fail("PEPPOL-EN16931-R003", inv.at, "a buyer reference (BT-10) or purchase order reference (BT-13) must be given");
  if (!inv.customization?.v.startsWith("urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0")) {
    r.fail(
      "PEPPOL-EN16931-R004",
      inv.customization?.at ?? inv.at,
      "the specification identifier (BT-24) must be urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0",
    );
  }
  // Peppol's electronic address schemes are the EAS list without e-mail (EM): a Peppol participant is addressed on the network.
  for (const p of [inv.seller, inv.buyer]) {
    const scheme = p?.endpoint?.attrs.schemeID;
    if (scheme === "EM")
      r.fail(
        "PEPPOL-EN16931-CL008",
        `${p!.endpoint!.at}/@schemeID`,
        'Electronic address identifier scheme must be from the codelist "Electronic Address Identifier Scheme" (not EM)',
      );
  }
  if (inv.syntax === "ubl") {
    for (const a of inv.amounts) {
      if (a.attrs.currencyID !== inv.currency?.v)
        r.fail(
          "PEPPOL-EN16931-R051",
          `${a.at}/@currencyID`,
          `every amount must be in the invoice currency ${inv.currency?.v ?? ""} (BT-5), but this one is in ${a.attrs.currencyID}`,
        );
    }
  }
}
