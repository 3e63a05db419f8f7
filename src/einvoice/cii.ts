// Writes a checked invoice as UN/CEFACT Cross Industry Invoice D16B: the XML Factur-X 1.0 / ZUGFeRD
// 2.x embed. Elements come in the XML Schema's sequence order (CrossIndustryInvoice_100pD16B.xsd); an
// element with nothing in it is left out, except the header delivery, which the schema requires.

import type { CheckedEInvoice, EInvoiceFigures } from "./check";
import { pruneForProfile } from "./cii-profiles";
import { type Dec, format, parseDec } from "./decimal";
import type { EInvoiceTarget } from "./formats";
import type { EInvoiceLine, EInvoiceModel } from "./model";
import { always, e, ea, type Node, xmlDocument } from "./xml-write";

export { escapeXml } from "./xml-write";

const NAMESPACES = {
  "xmlns:rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
  "xmlns:ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
  "xmlns:qdt": "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
  "xmlns:udt": "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
};

/** A decimal of the input in canonical form (amounts: 2 decimals). */
const dec = (v: string | number | undefined, places = 0) => (v === undefined ? undefined : format(parseDec(v)!.value, places));
const amt = (v: Dec) => format(v, 2);
/** A date YYYY-MM-DD as CII's format 102 (YYYYMMDD). */
const d102 = (v: string | undefined) => v?.replaceAll("-", "");
const dateTime = (name: string, v: string | undefined) => e(name, ea("udt:DateTimeString", { format: "102" }, d102(v)));

type Party = EInvoiceModel["seller"] & { tax_registration_id?: string };
type Address = EInvoiceModel["seller"]["address"];

const address = (a: Address | undefined) =>
  a &&
  e(
    "ram:PostalTradeAddress",
    e("ram:PostcodeCode", a.postal_code),
    e("ram:LineOne", a.line1),
    e("ram:LineTwo", a.line2),
    e("ram:LineThree", a.line3),
    e("ram:CityName", a.city),
    e("ram:CountryID", a.country_code),
    e("ram:CountrySubDivisionName", a.country_subdivision),
  );

function tradeParty(name: string, p: Party): Node | undefined {
  return e(
    name,
    e("ram:Name", p.name),
    e("ram:SpecifiedLegalOrganization", e("ram:ID", p.legal_registration_id), e("ram:TradingBusinessName", p.trading_name)),
    p.contact &&
      e(
        "ram:DefinedTradeContact",
        e("ram:PersonName", p.contact.name),
        e("ram:TelephoneUniversalCommunication", e("ram:CompleteNumber", p.contact.phone)),
        e("ram:EmailURIUniversalCommunication", e("ram:URIID", p.contact.email)),
      ),
    address(p.address),
    p.electronic_address &&
      e("ram:URIUniversalCommunication", ea("ram:URIID", { schemeID: p.electronic_address.scheme }, p.electronic_address.value)),
    e("ram:SpecifiedTaxRegistration", ea("ram:ID", { schemeID: "VA" }, p.vat_id)),
    e("ram:SpecifiedTaxRegistration", ea("ram:ID", { schemeID: "FC" }, p.tax_registration_id)),
  );
}

const indicator = (charge: boolean) => e("ram:ChargeIndicator", e("udt:Indicator", String(charge)));

type AC = { amount: string | number; base_amount?: string | number; percent?: string | number; reason?: string; reason_code?: string };
const allowanceCharge = (ac: AC, charge: boolean, vat?: EInvoiceLine["vat"]) =>
  e(
    "ram:SpecifiedTradeAllowanceCharge",
    indicator(charge),
    e("ram:CalculationPercent", dec(ac.percent)),
    e("ram:BasisAmount", dec(ac.base_amount, 2)),
    e("ram:ActualAmount", dec(ac.amount, 2)),
    e("ram:ReasonCode", ac.reason_code),
    e("ram:Reason", ac.reason),
    vat &&
      e(
        "ram:CategoryTradeTax",
        e("ram:TypeCode", "VAT"),
        e("ram:CategoryCode", vat.category),
        e("ram:RateApplicablePercent", vat.category === "O" ? undefined : dec(vat.rate ?? 0)),
      ),
  );

const period = (p: { start?: string; end?: string } | undefined) =>
  p && e("ram:BillingSpecifiedPeriod", dateTime("ram:StartDateTime", p.start), dateTime("ram:EndDateTime", p.end));

function lineItem(l: EInvoiceLine, net: Dec, unit: string): Node | undefined {
  const baseQty = (v: string | number | undefined) =>
    l.base_quantity === undefined ? undefined : ea("ram:BasisQuantity", { unitCode: unit }, dec(v));
  return e(
    "ram:IncludedSupplyChainTradeLineItem",
    e("ram:AssociatedDocumentLineDocument", e("ram:LineID", l.id), l.note !== undefined && e("ram:IncludedNote", e("ram:Content", l.note))),
    e(
      "ram:SpecifiedTradeProduct",
      e("ram:SellerAssignedID", l.seller_item_id),
      e("ram:BuyerAssignedID", l.buyer_item_id),
      e("ram:Name", l.name),
      e("ram:Description", l.description),
    ),
    e(
      "ram:SpecifiedLineTradeAgreement",
      e("ram:BuyerOrderReferencedDocument", e("ram:LineID", l.order_line_reference)),
      l.gross_price !== undefined &&
        e(
          "ram:GrossPriceProductTradePrice",
          e("ram:ChargeAmount", dec(l.gross_price)),
          baseQty(l.base_quantity),
          l.price_discount !== undefined &&
            e("ram:AppliedTradeAllowanceCharge", indicator(false), e("ram:ActualAmount", dec(l.price_discount))),
        ),
      e("ram:NetPriceProductTradePrice", e("ram:ChargeAmount", dec(l.net_price)), baseQty(l.base_quantity)),
    ),
    e("ram:SpecifiedLineTradeDelivery", ea("ram:BilledQuantity", { unitCode: l.unit_code }, dec(l.quantity))),
    e(
      "ram:SpecifiedLineTradeSettlement",
      e(
        "ram:ApplicableTradeTax",
        e("ram:TypeCode", "VAT"),
        e("ram:CategoryCode", l.vat.category),
        e("ram:RateApplicablePercent", l.vat.category === "O" ? undefined : dec(l.vat.rate ?? 0)),
      ),
      period(l.period),
      ...(l.allowances ?? []).map((a) => allowanceCharge(a, false)),
      ...(l.charges ?? []).map((c) => allowanceCharge(c, true)),
      e("ram:SpecifiedTradeSettlementLineMonetarySummation", e("ram:LineTotalAmount", amt(net))),
      e("ram:ReceivableSpecifiedTradeAccountingAccount", e("ram:ID", l.accounting_reference)),
    ),
  );
}

function document(inv: EInvoiceModel, f: EInvoiceFigures, target: EInvoiceTarget): Node {
  const cur = inv.currency;
  const p = inv.payment;
  return always(
    "rsm:CrossIndustryInvoice",
    e(
      "rsm:ExchangedDocumentContext",
      e("ram:BusinessProcessSpecifiedDocumentContextParameter", e("ram:ID", target.process)),
      e("ram:GuidelineSpecifiedDocumentContextParameter", e("ram:ID", target.customization)),
    ),
    e(
      "rsm:ExchangedDocument",
      e("ram:ID", inv.number),
      e("ram:TypeCode", inv.type_code ?? "380"),
      dateTime("ram:IssueDateTime", inv.issue_date),
      ...(inv.notes ?? []).map((n) => e("ram:IncludedNote", e("ram:Content", n.text), e("ram:SubjectCode", n.subject_code))),
    ),
    e(
      "rsm:SupplyChainTradeTransaction",
      ...inv.lines.map((l, i) => lineItem(l, f.lineNet[i]!, l.unit_code)),
      e(
        "ram:ApplicableHeaderTradeAgreement",
        e("ram:BuyerReference", inv.buyer_reference),
        tradeParty("ram:SellerTradeParty", inv.seller),
        tradeParty("ram:BuyerTradeParty", inv.buyer),
        e("ram:SellerOrderReferencedDocument", e("ram:IssuerAssignedID", inv.sales_order_reference)),
        e("ram:BuyerOrderReferencedDocument", e("ram:IssuerAssignedID", inv.order_reference)),
        e("ram:ContractReferencedDocument", e("ram:IssuerAssignedID", inv.contract_reference)),
        inv.project_reference !== undefined &&
          e("ram:SpecifiedProcuringProject", e("ram:ID", inv.project_reference), e("ram:Name", "Project reference")),
      ),
      always(
        "ram:ApplicableHeaderTradeDelivery",
        (inv.delivery?.ship_to_name !== undefined || inv.delivery?.ship_to_address !== undefined) &&
          e("ram:ShipToTradeParty", e("ram:Name", inv.delivery?.ship_to_name), address(inv.delivery?.ship_to_address)),
        e("ram:ActualDeliverySupplyChainEvent", dateTime("ram:OccurrenceDateTime", inv.delivery?.date)),
      ),
      e(
        "ram:ApplicableHeaderTradeSettlement",
        e("ram:CreditorReferenceID", p?.creditor_id),
        e("ram:PaymentReference", p?.reference),
        e("ram:InvoiceCurrencyCode", cur),
        p &&
          e(
            "ram:SpecifiedTradeSettlementPaymentMeans",
            e("ram:TypeCode", p.means_code),
            e("ram:Information", p.means_text),
            e("ram:PayerPartyDebtorFinancialAccount", e("ram:IBANID", p.debited_account?.replaceAll(" ", ""))),
            e("ram:PayeePartyCreditorFinancialAccount", e("ram:IBANID", p.iban?.replaceAll(" ", "")), e("ram:AccountName", p.account_name)),
            e("ram:PayeeSpecifiedCreditorFinancialInstitution", e("ram:BICID", p.bic)),
          ),
        ...f.vatBreakdown.map((g) =>
          e(
            "ram:ApplicableTradeTax",
            e("ram:CalculatedAmount", amt(g.tax)),
            e("ram:TypeCode", "VAT"),
            e("ram:ExemptionReason", g.exemptionReason),
            e("ram:BasisAmount", amt(g.taxable)),
            e("ram:CategoryCode", g.category),
            e("ram:ExemptionReasonCode", g.exemptionReasonCode),
            e("ram:RateApplicablePercent", g.rate === undefined ? undefined : format(g.rate)),
          ),
        ),
        period(inv.billing_period),
        ...(inv.allowances ?? []).map((a) => allowanceCharge(a, false, a.vat)),
        ...(inv.charges ?? []).map((c) => allowanceCharge(c, true, c.vat)),
        e(
          "ram:SpecifiedTradePaymentTerms",
          e("ram:Description", inv.payment_terms),
          dateTime("ram:DueDateDateTime", inv.due_date),
          e("ram:DirectDebitMandateID", p?.mandate_reference),
        ),
        e(
          "ram:SpecifiedTradeSettlementHeaderMonetarySummation",
          e("ram:LineTotalAmount", amt(f.lineTotal)),
          (inv.charges?.length ?? 0) > 0 && e("ram:ChargeTotalAmount", amt(f.chargeTotal)),
          (inv.allowances?.length ?? 0) > 0 && e("ram:AllowanceTotalAmount", amt(f.allowanceTotal)),
          e("ram:TaxBasisTotalAmount", amt(f.taxBasisTotal)),
          ea("ram:TaxTotalAmount", { currencyID: cur }, amt(f.taxTotal)),
          inv.totals?.rounding !== undefined && e("ram:RoundingAmount", amt(f.rounding)),
          e("ram:GrandTotalAmount", amt(f.grandTotal)),
          inv.totals?.prepaid !== undefined && e("ram:TotalPrepaidAmount", amt(f.prepaid)),
          e("ram:DuePayableAmount", amt(f.duePayable)),
        ),
        inv.preceding_invoice &&
          e(
            "ram:InvoiceReferencedDocument",
            e("ram:IssuerAssignedID", inv.preceding_invoice.number),
            e("ram:FormattedIssueDateTime", ea("qdt:DateTimeString", { format: "102" }, d102(inv.preceding_invoice.issue_date))),
          ),
      ),
    ),
  );
}

/** The CII XML of a checked e-invoice: written from the model for its target, or the customer's own XML unchanged. */
export function ciiXml(checked: CheckedEInvoice): string {
  if (checked.source === "xml") return checked.xml;
  const root = document(checked.invoice, checked.figures, checked.target);
  return xmlDocument(pruneForProfile(root, checked.target.profile), NAMESPACES);
}
