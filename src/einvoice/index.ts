// E-invoices (EN 16931: Factur-X / ZUGFeRD, XRechnung, Peppol BIS, UBL): the JSON model and its schema,
// the check that runs before a report is queued, the CII and UBL writers, and the Factur-X values the
// PDF/A-3 step embeds. Standalone:
// nothing here knows about requests, the queue or the PDF pipeline.

export { type CheckedEInvoice, checkEInvoice, type EInvoiceFigures, type EInvoiceSummary, type EInvoiceViolation } from "./check";
export { ciiXml, escapeXml } from "./cii";
export { CII_NS, checkCustomerXml } from "./customer-xml";
export { type FacturXMetadata, type FacturXProfile, facturXMetadata, GUIDELINE_IDS, profileOfGuideline } from "./facturx";
export { type EInvoiceTarget, targetOf, xmlFileName } from "./formats";
export {
  type EInvoiceFormat,
  type EInvoiceInput,
  type EInvoiceModel,
  eInvoiceFormats,
  eInvoiceModelSchema,
  eInvoiceSchema,
  modelProfiles,
  vatCategories,
} from "./model";
export { type EInvoiceTemplateData, templateInvoice } from "./template-data";
export { eInvoiceXml } from "./write";
