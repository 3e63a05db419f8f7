// Reads a UBL 2.1 Invoice or CreditNote into the EN 16931 semantic model (semantic.ts), following the
// EN 16931 UBL binding: which element carries which business term. Each value keeps its XPath.
// Dates are checked as the XML Schema would (xs:date); what else the schema refuses is out of scope.

import { attrField, field, isCalendarDate } from "./read-field";
import {
  emptyInvoice,
  type Field,
  type SemAddress,
  type SemAllowanceCharge,
  type SemInvoice,
  type SemLine,
  type SemParty,
  type SemPeriod,
} from "./semantic";
import { child, children, path, type XmlElement } from "./xml";

export const UBL_INVOICE_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
export const UBL_CREDIT_NOTE_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";

const XSD_DATE = /^-?\d{4,}-(\d{2})-(\d{2})(Z|[+-]\d{2}:\d{2})?$/;

class UblReader {
  readonly inv: SemInvoice;
  constructor(private readonly root: XmlElement) {
    this.inv = emptyInvoice("ubl", root.local === "CreditNote" ? "credit_note" : "invoice", root.xpath);
  }

  /** A date field (xs:date), normalised to YYYY-MM-DD; a malformed one is an XSD finding. */
  private date(el: XmlElement | undefined): Field | undefined {
    const f = field(el);
    if (!f) return undefined;
    const m = XSD_DATE.exec(f.v);
    if (!m || !isCalendarDate(Number(f.v.slice(0, f.v.indexOf("-", 1))), Number(m[1]), Number(m[2]))) {
      this.inv.syntaxFindings.push({
        rule: "XSD",
        flag: "fatal",
        location: f.at,
        message: `'${f.v}' is not a valid value of the atomic type 'xs:date' (${el!.qname})`,
      });
      return f;
    }
    return { ...f, v: f.v.slice(0, 10) };
  }

  private period(el: XmlElement | undefined): SemPeriod | undefined {
    if (!el) return undefined;
    return { at: el.xpath, start: this.date(child(el, "StartDate")), end: this.date(child(el, "EndDate")) };
  }

  private address(el: XmlElement | undefined): SemAddress | undefined {
    if (!el) return undefined;
    return {
      at: el.xpath,
      line1: field(child(el, "StreetName")),
      line2: field(child(el, "AdditionalStreetName")),
      line3: field(path(el, "AddressLine", "Line")),
      city: field(child(el, "CityName")),
      postcode: field(child(el, "PostalZone")),
      subdivision: field(child(el, "CountrySubentity")),
      country: field(path(el, "Country", "IdentificationCode")),
    };
  }

  private party(el: XmlElement | undefined): SemParty | undefined {
    if (!el) return undefined;
    const schemes = children(el, "PartyTaxScheme");
    const vat = schemes.find((s) => field(path(s, "TaxScheme", "ID"))?.v.toUpperCase() === "VAT");
    const other = schemes.find((s) => s !== vat);
    const legal = child(el, "PartyLegalEntity");
    const contact = child(el, "Contact");
    return {
      at: el.xpath,
      name: field(child(legal, "RegistrationName")),
      tradingName: field(path(el, "PartyName", "Name")),
      ids: children(el, "PartyIdentification").flatMap((p) => (child(p, "ID") ? [field(child(p, "ID"))!] : [])),
      legalId: field(child(legal, "CompanyID")),
      legalInfo: field(child(legal, "CompanyLegalForm")),
      vatId: field(child(vat, "CompanyID")),
      taxRegId: field(child(other, "CompanyID")),
      taxRegScheme: field(path(other, "TaxScheme", "ID")),
      endpoint: field(child(el, "EndpointID")),
      address: this.address(child(el, "PostalAddress")),
      contact: contact && {
        at: contact.xpath,
        name: field(child(contact, "Name")),
        phone: field(child(contact, "Telephone")),
        email: field(child(contact, "ElectronicMail")),
      },
    };
  }

  private tax(el: XmlElement | undefined) {
    return (
      el && {
        at: el.xpath,
        category: field(child(el, "ID")),
        rate: field(child(el, "Percent")),
        scheme: field(path(el, "TaxScheme", "ID")),
      }
    );
  }

  private allowanceCharge(el: XmlElement): SemAllowanceCharge {
    return {
      at: el.xpath,
      charge: field(child(el, "ChargeIndicator"))?.v === "true",
      indicator: field(child(el, "ChargeIndicator")),
      amount: field(child(el, "Amount")),
      base: field(child(el, "BaseAmount")),
      percent: field(child(el, "MultiplierFactorNumeric")),
      reason: field(child(el, "AllowanceChargeReason")),
      reasonCode: field(child(el, "AllowanceChargeReasonCode")),
      tax: this.tax(child(el, "TaxCategory")),
    };
  }

  /** An invoice or credit note line (BG-25), with the sub-lines XRechnung's extension nests in it. */
  private line(l: XmlElement, cn: boolean): SemLine {
    const item = child(l, "Item");
    const price = child(l, "Price");
    const qty = field(child(l, cn ? "CreditedQuantity" : "InvoicedQuantity"));
    const acs = children(l, "AllowanceCharge").map((e) => this.allowanceCharge(e));
    const priceAc = child(price, "AllowanceCharge");
    return {
      at: l.xpath,
      id: field(child(l, "ID")),
      note: field(child(l, "Note")),
      quantity: qty,
      unit: qty && qty.attrs.unitCode !== undefined ? { v: qty.attrs.unitCode, at: `${qty.at}/@unitCode`, attrs: {} } : undefined,
      net: field(child(l, "LineExtensionAmount")),
      priceAt: price?.xpath,
      price: field(child(price, "PriceAmount")),
      priceBaseQuantity: field(child(price, "BaseQuantity")),
      gross: field(child(priceAc, "BaseAmount")),
      priceDiscount: field(child(priceAc, "Amount")),
      priceDiscountIndicator: field(child(priceAc, "ChargeIndicator")),
      name: field(child(item, "Name")),
      description: field(child(item, "Description")),
      sellerItemId: field(path(item, "SellersItemIdentification", "ID")),
      buyerItemId: field(path(item, "BuyersItemIdentification", "ID")),
      orderLineReference: field(path(l, "OrderLineReference", "LineID")),
      accountingReference: field(child(l, "AccountingCost")),
      tax: this.tax(child(item, "ClassifiedTaxCategory")),
      period: this.period(child(l, "InvoicePeriod")),
      allowances: acs.filter((a) => !a.charge),
      charges: acs.filter((a) => a.charge),
      standardId: field(path(item, "StandardItemIdentification", "ID")),
      classifications: children(item, "CommodityClassification").flatMap((c) => {
        const f = field(child(c, "ItemClassificationCode"));
        return f ? [f] : [];
      }),
      attributes: children(item, "AdditionalItemProperty").map((p) => ({
        at: p.xpath,
        name: field(child(p, "Name")),
        value: field(child(p, "Value")),
      })),
      originCountry: field(path(item, "OriginCountry", "IdentificationCode")),
      objectId: field(path(l, "DocumentReference", "ID")),
      objectTypeCode: child(l, "DocumentReference")
        ? (field(path(l, "DocumentReference", "DocumentTypeCode")) ?? { v: "", at: child(l, "DocumentReference")!.xpath, attrs: {} })
        : undefined,
      subLines: children(l, "SubInvoiceLine").map((sub) => this.line(sub, cn)),
    };
  }

  read(): SemInvoice {
    const r = this.root;
    const inv = this.inv;
    const cn = inv.document === "credit_note";
    inv.customization = field(child(r, "CustomizationID"));
    inv.profile = field(child(r, "ProfileID"));
    inv.number = field(child(r, "ID"));
    inv.issueDate = this.date(child(r, "IssueDate"));
    inv.typeCode = field(child(r, cn ? "CreditNoteTypeCode" : "InvoiceTypeCode"));
    inv.currency = field(child(r, "DocumentCurrencyCode"));
    inv.taxCurrency = field(child(r, "TaxCurrencyCode"));
    inv.dueDate = this.date(cn ? path(r, "PaymentMeans", "PaymentDueDate") : child(r, "DueDate"));
    inv.taxPointDate = this.date(child(r, "TaxPointDate"));
    inv.taxPointCode = field(path(r, "InvoicePeriod", "DescriptionCode"));
    inv.buyerReference = field(child(r, "BuyerReference"));
    inv.orderReference = field(path(r, "OrderReference", "ID"));
    const terms = path(r, "PaymentTerms", "Note");
    inv.paymentTerms = terms && { ...field(terms)!, raw: terms.text };
    inv.notes = children(r, "Note").map((n) => ({ at: n.xpath, text: field(n) }));
    inv.preceding = children(r, "BillingReference").map((b) => {
      const d = child(b, "InvoiceDocumentReference");
      return { at: b.xpath, number: field(child(d, "ID")), date: this.date(child(d, "IssueDate")) };
    });
    inv.documents = children(r, "AdditionalDocumentReference").map((d) => {
      const bin = path(d, "Attachment", "EmbeddedDocumentBinaryObject");
      return {
        at: d.xpath,
        id: field(child(d, "ID")),
        scheme: attrField(child(d, "ID"), "schemeID"),
        typeCode: field(child(d, "DocumentTypeCode")),
        uri: field(path(d, "Attachment", "ExternalReference", "URI")),
        filename: attrField(bin, "filename"),
        description: field(child(d, "DocumentDescription")),
        mime: bin?.attrs.mimeCode,
        content: bin?.text,
      };
    });
    inv.contractReference = field(path(r, "ContractDocumentReference", "ID"));
    inv.despatchAdvice = field(path(r, "DespatchDocumentReference", "ID"));
    inv.receivingAdvice = field(path(r, "ReceiptDocumentReference", "ID"));
    inv.tenderReference = field(path(r, "OriginatorDocumentReference", "ID"));
    inv.thirdPartyPayments = children(r, "PrepaidPayment").map((p) => ({
      at: p.xpath,
      type: field(child(p, "ID")),
      amount: field(child(p, "PaidAmount")),
      description: field(child(p, "InstructionID")),
    }));
    inv.projectReference = field(path(r, "ProjectReference", "ID"));
    inv.accountingReference = field(child(r, "AccountingCost"));
    inv.salesOrderReference = field(path(r, "OrderReference", "SalesOrderID"));
    inv.paymentReference = field(path(r, "PaymentMeans", "PaymentID"));
    inv.seller = this.party(path(r, "AccountingSupplierParty", "Party"));
    inv.buyer = this.party(path(r, "AccountingCustomerParty", "Party"));
    const sepa = [path(r, "AccountingSupplierParty", "Party"), child(r, "PayeeParty")]
      .flatMap((p) => children(p, "PartyIdentification"))
      .map((p) => child(p, "ID"))
      .find((id) => id?.attrs.schemeID === "SEPA");
    inv.creditorId = field(sepa);
    const payee = child(r, "PayeeParty");
    if (payee) {
      inv.payee = {
        at: payee.xpath,
        name: field(path(payee, "PartyName", "Name")),
        ids: children(payee, "PartyIdentification").flatMap((p) => (child(p, "ID") ? [field(child(p, "ID"))!] : [])),
        legalId: field(path(payee, "PartyLegalEntity", "CompanyID")),
      };
    }
    const rep = child(r, "TaxRepresentativeParty");
    if (rep) {
      inv.taxRepresentative = {
        at: rep.xpath,
        name: field(path(rep, "PartyName", "Name")),
        ids: [],
        vatId: field(path(rep, "PartyTaxScheme", "CompanyID")),
        address: this.address(child(rep, "PostalAddress")),
      };
    }
    const delivery = child(r, "Delivery");
    if (delivery) {
      inv.delivery = {
        at: delivery.xpath,
        date: this.date(child(delivery, "ActualDeliveryDate")),
        locationId: field(path(delivery, "DeliveryLocation", "ID")),
        address: this.address(path(delivery, "DeliveryLocation", "Address")),
        name: field(path(delivery, "DeliveryParty", "PartyName", "Name")),
      };
    }
    inv.period = this.period(child(r, "InvoicePeriod"));
    inv.paymentMeans = children(r, "PaymentMeans").map((pm) => ({
      at: pm.xpath,
      code: field(child(pm, "PaymentMeansCode")),
      text: pm.attrs.name === undefined ? undefined : { v: pm.attrs.name, at: pm.xpath, attrs: {} },
      transfers: children(pm, "PayeeFinancialAccount").map((a) => ({
        at: a.xpath,
        account: field(child(a, "ID")),
        name: field(child(a, "Name")),
        bic: field(path(a, "FinancialInstitutionBranch", "ID")),
      })),
      card: field(path(pm, "CardAccount", "PrimaryAccountNumberID")),
      cardHolder: field(path(pm, "CardAccount", "HolderName")),
      cardNetwork: field(path(pm, "CardAccount", "NetworkID")),
      mandate: field(path(pm, "PaymentMandate", "ID")),
      debitedAccount: field(path(pm, "PaymentMandate", "PayerFinancialAccount", "ID")),
    }));
    for (const ac of children(r, "AllowanceCharge").map((e) => this.allowanceCharge(e)))
      (ac.charge ? inv.charges : inv.allowances).push(ac);
    for (const tt of children(r, "TaxTotal")) {
      const amount = field(child(tt, "TaxAmount"));
      if (amount) inv.taxTotals.push(amount);
      if (!child(tt, "TaxSubtotal")) inv.bareTaxTotals++;
      else inv.breakdownTaxTotals++;
      for (const st of children(tt, "TaxSubtotal")) {
        const cat = child(st, "TaxCategory");
        inv.vat.push({
          at: st.xpath,
          taxable: field(child(st, "TaxableAmount")),
          tax: field(child(st, "TaxAmount")),
          category: field(child(cat, "ID")),
          rate: field(child(cat, "Percent")),
          reason: field(child(cat, "TaxExemptionReason")),
          reasonCode: field(child(cat, "TaxExemptionReasonCode")),
        });
      }
    }
    const t = child(r, "LegalMonetaryTotal");
    if (t) {
      inv.totals = {
        at: t.xpath,
        lineTotal: field(child(t, "LineExtensionAmount")),
        allowanceTotal: field(child(t, "AllowanceTotalAmount")),
        chargeTotal: field(child(t, "ChargeTotalAmount")),
        taxBasis: field(child(t, "TaxExclusiveAmount")),
        grand: field(child(t, "TaxInclusiveAmount")),
        prepaid: field(child(t, "PrepaidAmount")),
        rounding: field(child(t, "PayableRoundingAmount")),
        due: field(child(t, "PayableAmount")),
      };
    }
    inv.lines = children(r, cn ? "CreditNoteLine" : "InvoiceLine").map((l) => this.line(l, cn));
    return inv;
  }
}

/** The semantic model of a UBL Invoice or CreditNote (the root's namespace is checked by the caller). */
export function readUbl(root: XmlElement): SemInvoice {
  return new UblReader(root).read();
}
