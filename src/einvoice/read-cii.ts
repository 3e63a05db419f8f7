// Reads a UN/CEFACT Cross Industry Invoice D16B into the EN 16931 semantic model (semantic.ts),
// following the EN 16931 CII binding. Each value keeps its XPath. Dates in format 102 (YYYYMMDD) are
// normalised to YYYY-MM-DD; one that is not YYYYMMDD is a CII-DT-097 finding.

import { attrField, field, isCalendarDate } from "./read-field";
import type { Field, SemAddress, SemAllowanceCharge, SemInvoice, SemParty, SemPeriod, SemTax } from "./semantic";
import { emptyInvoice } from "./semantic";
import { child, children, path, type XmlElement } from "./xml";

export const CII_ROOT_NS = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";

const FORMAT_102 = /^\s*(\d{4})(1[0-2]|0[1-9])(3[01]|[12][0-9]|0[1-9])\s*$/;

class CiiReader {
  readonly inv: SemInvoice;
  constructor(private readonly root: XmlElement) {
    this.inv = emptyInvoice("cii", "invoice", root.xpath);
  }

  /** A DateTimeString (inside `el`), normalised to YYYY-MM-DD. */
  private date(el: XmlElement | undefined): Field | undefined {
    const s = child(el, "DateTimeString");
    const f = field(s);
    if (!f) return undefined;
    const m = FORMAT_102.exec(f.v);
    if (!m) {
      this.inv.syntaxFindings.push({
        rule: "CII-DT-097",
        flag: "fatal",
        location: f.at,
        message: `the date '${f.v}' in format 102 is not YYYYMMDD`,
      });
      return f;
    }
    if (!isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) return f;
    return { ...f, v: `${m[1]}-${m[2]}-${m[3]}` };
  }

  private period(el: XmlElement | undefined): SemPeriod | undefined {
    if (!el) return undefined;
    return { at: el.xpath, start: this.date(child(el, "StartDateTime")), end: this.date(child(el, "EndDateTime")) };
  }

  private address(el: XmlElement | undefined): SemAddress | undefined {
    if (!el) return undefined;
    return {
      at: el.xpath,
      line1: field(child(el, "LineOne")),
      line2: field(child(el, "LineTwo")),
      line3: field(child(el, "LineThree")),
      city: field(child(el, "CityName")),
      postcode: field(child(el, "PostcodeCode")),
      subdivision: field(child(el, "CountrySubDivisionName")),
      country: field(child(el, "CountryID")),
    };
  }

  private party(el: XmlElement | undefined): SemParty | undefined {
    if (!el) return undefined;
    const regs = children(el, "SpecifiedTaxRegistration").map((r) => child(r, "ID"));
    const legal = child(el, "SpecifiedLegalOrganization");
    const contact = child(el, "DefinedTradeContact");
    return {
      at: el.xpath,
      name: field(child(el, "Name")),
      tradingName: field(child(legal, "TradingBusinessName")),
      ids: [...children(el, "ID"), ...children(el, "GlobalID")].map((e) => field(e)!),
      legalId: field(child(legal, "ID")),
      legalInfo: field(child(el, "Description")),
      vatId: field(regs.find((r) => r?.attrs.schemeID === "VA")),
      taxRegId: field(regs.find((r) => r?.attrs.schemeID === "FC")),
      endpoint: field(path(el, "URIUniversalCommunication", "URIID")),
      endpointGroup: child(el, "URIUniversalCommunication")?.xpath,
      address: this.address(child(el, "PostalTradeAddress")),
      contact: contact && {
        at: contact.xpath,
        name: field(child(contact, "PersonName")) ?? field(child(contact, "DepartmentName")),
        phone: field(path(contact, "TelephoneUniversalCommunication", "CompleteNumber")),
        email: field(path(contact, "EmailURIUniversalCommunication", "URIID")),
      },
    };
  }

  private tax(el: XmlElement | undefined): SemTax | undefined {
    return (
      el && {
        at: el.xpath,
        category: field(child(el, "CategoryCode")),
        rate: field(child(el, "RateApplicablePercent")),
        scheme: field(child(el, "TypeCode")),
        reason: field(child(el, "ExemptionReason")),
      }
    );
  }

  private allowanceCharge(el: XmlElement): SemAllowanceCharge {
    return {
      at: el.xpath,
      charge: field(path(el, "ChargeIndicator", "Indicator"))?.v === "true",
      indicator: field(path(el, "ChargeIndicator", "Indicator")),
      amount: field(child(el, "ActualAmount")),
      base: field(child(el, "BasisAmount")),
      percent: field(child(el, "CalculationPercent")),
      reason: field(child(el, "Reason")),
      reasonCode: field(child(el, "ReasonCode")),
      tax: this.tax(child(el, "CategoryTradeTax")),
    };
  }

  read(): SemInvoice {
    const r = this.root;
    const inv = this.inv;
    const ctx = child(r, "ExchangedDocumentContext");
    const doc = child(r, "ExchangedDocument");
    const tx = child(r, "SupplyChainTradeTransaction");
    const agreement = child(tx, "ApplicableHeaderTradeAgreement");
    const delivery = child(tx, "ApplicableHeaderTradeDelivery");
    const settlement = child(tx, "ApplicableHeaderTradeSettlement");
    inv.customization = field(path(ctx, "GuidelineSpecifiedDocumentContextParameter", "ID"));
    inv.profile = field(path(ctx, "BusinessProcessSpecifiedDocumentContextParameter", "ID"));
    inv.number = field(child(doc, "ID"));
    inv.typeCode = field(child(doc, "TypeCode"));
    if (inv.typeCode?.v === "381") inv.document = "credit_note";
    inv.issueDate = this.date(child(doc, "IssueDateTime"));
    inv.notes = children(doc, "IncludedNote").map((n) => ({
      at: n.xpath,
      text: field(child(n, "Content")),
      subject: field(child(n, "SubjectCode")),
    }));
    inv.buyerReference = field(child(agreement, "BuyerReference"));
    inv.orderReference = field(path(agreement, "BuyerOrderReferencedDocument", "IssuerAssignedID"));
    inv.documents = children(agreement, "AdditionalReferencedDocument").map((d) => {
      const bin = child(d, "AttachmentBinaryObject");
      return {
        at: d.xpath,
        id: field(child(d, "IssuerAssignedID")),
        scheme: field(child(d, "ReferenceTypeCode")),
        typeCode: field(child(d, "TypeCode")),
        uri: field(child(d, "URIID")),
        filename: attrField(bin, "filename"),
        description: field(child(d, "Name")),
        mime: bin?.attrs.mimeCode,
        content: bin?.text,
      };
    });
    inv.contractReference = field(path(agreement, "ContractReferencedDocument", "IssuerAssignedID"));
    inv.despatchAdvice = field(path(delivery, "DespatchAdviceReferencedDocument", "IssuerAssignedID"));
    inv.receivingAdvice = field(path(delivery, "ReceivingAdviceReferencedDocument", "IssuerAssignedID"));
    inv.projectReference = field(path(agreement, "SpecifiedProcuringProject", "ID"));
    inv.projectName = field(path(agreement, "SpecifiedProcuringProject", "Name"));
    inv.accountingReference = field(path(settlement, "ReceivableSpecifiedTradeAccountingAccount", "ID"));
    inv.salesOrderReference = field(path(agreement, "SellerOrderReferencedDocument", "IssuerAssignedID"));
    inv.seller = this.party(child(agreement, "SellerTradeParty"));
    inv.buyer = this.party(child(agreement, "BuyerTradeParty"));
    const rep = child(agreement, "SellerTaxRepresentativeTradeParty");
    if (rep) inv.taxRepresentative = this.party(rep);
    const payee = child(settlement, "PayeeTradeParty");
    if (payee) inv.payee = this.party(payee);
    if (delivery) {
      const shipTo = child(delivery, "ShipToTradeParty");
      inv.delivery = {
        at: delivery.xpath,
        date: this.date(path(delivery, "ActualDeliverySupplyChainEvent", "OccurrenceDateTime")),
        name: field(child(shipTo, "Name")),
        locationId: field(child(shipTo, "ID")) ?? field(child(shipTo, "GlobalID")),
        address: this.address(child(shipTo, "PostalTradeAddress")),
      };
    }
    inv.currency = field(child(settlement, "InvoiceCurrencyCode"));
    inv.creditorId = field(child(settlement, "CreditorReferenceID"));
    inv.paymentReference = field(child(settlement, "PaymentReference"));
    inv.taxCurrency = field(child(settlement, "TaxCurrencyCode"));
    inv.period = this.period(child(settlement, "BillingSpecifiedPeriod"));
    const terms = child(settlement, "SpecifiedTradePaymentTerms");
    const description = child(terms, "Description");
    inv.paymentTerms = description && { ...field(description)!, raw: description.text };
    inv.dueDate = this.date(child(terms, "DueDateDateTime"));
    const mandate = field(child(terms, "DirectDebitMandateID"));
    inv.paymentMeans = children(settlement, "SpecifiedTradeSettlementPaymentMeans").map((pm) => ({
      at: pm.xpath,
      code: field(child(pm, "TypeCode")),
      text: field(child(pm, "Information")),
      transfers: children(pm, "PayeePartyCreditorFinancialAccount").map((a) => ({
        at: a.xpath,
        account: field(child(a, "IBANID")) ?? field(child(a, "ProprietaryID")),
        name: field(child(a, "AccountName")),
        bic: field(path(pm, "PayeeSpecifiedCreditorFinancialInstitution", "BICID")),
      })),
      card: field(path(pm, "ApplicableTradeSettlementFinancialCard", "ID")),
      cardHolder: field(path(pm, "ApplicableTradeSettlementFinancialCard", "CardholderName")),
      mandate,
      debitedAccount: field(path(pm, "PayerPartyDebtorFinancialAccount", "IBANID")),
    }));
    for (const t of children(settlement, "ApplicableTradeTax")) {
      inv.vat.push({
        at: t.xpath,
        tax: field(child(t, "CalculatedAmount")),
        taxable: field(child(t, "BasisAmount")),
        category: field(child(t, "CategoryCode")),
        rate: field(child(t, "RateApplicablePercent")),
        reason: field(child(t, "ExemptionReason")),
        reasonCode: field(child(t, "ExemptionReasonCode")),
      });
      const due = field(child(t, "DueDateTypeCode"));
      if (due && !inv.taxPointCode) inv.taxPointCode = due;
      const point = this.date(child(t, "TaxPointDate"));
      if (point && !inv.taxPointDate) inv.taxPointDate = point;
    }
    for (const ac of children(settlement, "SpecifiedTradeAllowanceCharge").map((e) => this.allowanceCharge(e))) {
      (ac.charge ? inv.charges : inv.allowances).push(ac);
    }
    const sums = child(settlement, "SpecifiedTradeSettlementHeaderMonetarySummation");
    if (sums) {
      inv.taxTotals = children(sums, "TaxTotalAmount").map((e) => field(e)!);
      inv.totals = {
        at: sums.xpath,
        lineTotal: field(child(sums, "LineTotalAmount")),
        allowanceTotal: field(child(sums, "AllowanceTotalAmount")),
        chargeTotal: field(child(sums, "ChargeTotalAmount")),
        taxBasis: field(child(sums, "TaxBasisTotalAmount")),
        grand: field(child(sums, "GrandTotalAmount")),
        prepaid: field(child(sums, "TotalPrepaidAmount")),
        rounding: field(child(sums, "RoundingAmount")),
        due: field(child(sums, "DuePayableAmount")),
      };
    }
    inv.preceding = children(settlement, "InvoiceReferencedDocument").map((d) => ({
      at: d.xpath,
      number: field(child(d, "IssuerAssignedID")),
      date: this.date(child(d, "FormattedIssueDateTime")),
    }));
    inv.lines = children(tx, "IncludedSupplyChainTradeLineItem").map((l) => {
      const line = child(l, "AssociatedDocumentLineDocument");
      const product = child(l, "SpecifiedTradeProduct");
      const lineAgreement = child(l, "SpecifiedLineTradeAgreement");
      const lineSettlement = child(l, "SpecifiedLineTradeSettlement");
      const gross = child(lineAgreement, "GrossPriceProductTradePrice");
      const net = child(lineAgreement, "NetPriceProductTradePrice");
      const qty = field(path(l, "SpecifiedLineTradeDelivery", "BilledQuantity"));
      const acs = children(lineSettlement, "SpecifiedTradeAllowanceCharge").map((e) => this.allowanceCharge(e));
      return {
        at: l.xpath,
        id: field(child(line, "LineID")),
        note: field(path(line, "IncludedNote", "Content")),
        quantity: qty,
        unit: qty && qty.attrs.unitCode !== undefined ? { v: qty.attrs.unitCode, at: `${qty.at}/@unitCode`, attrs: {} } : undefined,
        net: field(path(lineSettlement, "SpecifiedTradeSettlementLineMonetarySummation", "LineTotalAmount")),
        priceAt: net?.xpath,
        price: field(child(net, "ChargeAmount")),
        priceBaseQuantity: field(child(net, "BasisQuantity")),
        gross: field(child(gross, "ChargeAmount")),
        priceDiscount: field(path(gross, "AppliedTradeAllowanceCharge", "ActualAmount")),
        priceDiscountIndicator: field(path(gross, "AppliedTradeAllowanceCharge", "ChargeIndicator", "Indicator")),
        name: field(child(product, "Name")),
        description: field(child(product, "Description")),
        sellerItemId: field(child(product, "SellerAssignedID")),
        buyerItemId: field(child(product, "BuyerAssignedID")),
        orderLineReference: field(path(lineAgreement, "BuyerOrderReferencedDocument", "LineID")),
        accountingReference: field(path(lineSettlement, "ReceivableSpecifiedTradeAccountingAccount", "ID")),
        tax: this.tax(child(lineSettlement, "ApplicableTradeTax")),
        period: this.period(child(lineSettlement, "BillingSpecifiedPeriod")),
        allowances: acs.filter((a) => !a.charge),
        charges: acs.filter((a) => a.charge),
        standardId: field(child(product, "GlobalID")),
        classifications: children(product, "DesignatedProductClassification").flatMap((c) => {
          const f = field(child(c, "ClassCode"));
          return f ? [f] : [];
        }),
        attributes: children(product, "ApplicableProductCharacteristic").map((p) => ({
          at: p.xpath,
          name: field(child(p, "Description")),
          value: field(child(p, "Value")),
        })),
        originCountry: field(path(product, "OriginTradeCountry", "ID")),
        objectId: field(path(lineSettlement, "AdditionalReferencedDocument", "IssuerAssignedID")),
        objectTypeCode: child(lineSettlement, "AdditionalReferencedDocument")
          ? (field(path(lineSettlement, "AdditionalReferencedDocument", "TypeCode")) ?? {
              v: "",
              at: child(lineSettlement, "AdditionalReferencedDocument")!.xpath,
              attrs: {},
            })
          : undefined,
      };
    });
    return inv;
  }
}

/** The semantic model of a CII invoice (the root's namespace is checked by the caller). */
export function readCii(root: XmlElement): SemInvoice {
  return new CiiReader(root).read();
}
