// Writes a checked invoice as UBL 2.1, following EN 16931's UBL binding: an Invoice, or a CreditNote for
// type code 381. XRechnung (UBL syntax), Peppol BIS Billing 3.0 and plain EN 16931 UBL differ only in
// the specification identifier and business process (formats.ts). Elements come in the XML Schema's
// sequence order (UBL-Invoice-2.1.xsd, UBL-CreditNote-2.1.xsd); an element with nothing in it is left out.
import type { CheckedEInvoice, EInvoiceFigures } from "./check";
import { type Dec, format, parseDec } from "./decimal";
import type { EInvoiceTarget } from "./formats";
import type { EInvoiceLine, EInvoiceModel } from "./model";
import { always, type Child, e, ea, type Node, xmlDocument } from "./xml-write";

const INVOICE_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const CREDIT_NOTE_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
const COMMON = {
  "xmlns:cac": "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
  "xmlns:cbc": "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
};

const dec = (v: string | number | undefined, places = 0) => (v === undefined ? undefined : format(parseDec(v)!.value, places));
const amt = (v: Dec) => format(v, 2);

type Party = EInvoiceModel["seller"] & { tax_registration_id?: string };
type Address = EInvoiceModel["seller"]["address"];
type Vat = EInvoiceLine["vat"];
type AC = { amount: string | number; base_amount?: string | number; percent?: string | number; reason?: string; reason_code?: string };

/** Writes one document: the currency every amount carries, and the names that differ for a credit note. */
class UblWriter {
  private readonly cur: { currencyID: string };
  private readonly creditNote: boolean;
  constructor(
    private readonly inv: EInvoiceModel,
    private readonly f: EInvoiceFigures,
    private readonly target: EInvoiceTarget,
  ) {
    this.cur = { currencyID: inv.currency };
    this.creditNote = inv.type_code === "381";
  }

  private money(name: string, v: string | undefined): Node | undefined {
    return ea(name, this.cur, v);
  }

  private address(name: string, a: Address | undefined): Node | undefined {
    return (
      a &&
      e(
        name,
        e("cbc:StreetName", a.line1),
        e("cbc:AdditionalStreetName", a.line2),
        e("cbc:CityName", a.city),
        e("cbc:PostalZone", a.postal_code),
        e("cbc:CountrySubentity", a.country_subdivision),
        a.line3 !== undefined && e("cac:AddressLine", e("cbc:Line", a.line3)),
        e("cac:Country", e("cbc:IdentificationCode", a.country_code)),
      )
    );
  }

  private party(p: Party, extraIds: Child[] = []): Node | undefined {
    const ep = p.electronic_address;
    return e(
      "cac:Party",
      ep && ea("cbc:EndpointID", { schemeID: ep.scheme }, ep.value),
      ...extraIds,
      p.trading_name !== undefined && e("cac:PartyName", e("cbc:Name", p.trading_name)),
      this.address("cac:PostalAddress", p.address),
      p.vat_id !== undefined && e("cac:PartyTaxScheme", e("cbc:CompanyID", p.vat_id), e("cac:TaxScheme", e("cbc:ID", "VAT"))),
      p.tax_registration_id !== undefined &&
        e("cac:PartyTaxScheme", e("cbc:CompanyID", p.tax_registration_id), e("cac:TaxScheme", e("cbc:ID", "FC"))),
      e("cac:PartyLegalEntity", e("cbc:RegistrationName", p.name), e("cbc:CompanyID", p.legal_registration_id)),
      p.contact &&
        e("cac:Contact", e("cbc:Name", p.contact.name), e("cbc:Telephone", p.contact.phone), e("cbc:ElectronicMail", p.contact.email)),
    );
  }

  /** A TaxCategory (or ClassifiedTaxCategory): code, rate (none for O), exemption reasons. */
  private category(name: string, vat: Vat, reasonCode?: string, reason?: string): Node | undefined {
    return e(
      name,
      e("cbc:ID", vat.category),
      e("cbc:Percent", vat.category === "O" ? undefined : dec(vat.rate ?? 0)),
      e("cbc:TaxExemptionReasonCode", reasonCode),
      e("cbc:TaxExemptionReason", reason),
      e("cac:TaxScheme", e("cbc:ID", "VAT")),
    );
  }

  private allowanceCharge(ac: AC, charge: boolean, vat?: Vat): Node | undefined {
    return e(
      "cac:AllowanceCharge",
      e("cbc:ChargeIndicator", String(charge)),
      e("cbc:AllowanceChargeReasonCode", ac.reason_code),
      e("cbc:AllowanceChargeReason", ac.reason),
      e("cbc:MultiplierFactorNumeric", dec(ac.percent)),
      this.money("cbc:Amount", dec(ac.amount, 2)),
      this.money("cbc:BaseAmount", dec(ac.base_amount, 2)),
      vat && this.category("cac:TaxCategory", vat),
    );
  }

  private period(p: { start?: string; end?: string } | undefined): Node | undefined {
    return p && e("cac:InvoicePeriod", e("cbc:StartDate", p.start), e("cbc:EndDate", p.end));
  }

  private line(l: EInvoiceLine, net: Dec): Node | undefined {
    const cn = this.creditNote;
    const baseQty = l.base_quantity === undefined ? undefined : ea("cbc:BaseQuantity", { unitCode: l.unit_code }, dec(l.base_quantity));
    return e(
      cn ? "cac:CreditNoteLine" : "cac:InvoiceLine",
      e("cbc:ID", l.id),
      e("cbc:Note", l.note),
      ea(cn ? "cbc:CreditedQuantity" : "cbc:InvoicedQuantity", { unitCode: l.unit_code }, dec(l.quantity)),
      this.money("cbc:LineExtensionAmount", amt(net)),
      e("cbc:AccountingCost", l.accounting_reference),
      this.period(l.period),
      e("cac:OrderLineReference", e("cbc:LineID", l.order_line_reference)),
      ...(l.allowances ?? []).map((a) => this.allowanceCharge(a, false)),
      ...(l.charges ?? []).map((c) => this.allowanceCharge(c, true)),
      e(
        "cac:Item",
        e("cbc:Description", l.description),
        e("cbc:Name", l.name),
        e("cac:BuyersItemIdentification", e("cbc:ID", l.buyer_item_id)),
        e("cac:SellersItemIdentification", e("cbc:ID", l.seller_item_id)),
        this.category("cac:ClassifiedTaxCategory", l.vat),
      ),
      e(
        "cac:Price",
        this.money("cbc:PriceAmount", dec(l.net_price)),
        baseQty,
        l.gross_price !== undefined &&
          e(
            "cac:AllowanceCharge",
            e("cbc:ChargeIndicator", "false"),
            this.money("cbc:Amount", dec(l.price_discount ?? 0)),
            this.money("cbc:BaseAmount", dec(l.gross_price)),
          ),
      ),
    );
  }

  document(): Node {
    const { inv, f, target } = this;
    const cn = this.creditNote;
    const p = inv.payment;
    const orderRef = inv.order_reference ?? (inv.sales_order_reference !== undefined ? "NA" : undefined);
    return always(
      cn ? "CreditNote" : "Invoice",
      e("cbc:CustomizationID", target.customization),
      e("cbc:ProfileID", target.process),
      e("cbc:ID", inv.number),
      e("cbc:IssueDate", inv.issue_date),
      !cn && e("cbc:DueDate", inv.due_date),
      e(cn ? "cbc:CreditNoteTypeCode" : "cbc:InvoiceTypeCode", inv.type_code ?? "380"),
      // UBL has no subject code on a note: EN 16931's binding writes it as #CODE# before the text.
      ...(inv.notes ?? []).map((n) => e("cbc:Note", n.subject_code ? `#${n.subject_code}#${n.text}` : n.text)),
      e("cbc:DocumentCurrencyCode", inv.currency),
      e("cbc:BuyerReference", inv.buyer_reference),
      this.period(inv.billing_period),
      orderRef !== undefined && e("cac:OrderReference", e("cbc:ID", orderRef), e("cbc:SalesOrderID", inv.sales_order_reference)),
      inv.preceding_invoice &&
        e(
          "cac:BillingReference",
          e(
            "cac:InvoiceDocumentReference",
            e("cbc:ID", inv.preceding_invoice.number),
            e("cbc:IssueDate", inv.preceding_invoice.issue_date),
          ),
        ),
      e("cac:ContractDocumentReference", e("cbc:ID", inv.contract_reference)),
      // A credit note has no ProjectReference: the binding uses a document reference of type 50.
      cn &&
        e(
          "cac:AdditionalDocumentReference",
          e("cbc:ID", inv.project_reference),
          inv.project_reference !== undefined && e("cbc:DocumentTypeCode", "50"),
        ),
      !cn && e("cac:ProjectReference", e("cbc:ID", inv.project_reference)),
      e(
        "cac:AccountingSupplierParty",
        this.party(inv.seller, [
          p?.creditor_id !== undefined && e("cac:PartyIdentification", ea("cbc:ID", { schemeID: "SEPA" }, p.creditor_id)),
        ]),
      ),
      e("cac:AccountingCustomerParty", this.party(inv.buyer)),
      inv.delivery &&
        e(
          "cac:Delivery",
          e("cbc:ActualDeliveryDate", inv.delivery.date),
          e("cac:DeliveryLocation", this.address("cac:Address", inv.delivery.ship_to_address)),
          e("cac:DeliveryParty", e("cac:PartyName", e("cbc:Name", inv.delivery.ship_to_name))),
        ),
      p &&
        e(
          "cac:PaymentMeans",
          ea("cbc:PaymentMeansCode", { name: p.means_text }, p.means_code),
          cn && e("cbc:PaymentDueDate", inv.due_date),
          e("cbc:PaymentID", p.reference),
          e(
            "cac:PayeeFinancialAccount",
            e("cbc:ID", p.iban?.replaceAll(" ", "")),
            e("cbc:Name", p.account_name),
            e("cac:FinancialInstitutionBranch", e("cbc:ID", p.bic)),
          ),
          e(
            "cac:PaymentMandate",
            e("cbc:ID", p.mandate_reference),
            e("cac:PayerFinancialAccount", e("cbc:ID", p.debited_account?.replaceAll(" ", ""))),
          ),
        ),
      e("cac:PaymentTerms", e("cbc:Note", inv.payment_terms)),
      ...(inv.allowances ?? []).map((a) => this.allowanceCharge(a, false, a.vat)),
      ...(inv.charges ?? []).map((c) => this.allowanceCharge(c, true, c.vat)),
      e(
        "cac:TaxTotal",
        this.money("cbc:TaxAmount", amt(f.taxTotal)),
        ...f.vatBreakdown.map((g) =>
          e(
            "cac:TaxSubtotal",
            this.money("cbc:TaxableAmount", amt(g.taxable)),
            this.money("cbc:TaxAmount", amt(g.tax)),
            this.category(
              "cac:TaxCategory",
              { category: g.category, rate: g.rate === undefined ? undefined : format(g.rate) },
              g.exemptionReasonCode,
              g.exemptionReason,
            ),
          ),
        ),
      ),
      e(
        "cac:LegalMonetaryTotal",
        this.money("cbc:LineExtensionAmount", amt(f.lineTotal)),
        this.money("cbc:TaxExclusiveAmount", amt(f.taxBasisTotal)),
        this.money("cbc:TaxInclusiveAmount", amt(f.grandTotal)),
        (inv.allowances?.length ?? 0) > 0 && this.money("cbc:AllowanceTotalAmount", amt(f.allowanceTotal)),
        (inv.charges?.length ?? 0) > 0 && this.money("cbc:ChargeTotalAmount", amt(f.chargeTotal)),
        inv.totals?.prepaid !== undefined && this.money("cbc:PrepaidAmount", amt(f.prepaid)),
        inv.totals?.rounding !== undefined && this.money("cbc:PayableRoundingAmount", amt(f.rounding)),
        this.money("cbc:PayableAmount", amt(f.duePayable)),
      ),
      ...inv.lines.map((l, i) => this.line(l, f.lineNet[i]!)),
    );
  }
}

/** The UBL 2.1 XML of a checked JSON-model invoice: an Invoice, or a CreditNote for type code 381. */
export function ublXml(checked: Extract<CheckedEInvoice, { source: "model" }>): string {
  const root = new UblWriter(checked.invoice, checked.figures, checked.target).document();
  return xmlDocument(root, { xmlns: root.name === "CreditNote" ? CREDIT_NOTE_NS : INVOICE_NS, ...COMMON });
}
