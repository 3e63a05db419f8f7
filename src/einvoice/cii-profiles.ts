// The Factur-X profiles below EN 16931 carry a subset of its CII: MINIMUM only the header figures,
// BASIC WL no lines, BASIC the lines without the EN 16931-only details (Factur-X 1.0's profile tables).
// The writer (cii.ts) writes the full invoice; this prunes it to the profile. EN 16931, EXTENDED and
// XRECHNUNG keep everything the model has.
import type { FacturXProfile } from "./facturx";
import type { Node } from "./xml-write";

/** What MINIMUM keeps, as paths of element names under the root (a kept element keeps its content). */
const MINIMUM_KEEPS = [
  "rsm:ExchangedDocumentContext",
  "rsm:ExchangedDocument/ram:ID",
  "rsm:ExchangedDocument/ram:TypeCode",
  "rsm:ExchangedDocument/ram:IssueDateTime",
  "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerReference",
  "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:Name",
  "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID",
  "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:PostalTradeAddress/ram:CountryID",
  "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:SpecifiedTaxRegistration",
  "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:Name",
  "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:SpecifiedLegalOrganization/ram:ID",
  "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerOrderReferencedDocument",
  "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeDelivery",
  "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:InvoiceCurrencyCode",
  ...["TaxBasisTotalAmount", "TaxTotalAmount", "GrandTotalAmount", "DuePayableAmount"].map(
    (n) =>
      `rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:${n}`,
  ),
];

/** What BASIC leaves out of an EN 16931 invoice: element names, wherever they are. */
const BASIC_DROPS = new Set([
  "ram:SellerAssignedID",
  "ram:BuyerAssignedID",
  "ram:Description",
  "ram:ReceivableSpecifiedTradeAccountingAccount",
  "ram:DefinedTradeContact",
  "ram:SellerOrderReferencedDocument",
  "ram:SpecifiedProcuringProject",
  "ram:Information",
  "ram:AccountName",
  "ram:PayeeSpecifiedCreditorFinancialInstitution",
]);

/** A line's order reference is EN 16931 only; the header's is BASIC's too. */
const isLineOrderReference = (path: string) => path.endsWith("ram:SpecifiedLineTradeAgreement/ram:BuyerOrderReferencedDocument");

// The payment terms' description is BT-20, which BASIC keeps: only other Descriptions go.
const dropped = (path: string, name: string) =>
  (BASIC_DROPS.has(name) && !(name === "ram:Description" && path.endsWith("ram:SpecifiedTradePaymentTerms/ram:Description"))) ||
  isLineOrderReference(path);

function prune(n: Node, path: string, keep: (path: string, name: string) => "keep" | "drop" | "descend"): Node | undefined {
  const children: Node["children"] = [];
  for (const c of n.children) {
    if (typeof c === "string") {
      children.push(c);
      continue;
    }
    const p = path ? `${path}/${c.name}` : c.name;
    const verdict = keep(p, c.name);
    if (verdict === "keep") children.push(c);
    else if (verdict === "descend") {
      const kept = prune(c, p, keep);
      // The schema wants the header delivery even when it is empty.
      if (kept) children.push(kept);
      else if (c.name === "ram:ApplicableHeaderTradeDelivery") children.push({ name: c.name, children: [] });
    }
  }
  return children.length > 0 ? { ...n, children } : undefined;
}

/** The CII document cut to a Factur-X profile (unchanged for EN 16931, EXTENDED, XRECHNUNG). */
export function pruneForProfile(root: Node, profile: FacturXProfile | undefined): Node {
  if (profile === "minimum")
    return (
      prune(root, "", (p) =>
        MINIMUM_KEEPS.includes(p) ? "keep" : MINIMUM_KEEPS.some((k) => k.startsWith(`${p}/`)) ? "descend" : "drop",
      ) ?? root
    );
  if (profile === "basicwl" || profile === "basic") {
    const noLines = profile === "basicwl";
    return (
      prune(root, "", (p, name) =>
        (noLines && name === "ram:IncludedSupplyChainTradeLineItem") || dropped(p, name) ? "drop" : "descend",
      ) ?? root
    );
  }
  return root;
}
