// Request schemas (validated by Elysia, published in OpenAPI) and the JSON form of a report.
import { reportFailureCodes } from "../../lib/error-codes";
import { t } from "elysia";
import { oneOf } from "../../http/schema";
import { reportStatuses, engines } from "../../db/schema";
import { iso } from "../../lib/time";
import { paperFormats } from "../../render/pdf-options";
import type { ReportSummary } from "./repo";
import { reportWebhookSchema, webhookRequestSchema } from "../webhooks/model";

const cssLength = t.String({ pattern: "^(0|\\d{1,4}(\\.\\d{1,3})?(px|in|cm|mm))$", description: "CSS length: 0, or a number with px, in, cm or mm", examples: ["10mm"] });

export const pdfOptionsSchema = t.Object(
  {
    format: t.Optional(oneOf(paperFormats, { description: "Paper size when the page's CSS sets no @page size", default: "A4" })),
    landscape: t.Optional(t.Boolean({ default: false })),
    print_background: t.Optional(t.Boolean({ default: true, description: "Print background colours and images" })),
    scale: t.Optional(t.Number({ minimum: 0.1, maximum: 2, default: 1 })),
    margin: t.Optional(t.Object({ top: t.Optional(cssLength), right: t.Optional(cssLength), bottom: t.Optional(cssLength), left: t.Optional(cssLength) }, { additionalProperties: false })),
  },
  { additionalProperties: false, description: "Optional print settings (reportgen extension). CSS @page rules in the template win over format." },
);

export function generateBodySchema(templateMaxLength: number) {
  return t.Object(
    {
      html_template: t.String({ minLength: 1, maxLength: templateMaxLength, description: "HTML; with engine ejs it may contain EJS tags such as <%= name %>" }),
      engine: oneOf(engines, { description: "ejs: render html_template with data through EJS (sandboxed). raw: print html_template as given" }),
      data: t.Optional(t.Any({ description: "JSON object with the template's values. Required for ejs; ignored for raw" })),
      options: t.Optional(pdfOptionsSchema),
      webhook: t.Optional(webhookRequestSchema),
    },
    { additionalProperties: false },
  );
}

export const listQuerySchema = t.Object({
  // Ranges of numeric query fields are checked by queryNumber(), which names the field in the error.
  limit: t.Optional(t.Numeric({ description: "Page size, a whole number from 1 to 100 (default 20)" })),
  cursor: t.Optional(t.String({ maxLength: 200, description: "next_cursor of the previous page" })),
  status: t.Optional(oneOf(reportStatuses, { description: "Only reports in this status" })),
});

export const waitQuerySchema = t.Object({
  wait: t.Optional(t.Numeric({ description: "Long polling: wait up to this many seconds (0 to 30) for the report to finish before answering" })),
});

export const reportIdParams = t.Object({ reportID: t.String({ description: "report_id (UUID)" }) });

export const reportSchema = t.Object({
  report_id: t.String({ format: "uuid" }),
  status: oneOf(reportStatuses),
  engine: oneOf(engines),
  created_at: t.String({ format: "date-time" }),
  started_at: t.Nullable(t.String({ format: "date-time" })),
  finished_at: t.Nullable(t.String({ format: "date-time" })),
  expires_at: t.Nullable(t.String({ format: "date-time", description: "When the PDF is deleted (retention)" })),
  attempts: t.Number(),
  size_bytes: t.Nullable(t.Number()),
  page_count: t.Nullable(t.Number()),
  error: t.Nullable(t.Object({ code: t.String({ enum: reportFailureCodes, description: "Why it failed: one of a closed list (see the API description)" }), message: t.String({ description: "What to change" }) })),
  webhook: t.Optional(reportWebhookSchema),
});

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
  };
}
