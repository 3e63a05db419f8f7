// Factur-X 1.0 (= ZUGFeRD 2.x) profiles: the guideline id each writes into the XML (BT-24), and the
// values the PDF/A-3 step needs for the embedded file and the XMP extension schema (fx:…).

/** The Factur-X profiles, from least to most content. */
export const facturXProfiles = ["minimum", "basicwl", "basic", "en16931", "extended", "xrechnung"] as const;
export type FacturXProfile = (typeof facturXProfiles)[number];

/** Specification identifier (BT-24) of each profile. */
export const GUIDELINE_IDS: Record<FacturXProfile, string> = {
  minimum: "urn:factur-x.eu:1p0:minimum",
  basicwl: "urn:factur-x.eu:1p0:basicwl",
  basic: "urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic",
  en16931: "urn:cen.eu:en16931:2017",
  extended: "urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended",
  xrechnung: "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0",
};

/** fx:ConformanceLevel of each profile, spelt as Factur-X 1.0's XMP schema wants it. */
const CONFORMANCE_LEVELS: Record<FacturXProfile, string> = {
  minimum: "MINIMUM",
  basicwl: "BASIC WL",
  basic: "BASIC",
  en16931: "EN 16931",
  extended: "EXTENDED",
  xrechnung: "XRECHNUNG",
};

/** The profile a specification identifier (BT-24) names, or undefined when it is none of them. */
export function profileOfGuideline(id: string): FacturXProfile | undefined {
  const exact = facturXProfiles.find((p) => GUIDELINE_IDS[p] === id);
  if (exact) return exact;
  if (/xrechnung/i.test(id)) return "xrechnung";
  if (/urn:factur-x\.eu:1p0:extended$|urn:zugferd\.de:2p\d:extended$/.test(id)) return "extended";
  if (/urn:factur-x\.eu:1p0:basic$|urn:zugferd\.de:2p\d:basic$/.test(id)) return "basic";
  if (id.startsWith("urn:cen.eu:en16931:2017")) return "en16931";
  return undefined;
}

/** What the PDF step writes for a Factur-X file: the embedded file's name and relationship, and the XMP values. */
export interface FacturXMetadata {
  /** Namespace URI of the fx: XMP extension schema. */
  namespaceUri: "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#";
  prefix: "fx";
  /** fx:DocumentType */
  documentType: "INVOICE";
  /** fx:DocumentFileName, and the name of the embedded file: xrechnung.xml for XRECHNUNG (ZUGFeRD 2.1.1 on), else factur-x.xml. */
  documentFileName: "factur-x.xml" | "xrechnung.xml";
  /** fx:Version: of the Factur-X XMP schema followed. */
  version: "1.0";
  /** fx:ConformanceLevel */
  conformanceLevel: string;
  /**
   * /AFRelationship of the embedded file: Alternative when the XML is the invoice in another form
   * (BASIC, EN 16931, EXTENDED, XRECHNUNG: EN 16931 invoices, and what German receivers require); Data
   * for MINIMUM and BASIC WL, which carry only some of its data.
   */
  afRelationship: "Alternative" | "Data";
  mimeType: "text/xml";
  description: string;
}

/** The Factur-X values for the XMP metadata and the embedded file of a PDF/A-3 invoice in `profile`. */
export function facturXMetadata(profile: FacturXProfile): FacturXMetadata {
  return {
    namespaceUri: "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#",
    prefix: "fx",
    documentType: "INVOICE",
    documentFileName: profile === "xrechnung" ? "xrechnung.xml" : "factur-x.xml",
    version: "1.0",
    conformanceLevel: CONFORMANCE_LEVELS[profile],
    afRelationship: profile === "minimum" || profile === "basicwl" ? "Data" : "Alternative",
    mimeType: "text/xml",
    description: `Factur-X invoice, profile ${CONFORMANCE_LEVELS[profile]}`,
  };
}
