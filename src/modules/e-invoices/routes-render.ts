// POST /api/v1/e-invoices/render: the same four forms of body as /validate (routes.ts), answered like
// generate-pdf-async: 202 {report_id}, and the report is an ordinary one (GET, download, webhooks,
// retention). The reading and the check run in the checker's worker threads; render.ts makes the request.
import { Elysia, t } from "elysia";
import type { apiGuard } from "../../http/auth";
import { errorSchema, withBody } from "../../http/openapi";
import { noteReport, requestIdOf } from "../../http/request-context";
import type { ReportsService } from "../reports/service";
import { RENDER_LANGUAGES } from "./labels";
import { RULES_HELP } from "./model";
import { renderRequest, renderSettings } from "./render";
import { documentBody, inputOf, rulesOf } from "./routes";
import type { EInvoiceChecker } from "./service";

const SETTINGS = {
  language: {
    type: "string" as const,
    enum: [...RENDER_LANGUAGES],
    default: "en",
    description: "The language of the labels; amounts and dates are formatted for it (de-DE, en-GB, fr-FR)",
  },
  archive: {
    type: "boolean" as const,
    default: false,
    description: "PDF/A-3b with the original XML embedded unchanged, byte for byte (named after the invoice number)",
  },
  template_id: {
    type: "string" as const,
    description: "A stored template to print with instead of the built-in layout; it sees the same data (docs/e-invoices.md)",
  },
  template_version: { type: "integer" as const, minimum: 1, description: "With template_id: its version (default the latest)" },
  rules: { type: "string" as const, description: RULES_HELP },
};

const query = t.Object({
  rules: t.Optional(t.String({ description: RULES_HELP })),
  language: t.Optional(t.String({ description: SETTINGS.language.description })),
  archive: t.Optional(t.String({ description: `${SETTINGS.archive.description}: true or false` })),
  template_id: t.Optional(t.String({ description: SETTINGS.template_id.description })),
  template_version: t.Optional(t.String({ description: SETTINGS.template_version.description })),
  webhook_url: t.Optional(t.String({ description: "A webhook for the report (as generate-pdf-async's webhook.url)" })),
});

export const eInvoiceRenderRoutes = (
  checker: EInvoiceChecker,
  reports: ReportsService,
  guard: ReturnType<typeof apiGuard>,
  originOf: (request: Request) => string,
) =>
  new Elysia({ name: "e-invoices-render-routes", detail: { tags: ["E-invoices"] } }).use(guard).post(
    "/e-invoices/render",
    async ({ body, query, principal, request, set }) => {
      const { input, rules, fields } = inputOf(body);
      const settings = renderSettings(query, fields);
      const sets = rulesOf(query.rules, "rules") ?? rulesOf(rules, "rules");
      const reading = await checker.read(input, sets);
      const { reportId } = await reports.submit(principal, renderRequest(reading, settings), originOf(request), requestIdOf(request));
      noteReport(request, reportId);
      set.status = 202;
      set.headers.location = `/api/v1/reports/${reportId}`;
      return { report_id: reportId };
    },
    {
      query,
      response: withBody({
        202: t.Object({ report_id: t.String({ format: "uuid" }) }),
        404: errorSchema,
        422: errorSchema,
        507: errorSchema,
      }),
      detail: {
        operationId: "renderEInvoice",
        summary: "Print an incoming e-invoice readable",
        description:
          "Takes the same documents as `POST /e-invoices/validate` (UBL, CII, or a Factur-X/ZUGFeRD PDF: raw body, multipart `file`, or JSON " +
          "`{xml_base64 | pdf_base64}`), checks it by the same rules, and queues an ordinary report that prints it: seller and buyer, " +
          "dates, references, the lines, allowances and charges, the VAT breakdown, the totals, payment terms and account, notes, the " +
          "supporting documents, and last the validation result. Answers 202 `{report_id}` like generate-pdf-async; GET, download, " +
          "webhooks and retention are those of any report. Supporting documents the XML embeds (BG-24) become attachments of the PDF. " +
          "`language` (`de`, `en`, `fr`) picks the labels and the number and date format; `archive: true` makes a PDF/A-3b carrying the " +
          "original XML unchanged; `template_id` prints with a stored template that sees `e_invoice`, `validation`, `language`, `locale` " +
          "and `labels`. With a raw body, the settings go in the query. Refusals are those of validate (400 e_invoice_unreadable, 413 " +
          "e_invoice_too_large, 422 e_invoice_unsupported), 422 validation_failed for a bad setting, and those of generate-pdf-async " +
          "(404 an unknown template_id; 429, 503 and 507 for the quota, the queue and the disk).",
        requestBody: documentBody(
          { ...SETTINGS, webhook_url: { type: "string", description: "A webhook for the report" } },
          { ...SETTINGS, webhook: { type: "object", properties: { url: { type: "string" } }, description: "As generate-pdf-async's" } },
        ),
      },
    },
  );
