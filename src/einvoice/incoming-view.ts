// An incoming e-invoice as a template sees it (POST /api/v1/e-invoices/render): the semantic model
// the readers filled (read-ubl.ts, read-cii.ts) turned into the `e_invoice` variable outgoing templates
// get (template-data.ts, the JSON model's field names), so one template can print both. Values are the
// text the XML carries, not recomputed: the readable copy shows what the sender wrote, and the
// validation section says whether that adds up. Pure, so it runs in the checker's worker threads.

import type { Field, SemAddress, SemAllowanceCharge, SemInvoice, SemLine, SemParty, SemTax } from "./semantic";

/** An attachment of the readable PDF: a supporting document (BG-24) the XML embeds. */
export interface IncomingAttachment {
  filename: string;
  mime_type?: string;
  content_base64: string;
}

type Json = { [k: string]: unknown };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** What options.attachments takes as a file name (pdf/option-problems.ts): no slashes or control characters. */
const UNSAFE_NAME = /[/\\\p{Cc}]+/gu;

/** The value of a field; undefined when absent or blank, so JSON leaves the key out. */
const v = (f: Field | undefined): string | undefined => (f && f.v !== "" ? f.v : undefined);

/** An object without its undefined keys (and undefined when nothing is left), so a template can test `if (x.y)`. */
function compact(o: Json): Json | undefined {
  const out: Json = {};
  for (const [k, val] of Object.entries(o)) if (val !== undefined && !(Array.isArray(val) && val.length === 0)) out[k] = val;
  return Object.keys(out).length > 0 ? out : undefined;
}

function address(a: SemAddress | undefined) {
  return (
    a &&
    compact({
      line1: v(a.line1),
      line2: v(a.line2),
      line3: v(a.line3),
      city: v(a.city),
      postal_code: v(a.postcode),
      subdivision: v(a.subdivision),
      country_code: v(a.country),
    })
  );
}

function party(p: SemParty | undefined) {
  if (!p) return undefined;
  return compact({
    name: v(p.name),
    trading_name: v(p.tradingName),
    identifiers: p.ids.flatMap((id) => (v(id) ? [compact({ scheme: id.attrs.schemeID, value: id.v })] : [])),
    legal_registration_id: v(p.legalId),
    legal_info: v(p.legalInfo),
    vat_id: v(p.vatId),
    tax_registration_id: v(p.taxRegId),
    tax_registration_scheme: v(p.taxRegScheme),
    electronic_address: p.endpoint && v(p.endpoint) ? compact({ scheme: p.endpoint.attrs.schemeID, value: p.endpoint.v }) : undefined,
    address: address(p.address),
    contact: p.contact && compact({ name: v(p.contact.name), phone: v(p.contact.phone), email: v(p.contact.email) }),
  });
}

const vat = (t: SemTax | undefined) => t && compact({ category: v(t.category), rate: v(t.rate), exemption_reason: v(t.reason) });

function allowanceCharge(a: SemAllowanceCharge) {
  return compact({
    amount: v(a.amount),
    base_amount: v(a.base),
    percent: v(a.percent),
    reason: v(a.reason),
    reason_code: v(a.reasonCode),
    vat: vat(a.tax),
  });
}

/** A line (BG-25) as the JSON model names it, with XRechnung's sub-lines under it. */
function line(l: SemLine): Json | undefined {
  return compact({
    id: v(l.id),
    name: v(l.name),
    description: v(l.description),
    note: v(l.note),
    seller_item_id: v(l.sellerItemId),
    buyer_item_id: v(l.buyerItemId),
    standard_item_id: v(l.standardId),
    classifications: l.classifications.flatMap((c) => (v(c) ? [v(c)] : [])),
    object_id: v(l.objectId),
    quantity: v(l.quantity),
    unit_code: v(l.unit),
    net_price: v(l.price),
    base_quantity: v(l.priceBaseQuantity),
    gross_price: v(l.gross),
    price_discount: v(l.priceDiscount),
    vat: vat(l.tax),
    period: l.period && compact({ start: v(l.period.start), end: v(l.period.end) }),
    allowances: l.allowances.map(allowanceCharge),
    charges: l.charges.map(allowanceCharge),
    net_amount: v(l.net),
    order_line_reference: v(l.orderLineReference),
    accounting_reference: v(l.accountingReference),
    sub_lines: (l.subLines ?? []).map(line),
    origin_country: v(l.originCountry),
    attributes: l.attributes.map((a) => compact({ name: v(a.name), value: v(a.value) })),
  });
}

/** The format an incoming document is in, by its specification identifier (BT-24) and syntax. */
function formatOf(inv: SemInvoice): string {
  const id = inv.customization?.v ?? "";
  if (/xrechnung/i.test(id)) return "xrechnung";
  if (id.includes("urn:fdc:peppol.eu")) return "peppol";
  return inv.syntax === "cii" ? "facturx" : "ubl";
}

/**
 * The `e_invoice` template variable of an incoming invoice: the JSON model's fields (docs/e-invoices.md)
 * with the values as written, plus `syntax`, `document`, `customization`, each party's `identifiers`,
 * and `documents[]` (BG-24) with the name each attachment got in the PDF.
 */
export function incomingTemplateData(inv: SemInvoice): { e_invoice: Json; attachments: IncomingAttachment[] } {
  const attachments: IncomingAttachment[] = [];
  const used = new Set<string>();
  const documents = inv.documents.map((d, i) => {
    const content = d.content?.replace(/\s+/g, "");
    let attached: string | undefined;
    if (content && content.length % 4 === 0 && BASE64.test(content)) {
      const base = (v(d.filename) ?? v(d.id) ?? `attachment-${i + 1}`).replace(UNSAFE_NAME, "_").slice(0, 200) || `attachment-${i + 1}`;
      attached = base;
      // Two documents of one name would be one attachment: the later ones are numbered.
      for (let n = 2; used.has(attached); n++) attached = `${n}-${base}`;
      used.add(attached);
      attachments.push({ filename: attached, ...(d.mime ? { mime_type: d.mime } : {}), content_base64: content });
    }
    return compact({
      id: v(d.id),
      scheme: v(d.scheme),
      type_code: v(d.typeCode),
      uri: v(d.uri),
      description: v(d.description),
      filename: v(d.filename),
      attached_as: attached,
    });
  });
  const pm = inv.paymentMeans[0];
  const transfer = pm?.transfers[0];
  const t = inv.totals;
  const e_invoice = compact({
    format: formatOf(inv),
    syntax: inv.syntax,
    document: inv.document,
    customization: v(inv.customization),
    profile: v(inv.profile),
    number: v(inv.number),
    issue_date: v(inv.issueDate),
    type_code: v(inv.typeCode),
    currency: v(inv.currency),
    tax_currency: v(inv.taxCurrency),
    tax_point_date: v(inv.taxPointDate),
    notes: inv.notes.flatMap((n) => (v(n.text) ? [compact({ text: v(n.text), subject_code: v(n.subject) })] : [])),
    buyer_reference: v(inv.buyerReference),
    order_reference: v(inv.orderReference),
    sales_order_reference: v(inv.salesOrderReference),
    contract_reference: v(inv.contractReference),
    project_reference: v(inv.projectReference),
    project_name: v(inv.projectName),
    despatch_advice: v(inv.despatchAdvice),
    receiving_advice: v(inv.receivingAdvice),
    tender_reference: v(inv.tenderReference),
    accounting_reference: v(inv.accountingReference),
    preceding_invoices: inv.preceding.map((p) => compact({ number: v(p.number), issue_date: v(p.date) })),
    documents,
    seller: party(inv.seller),
    buyer: party(inv.buyer),
    payee: party(inv.payee),
    tax_representative: party(inv.taxRepresentative),
    delivery:
      inv.delivery &&
      compact({
        date: v(inv.delivery.date),
        ship_to_name: v(inv.delivery.name),
        location_id: v(inv.delivery.locationId),
        ship_to_address: address(inv.delivery.address),
      }),
    billing_period: inv.period && compact({ start: v(inv.period.start), end: v(inv.period.end) }),
    due_date: v(inv.dueDate),
    payment_terms: inv.paymentTerms?.raw?.trim() || v(inv.paymentTerms),
    payment: compact({
      means_code: v(pm?.code),
      means_text: v(pm?.text),
      reference: v(inv.paymentReference),
      iban: v(transfer?.account),
      account_name: v(transfer?.name),
      bic: v(transfer?.bic),
      card: v(pm?.card),
      card_holder: v(pm?.cardHolder),
      card_network: v(pm?.cardNetwork),
      mandate_reference: v(pm?.mandate),
      creditor_id: v(inv.creditorId),
      debited_account: v(pm?.debitedAccount),
      third_party: inv.thirdPartyPayments.map((p) => compact({ type: v(p.type), amount: v(p.amount), description: v(p.description) })),
      // Every account of every payment means group, where there are more than the first.
      accounts: inv.paymentMeans.flatMap((m) =>
        m.transfers.map((a) => compact({ iban: v(a.account), account_name: v(a.name), bic: v(a.bic) })),
      ),
    }),
    lines: inv.lines.map(line),
    allowances: inv.allowances.map(allowanceCharge),
    charges: inv.charges.map(allowanceCharge),
    vat_breakdown: inv.vat.map((g) =>
      compact({
        category: v(g.category),
        rate: v(g.rate),
        taxable_amount: v(g.taxable),
        tax_amount: v(g.tax),
        exemption_reason: v(g.reason),
        exemption_reason_code: v(g.reasonCode),
      }),
    ),
    totals:
      t &&
      compact({
        line_total: v(t.lineTotal),
        allowance_total: v(t.allowanceTotal),
        charge_total: v(t.chargeTotal),
        tax_basis_total: v(t.taxBasis),
        tax_total: v(inv.taxTotals.find((f) => f.attrs.currencyID === inv.currency?.v) ?? inv.taxTotals[0]),
        grand_total: v(t.grand),
        prepaid: v(t.prepaid),
        rounding: v(t.rounding),
        due_payable: v(t.due),
      }),
  }) ?? { lines: [] };
  return { e_invoice: { lines: [], vat_breakdown: [], ...e_invoice }, attachments };
}
