// Request schemas (validated by Elysia, published in OpenAPI) and the JSON form of a report.

import { t } from "elysia";
import { engines, reportStatuses } from "../../db/schema";
import { oneOf, pageQueryFields } from "../../http/schema";
import { reportFailureCodes } from "../../lib/error-codes";
import { iso } from "../../lib/time";
import { layerPositions, pdfPermissions, WATERMARK_DEFAULTS } from "../../pdf/options";
import { CSS_LENGTH_RE, PAGE_RANGES_RE, paperFormats } from "../../render/pdf-options";
import { reportWebhookSchema, webhookRequestSchema } from "../webhooks/model";
import type { ReportSummary } from "./repo";

const cssLengthOf = (description: string) =>
  t.String({
    pattern: CSS_LENGTH_RE.source,
    error: "must be 0 or a number with px, in, cm or mm, e.g. 10mm",
    description,
    examples: ["10mm"],
  });
const cssLength = cssLengthOf("CSS length: 0, or a number with px, in, cm or mm");

const text = (maxLength: number, description: string) => t.String({ maxLength, description });

// Options of the PDF document itself: paper, headers and footers, metadata, structure, readiness.
const pdfOutputOptions = {
  width: t.Optional(cssLengthOf("Custom paper width (CSS length); give height too. Wins over format and landscape")),
  height: t.Optional(cssLengthOf("Custom paper height (CSS length); give width too. Wins over format and landscape")),
  prefer_css_page_size: t.Optional(
    t.Boolean({ default: true, description: "A CSS @page size in the template wins over format, width and height" }),
  ),
  page_ranges: t.Optional(
    t.String({
      pattern: PAGE_RANGES_RE.source,
      maxLength: 500,
      error: "must be pages and ranges such as 1-3, 5 (pages from 1)",
      description: 'Pages to keep, e.g. "1-3, 5"; all when absent',
      examples: ["1-3, 5"],
    }),
  ),
  header_template: t.Optional(
    text(
      100_000,
      "HTML printed at the top of every page, with its own <style>. Elements with class pageNumber, totalPages, date or title (the document's <title>, else metadata.title) are filled in. Text is 0 px unless its CSS sets a font-size. The top margin defaults to 15mm for it",
    ),
  ),
  footer_template: t.Optional(
    text(
      100_000,
      'HTML printed at the bottom of every page, as header_template; e.g. <div style="font-size:9px;width:100%;text-align:center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
    ),
  ),
  tagged: t.Optional(t.Boolean({ default: false, description: "Tagged (accessible) PDF with its structure tree" })),
  outline: t.Optional(t.Boolean({ default: false, description: "Bookmarks (outline) built from the document's headings" })),
  metadata: t.Optional(
    t.Object(
      {
        title: t.Optional(text(1000, "PDF Title; default: the document's <title>")),
        author: t.Optional(text(1000, "PDF Author")),
        subject: t.Optional(text(1000, "PDF Subject")),
        keywords: t.Optional(t.Array(t.String({ minLength: 1, maxLength: 200 }), { maxItems: 50, description: "PDF Keywords" })),
      },
      { additionalProperties: false, description: "Document information of the PDF; its Creator is always reportgen" },
    ),
  ),
  wait_for: t.Optional(
    t.Union(
      [
        t.Object(
          { selector: t.String({ minLength: 1, maxLength: 1000, description: "CSS selector of an element that must exist" }) },
          { additionalProperties: false },
        ),
        t.Object(
          {
            expression: t.String({
              minLength: 1,
              maxLength: 5000,
              description: "JavaScript expression that must become truthy, e.g. window.chartsReady === true",
            }),
          },
          { additionalProperties: false },
        ),
        t.Object(
          { delay_ms: t.Integer({ minimum: 0, maximum: 600_000, description: "Milliseconds to wait after the load event" }) },
          { additionalProperties: false },
        ),
      ],
      {
        error: 'must be one of {"selector": "<css selector>"}, {"expression": "<javascript>"} or {"delay_ms": <whole number>}',
        description:
          "Print only once this holds (after the load event and web fonts), within the render deadline; otherwise the report fails with readiness_timeout",
      },
    ),
  ),
};

const password = (description: string) => t.String({ minLength: 1, maxLength: 127, description });
const position = (description: string) => t.Optional(oneOf(layerPositions, { description }));
const opacity = (dflt: number) =>
  t.Optional(t.Number({ minimum: 0.05, maximum: 1, default: dflt, description: "From 0.05 (faint) to 1 (opaque)" }));

/**
 * What happens to the PDF after the print, run by qpdf in one pass. Shared by generation and
 * merge requests; each field is independent, so defaults and a request merge field by field.
 */
export const postOptions = {
  encryption: t.Optional(
    t.Object(
      {
        user_password: t.Optional(password("Needed to open the PDF; without it anyone may open it, with the permissions below")),
        owner_password: password("Lifts every restriction; must differ from user_password"),
        permissions: t.Optional(
          t.Array(oneOf(pdfPermissions), {
            uniqueItems: true,
            maxItems: 4,
            description: "What readers with the user password may do; anything not listed is refused (default: nothing)",
          }),
        ),
      },
      {
        additionalProperties: false,
        description:
          "Encrypt the PDF with AES-256. The passwords are never stored in clear: they wait sealed (AES-256-GCM, key derived from the server secret) until the PDF is made, then are deleted",
      },
    ),
  ),
  watermark: t.Optional(
    t.Object(
      {
        text: t.String({
          minLength: 1,
          maxLength: 100,
          description: "Western European text (WinAnsi: Latin-1 and € – — “ ” …), drawn across every page as real text",
        }),
        opacity: opacity(WATERMARK_DEFAULTS.opacity),
        angle: t.Optional(
          t.Number({ minimum: -180, maximum: 180, default: WATERMARK_DEFAULTS.angle, description: "Degrees, counter-clockwise" }),
        ),
        position: position("over (default): drawn above the content; under: behind it, hidden by opaque backgrounds"),
      },
      { additionalProperties: false, description: "Text across the centre of every page, as large as fits" },
    ),
  ),
  stamp: t.Optional(
    t.Union(
      [
        t.Object(
          {
            pdf_report_id: t.String({ format: "uuid", description: "A succeeded, unencrypted report of this account: its first page" }),
            position: position("over (default) or under the content"),
          },
          { additionalProperties: false },
        ),
        t.Object(
          {
            image: t.Object(
              {
                content_base64: t.String({ minLength: 4, description: "The image, base64" }),
                mime_type: t.Literal("image/jpeg", { description: "JPEG only (baseline or progressive)" }),
              },
              { additionalProperties: false },
            ),
            opacity: opacity(1),
            position: position("over (default) or under the content"),
          },
          { additionalProperties: false },
        ),
      ],
      {
        error: 'must be {"pdf_report_id": "<uuid>"} or {"image": {"content_base64": "...", "mime_type": "image/jpeg"}}',
        description:
          "Laid on every page: the first page of another report (scaled to fit, centred), or a JPEG at its centre (96 dpi, shrunk to fit)",
      },
    ),
  ),
  attachments: t.Optional(
    t.Array(
      t.Object(
        {
          filename: t.String({ minLength: 1, maxLength: 255, description: "Name shown by PDF readers (no / or \\)" }),
          content_base64: t.String({ description: "The file, base64" }),
          mime_type: t.Optional(t.String({ maxLength: 255, description: "e.g. application/xml" })),
        },
        { additionalProperties: false },
      ),
      {
        maxItems: 20,
        description: "Files embedded in the PDF (e.g. an e-invoice's XML). They count against the request body limit",
      },
    ),
  ),
  linearize: t.Optional(
    t.Boolean({ default: false, description: 'Fast web view: page 1 shows before the rest has downloaded ("Optimized: yes")' }),
  ),
};

export const pdfOptionsSchema = t.Object(
  {
    format: t.Optional(oneOf(paperFormats, { description: "Paper size when the page's CSS sets no @page size", default: "A4" })),
    landscape: t.Optional(t.Boolean({ default: false })),
    print_background: t.Optional(t.Boolean({ default: true, description: "Print background colours and images" })),
    scale: t.Optional(t.Number({ minimum: 0.1, maximum: 2, default: 1 })),
    margin: t.Optional(
      t.Object(
        { top: t.Optional(cssLength), right: t.Optional(cssLength), bottom: t.Optional(cssLength), left: t.Optional(cssLength) },
        { additionalProperties: false },
      ),
    ),
    ...pdfOutputOptions,
    ...postOptions,
  },
  {
    additionalProperties: false,
    description: "Optional print settings (reportgen extension). CSS @page rules in the template win over format.",
  },
);

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
        { ...postOptions },
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

export const waitQuerySchema = t.Object({
  wait: t.Optional(
    t.Numeric({ description: "Long polling: wait up to this many seconds (0 to 30) for the report to finish before answering" }),
  ),
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
  error: t.Nullable(
    t.Object({
      code: t.String({ enum: reportFailureCodes, description: "Why it failed: one of a closed list (see the API description)" }),
      message: t.String({ description: "What to change" }),
    }),
  ),
  template_id: t.Nullable(t.String({ format: "uuid", description: "The stored template it was made from; null for an inline template" })),
  template_version: t.Nullable(t.Integer({ description: "The version of template_id it was made from" })),
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
    template_id: r.templateId,
    template_version: r.templateVersion,
  };
}
