// E-invoices (Factur-X / ZUGFeRD, EN 16931): the JSON model and its schema, the check that runs before
// a report is queued, the CII XML writer, and the Factur-X values the PDF/A-3 step embeds. Standalone:
// nothing here knows about requests, the queue or the PDF pipeline.

export { type CheckedEInvoice, checkEInvoice, type EInvoiceFigures, type EInvoiceSummary, type EInvoiceViolation } from "./check";
export { ciiXml, escapeXml } from "./cii";
export { CII_NS, checkCustomerXml } from "./customer-xml";
export { type FacturXMetadata, type FacturXProfile, facturXMetadata, GUIDELINE_IDS, profileOfGuideline } from "./facturx";
export { type EInvoiceInput, type EInvoiceModel, eInvoiceModelSchema, eInvoiceSchema, modelProfiles, vatCategories } from "./model";
export { type EInvoiceTemplateData, templateInvoice } from "./template-data";
