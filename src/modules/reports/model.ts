// Request schemas (validated by Elysia, published in OpenAPI) and the JSON form of a report.

import { t } from "elysia";
import { engines, reportStatuses } from "../../db/schema";
import { named } from "../../http/openapi-names";
import { oneOf, pageQueryFields, queryNumberField } from "../../http/schema";
import { reportFailureCodes } from "../../lib/error-codes";
import { iso } from "../../lib/time";
import { deliverOptionSchema } from "../../pdf/deliver-schema";
import { IMAGE_DEFAULTS, type PdfaLevel, pdfaLevels, type StoredPostOptions } from "../../pdf/options";
import { pdfOptionsSchema } from "../../pdf/options-schema";
import { postOptions } from "../../pdf/post-options-schema";
import { CONTENT_TYPES, type ImageFormat, imageFormats } from "../../pdf/raster";
import { reportDeliveriesSchema } from "../destinations/model";
import { reportWebhookSchema, webhookRequestSchema } from "../webhooks/model";
import type { ReportSummary } from "./repo";

export function generateBodySchema(templateMaxLength: number) {
  return t.Object(
    {
      html_template: t.Optional(
        t.String({
          minLength: 1,
          maxLength: templateMaxLength,
          description: "HTML; with engine ejs it may contain EJS tags such as <%= name %>. Required unless template_id is given (not both)",
        }),
      ),
      engine: t.Optional(
        oneOf(engines, {
          description:
            "ejs: render html_template with data through EJS (sandboxed). raw: print html_template as given. Required with html_template; with template_id the template's engine is used",
        }),
      ),
      template_id: t.Optional(
        t.String({
          format: "uuid",
          description:
            "A stored template of this account (POST /templates), instead of html_template; data is checked against its data_schema " +
            "(422 when it does not match, or when the check takes longer than the server's --schema-timeout, 2 s by default)",
        }),
      ),
      template_version: t.Optional(
        t.Integer({
          minimum: 1,
          maximum: 999_999_999,
          error: "must be a whole number from 1 to 999999999: a version of template_id (GET /templates/{id} lists them)",
          description: "The version of template_id to render; default: its latest version at submission",
        }),
      ),
      data: t.Optional(t.Any({ description: "JSON object with the template's values. Required for ejs; ignored for raw" })),
      options: t.Optional(pdfOptionsSchema),
      webhook: t.Optional(webhookRequestSchema),
    },
    { additionalProperties: false },
  );
}

export const mergeBodySchema = t.Object(
  {
    report_ids: t.Array(t.String({ format: "uuid" }), {
      minItems: 2,
      maxItems: 100,
      description: "Succeeded reports of this account, in the order their pages follow each other",
    }),
    options: t.Optional(
      t.Object(
        { ...postOptions, deliver: t.Optional(deliverOptionSchema) },
        { additionalProperties: false, description: "Post-processing of the merged PDF (the same fields as in a generation request)" },
      ),
    ),
    webhook: t.Optional(webhookRequestSchema),
  },
  { additionalProperties: false },
);

export const listQuerySchema = t.Object({
  // Ranges of numeric query fields are checked by queryNumber(), which names the field in the error.
  ...pageQueryFields("Reports", 20),
  status: t.Optional(oneOf(reportStatuses, { description: "Only reports in this status" })),
});

/** ?wait: long polling, in seconds (fractions too). */
export const WAIT = { minimum: 0, maximum: 30, unit: "seconds" } as const;

export const waitQuerySchema = t.Object({
  wait: t.Optional(
    queryNumberField({ ...WAIT, description: "Long polling: wait up to this many seconds for the report to finish before answering" }),
  ),
});

export const reportIdParams = t.Object({ reportID: t.String({ description: "report_id (UUID)" }) });

export const reportSchema = named(
  "Report",
  t.Object({
    report_id: t.String({ format: "uuid" }),
    status: oneOf(reportStatuses),
    engine: oneOf(engines),
    created_at: t.String({ format: "date-time" }),
    started_at: t.Nullable(t.String({ format: "date-time" })),
    finished_at: t.Nullable(t.String({ format: "date-time" })),
    expires_at: t.Nullable(t.String({ format: "date-time", description: "When the PDF is deleted (retention)" })),
    attempts: t.Integer(),
    size_bytes: t.Nullable(t.Integer()),
    page_count: t.Nullable(t.Integer()),
    error: t.Nullable(
      t.Object({
        code: t.String({ enum: reportFailureCodes, description: "Why it failed: one of a closed list (see the API description)" }),
        message: t.String({ description: "What to change" }),
      }),
    ),
    template_id: t.Nullable(t.String({ format: "uuid", description: "The stored template it was made from; null for an inline template" })),
    template_version: t.Nullable(t.Integer({ description: "The version of template_id it was made from" })),
    pdfa: t.Nullable(
      oneOf(pdfaLevels, { description: "The PDF/A conformance level the PDF was made to (options.pdfa); null for a plain PDF" }),
    ),
    e_invoice: t.Nullable(
      t.Object(
        {
          format: t.String({ description: "facturx, xrechnung, peppol or ubl (options.e_invoice.format)" }),
          profile: t.Nullable(
            t.String({ description: "The Factur-X / ZUGFeRD profile when the XML is in the PDF as one, e.g. en16931; null otherwise" }),
          ),
          invoice_number: t.String({ description: "BT-1" }),
          grand_total: t.String({ description: "BT-112, total with VAT, as a decimal string" }),
          currency: t.String({ description: "BT-5" }),
        },
        {
          description:
            "The e-invoice (options.e_invoice): its XML is served by GET /reports/{reportID}/e-invoice, and for Factur-X is also embedded in the PDF; null when none",
        },
      ),
    ),
    progress: t.Optional(
      t.Object(
        {
          done: t.Integer({ description: "Chunks printed so far" }),
          total: t.Integer({ description: "Chunks in all" }),
        },
        { description: "While a chunked report (options.chunk) is processing: how many of its chunks are printed" },
      ),
    ),
    signature: t.Nullable(
      t.Object(
        {
          identity_id: t.String({ description: "The signing identity of options.signature" }),
          signer: t.String({ description: "The signer's common name, as PDF readers show it" }),
          level: t.Union([t.Literal("B-B"), t.Literal("B-T")], { description: "PAdES baseline level: B-T carries an RFC 3161 timestamp" }),
        },
        {
          description:
            "The PAdES signature the PDF carries (options.signature), signed when the report finished (finished_at); null when none",
        },
      ),
    ),
    image: t.Nullable(
      t.Object(
        {
          format: oneOf(imageFormats),
          dpi: t.Integer(),
          pages: t.String({ description: "The pages asked for (options.image.pages)" }),
          page_count: t.Nullable(t.Integer({ description: "Pictures in the file (once succeeded)" })),
          content_type: t.String({ description: "What the download is: the picture's type for one page, application/zip for several" }),
        },
        { description: "The report is pictures of its printed pages (options.image); null for a PDF" },
      ),
    ),
    webhook: t.Optional(reportWebhookSchema),
    deliveries: t.Optional(reportDeliveriesSchema),
  }),
);

export type ReportDeliveryJson = (typeof reportDeliveriesSchema.static)[number];

/** What a report's PDF conforms to, as the reports row keeps it (JSON in its conformance column). */
export interface ReportConformance {
  pdfa?: PdfaLevel;
  /** format is absent in rows stored before there were formats (then Factur-X). */
  e_invoice?: { format?: string; profile: string | null; invoice_number: string; grand_total: string; currency: string };
  signature?: { identity_id: string; signer: string; level: "B-B" | "B-T" };
  /** options.image: the report's file is pictures of its pages. */
  image?: { format: ImageFormat; dpi: number; pages: string };
}

function conformanceJson(stored: string | null, pageCount: number | null) {
  const c = stored ? (JSON.parse(stored) as ReportConformance) : {};
  const image = c.image ? { ...c.image, page_count: pageCount, content_type: imageContentType(c.image.format, pageCount) } : null;
  const e = c.e_invoice && { ...c.e_invoice, format: c.e_invoice.format ?? "facturx" };
  return { pdfa: c.pdfa ?? null, e_invoice: e ?? null, signature: c.signature ?? null, image };
}

/** What an image report's file is: the picture itself, or a ZIP of several (unknown until it succeeded: the picture's). */
export function imageContentType(format: ImageFormat, pageCount: number | null): string {
  return CONTENT_TYPES[pageCount !== null && pageCount > 1 ? "zip" : format];
}

/** The Content-Type and file name a report's file is downloaded with. */
export function fileTypeOf(r: ReportSummary): { contentType: string; filename: string } {
  const image = r.conformance ? (JSON.parse(r.conformance) as ReportConformance).image : undefined;
  if (!image) return { contentType: "application/pdf", filename: `report-${r.id}.pdf` };
  const contentType = imageContentType(image.format, r.pageCount);
  const ext = contentType === CONTENT_TYPES.zip ? "zip" : image.format === "jpeg" ? "jpg" : image.format;
  return { contentType, filename: `report-${r.id}.${ext}` };
}

export function toReportJson(r: ReportSummary) {
  return {
    report_id: r.id,
    status: r.status,
    engine: r.engine,
    created_at: iso(r.createdAt)!,
    started_at: iso(r.startedAt),
    finished_at: iso(r.finishedAt),
    expires_at: iso(r.expiresAt),
    attempts: r.attempts,
    size_bytes: r.sizeBytes,
    page_count: r.pageCount,
    error: r.errorCode ? { code: r.errorCode, message: r.errorMessage ?? "" } : null,
    template_id: r.templateId,
    template_version: r.templateVersion,
    ...conformanceJson(r.conformance, r.pageCount),
    ...(r.status === "processing" && r.progressTotal !== null && { progress: { done: r.progressDone ?? 0, total: r.progressTotal } }),
  };
}

/** What a report's PDF will conform to, kept with the report (GET /reports/{id} shows it); null for a plain PDF. */
export function conformanceOf(o: StoredPostOptions | undefined): string | null {
  const c: ReportConformance = {};
  if (o?.pdfa) c.pdfa = o.pdfa;
  if (o?.e_invoice) {
    const { number, grand_total, currency } = o.e_invoice.summary;
    const e = o.e_invoice;
    c.e_invoice = { format: e.format ?? "facturx", profile: e.profile ?? null, invoice_number: number, grand_total, currency };
  }
  if (o?.signature)
    c.signature = { identity_id: o.signature.identity_id, signer: o.signature.signer ?? "", level: o.signature.timestamp ? "B-T" : "B-B" };
  if (o?.image) c.image = { format: o.image.format, dpi: o.image.dpi ?? IMAGE_DEFAULTS.dpi, pages: o.image.pages ?? IMAGE_DEFAULTS.pages };
  return Object.keys(c).length ? JSON.stringify(c) : null;
}
