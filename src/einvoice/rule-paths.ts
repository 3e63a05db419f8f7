// Where in the JSON model a broken rule points. The rules report where the semantic model puts them
// (from-model.ts: each value at its JSON path); a rule about something missing reports the group that
// lacks it, and the client is better told the field to add. That field, per rule, is here.
import type { EInvoiceModel } from "./model";

/** The field to add or fix for a rule whose finding is at the group (or the invoice) that lacks it. */
const MISSING_FIELD: Record<string, string> = {
  "BR-61": "payment.iban",
  "BR-CO-25": "due_date",
  "BR-CO-26": "seller.vat_id",
  "BR-IC-11": "delivery.date",
  "BR-IC-12": "delivery.ship_to_address.country_code",
  "BR-DE-1": "payment",
  "BR-DE-2": "seller.contact",
  "BR-DE-3": "seller.address.city",
  "BR-DE-4": "seller.address.postal_code",
  "BR-DE-5": "seller.contact.name",
  "BR-DE-6": "seller.contact.phone",
  "BR-DE-7": "seller.contact.email",
  "BR-DE-8": "buyer.address.city",
  "BR-DE-9": "buyer.address.postal_code",
  "BR-DE-10": "delivery.ship_to_address.city",
  "BR-DE-11": "delivery.ship_to_address.postal_code",
  "BR-DE-15": "buyer_reference",
  "BR-DE-16": "seller.vat_id",
  "BR-DE-23-a": "payment.iban",
  "BR-DE-25-a": "payment.mandate_reference",
  "BR-DE-30": "payment.creditor_id",
  "BR-DE-31": "payment.debited_account",
  "PEPPOL-EN16931-R003": "buyer_reference",
  "PEPPOL-EN16931-R010": "buyer.electronic_address",
  "PEPPOL-EN16931-R020": "seller.electronic_address",
  "PEPPOL-EN16931-R061": "payment.mandate_reference",
};

/** A VAT category's rule on the parties' identifiers (BR-S-02, BR-AE-03, BR-IC-04, ...). */
const PARTIES_RULE = /^BR-(S|Z|E|AE|IC|G|O)-0[234]$/;

/** The identifier a VAT category's parties rule wants added (or, for O, removed). */
function partyField(category: string, inv: EInvoiceModel): string {
  const { seller } = inv;
  if (category === "O") return seller.vat_id !== undefined ? "seller.vat_id" : "buyer.vat_id";
  const sellerOk =
    category === "IC" || category === "G"
      ? seller.vat_id !== undefined
      : seller.vat_id !== undefined || seller.tax_registration_id !== undefined;
  return sellerOk ? "buyer.vat_id" : "seller.vat_id";
}

/** The JSON path (under `prefix`) of a finding of the rules on the invoice's semantic model. */
export function jsonPathOf(rule: string, location: string, inv: EInvoiceModel, prefix: string): string {
  const parties = PARTIES_RULE.exec(rule);
  // An attribute of a value (an electronic address's scheme) is a field of its own in the JSON model.
  const field = location.replace(/\.value\/@schemeID$/, ".scheme").replace(/\/@\w+$/, "");
  const at = parties ? partyField(parties[1]!, inv) : (MISSING_FIELD[rule] ?? field);
  return at ? `${prefix}.${at}` : prefix;
}
