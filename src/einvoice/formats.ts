// What each e-invoice format (options.e_invoice.format) writes: its syntax, specification identifier
// (BT-24) and business process (BT-23), the rule sets checked before queueing, and whether and how the
// XML goes into the PDF. One table, read by the check, the writers and the PDF/A step.
import { type FacturXProfile, GUIDELINE_IDS } from "./facturx";
import type { EInvoiceFormat, ModelProfile } from "./model";
import type { RuleSetId } from "./rules/report";

/** The output a request asks for, resolved. */
export interface EInvoiceTarget {
  format: EInvoiceFormat;
  syntax: "ubl" | "cii";
  /** The Factur-X profile when the XML goes into the PDF as Factur-X / ZUGFeRD (facturx, or an embedded XRechnung). */
  profile?: FacturXProfile;
  /** Whether the XML is attached to the PDF (then PDF/A-3b). */
  embed: boolean;
  /** The specification identifier (BT-24). */
  customization: string;
  /** The business process (BT-23), where the format wants one. */
  process?: string;
  /** The rule sets the invoice must pass before it is queued (EN 16931 always). */
  rules: RuleSetId[];
  /** The name of the XML attached to the PDF. */
  fileName: string;
}

export const XRECHNUNG_ID = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0";
export const PEPPOL_ID = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0";
/** Peppol's billing process; XRechnung adopts Peppol's rule that a business process is given (PEPPOL-EN16931-R001). */
const PEPPOL_PROCESS = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0";

/** The API's profile names as Factur-X's own (basic-wl is BASIC WL). */
const PROFILES: Record<ModelProfile, FacturXProfile> = {
  minimum: "minimum",
  "basic-wl": "basicwl",
  basic: "basic",
  en16931: "en16931",
  extended: "extended",
  xrechnung: "xrechnung",
};

/** The target of a request's format, profile, syntax and embed (already checked against the schema). */
export function targetOf(o: { format?: EInvoiceFormat; profile?: ModelProfile; syntax?: "ubl" | "cii"; embed?: boolean }): EInvoiceTarget {
  const format = o.format ?? "facturx";
  const embed = o.embed === true;
  switch (format) {
    case "facturx": {
      const profile = PROFILES[o.profile ?? "en16931"];
      const xrechnung = profile === "xrechnung";
      return {
        format,
        syntax: "cii",
        profile,
        embed: true,
        customization: GUIDELINE_IDS[profile],
        ...(xrechnung ? { process: PEPPOL_PROCESS } : {}),
        rules: xrechnung ? ["en16931", "xrechnung"] : ["en16931"],
        fileName: xrechnung ? "xrechnung.xml" : "factur-x.xml",
      };
    }
    case "xrechnung":
      return {
        format,
        syntax: o.syntax ?? "ubl",
        // Attached, an XRechnung is ZUGFeRD's XRECHNUNG profile.
        ...(embed ? { profile: "xrechnung" as const } : {}),
        embed,
        customization: XRECHNUNG_ID,
        process: PEPPOL_PROCESS,
        rules: ["en16931", "xrechnung"],
        fileName: "xrechnung.xml",
      };
    case "peppol":
      return {
        format,
        syntax: "ubl",
        embed,
        customization: PEPPOL_ID,
        process: PEPPOL_PROCESS,
        rules: ["en16931", "peppol"],
        fileName: "invoice.xml",
      };
    case "ubl":
      return { format, syntax: "ubl", embed, customization: "urn:cen.eu:en16931:2017", rules: ["en16931"], fileName: "invoice.xml" };
  }
}

/** The file name a download of the XML gets: the invoice number, made safe for a header and a file system. */
export function xmlFileName(invoiceNumber: string): string {
  const safe = invoiceNumber
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[._]+/, "")
    .slice(0, 100);
  return `${safe || "invoice"}.xml`;
}
