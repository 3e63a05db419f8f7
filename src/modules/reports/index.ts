// Routes of /api/v1/generate-pdf-async and /api/v1/reports.
import { Elysia, t } from "elysia";
import type { apiGuard } from "../../http/auth";
import { errorJson, errorSchema, jsonRef, jsonResponses, withAuth, withBody } from "../../http/openapi";
import { named, withResponseHeaders } from "../../http/openapi-names";
import { noteReport, requestIdOf } from "../../http/request-context";
import { pageQuery, pageSchema, queryNumber } from "../../http/schema";
import { iso } from "../../lib/time";
import { THUMBNAIL } from "../../pdf/raster";
import { idempotencyHeaders } from "../idempotency/model";
import { type IdempotencyService, idempotentRequest } from "../idempotency/service";
import type { WebhooksService } from "../webhooks/service";
import {
  generateBodySchema,
  listQuerySchema,
  mergeBodySchema,
  type ReportDeliveryJson,
  reportIdParams,
  reportSchema,
  toReportJson,
  WAIT,
  waitQuerySchema,
} from "./model";
import type { ReportsService } from "./service";
import type { ReportThumbnails } from "./thumbnail";

export interface ReportsRoutesOptions {
  templateMaxLength: number;
  /** The origin of download links for a request. */
  originOf: (request: Request) => string;
  idempotency: IdempotencyService;
  /** The delivery log of a report's webhook, or null. */
  webhookLog: (reportId: string) => ReturnType<WebhooksService["log"]>;
  /** A report's deliveries (options.deliver), or null. */
  deliveryLog: (reportId: string) => Promise<ReportDeliveryJson[] | null>;
  thumbnails: ReportThumbnails;
}

const notReadySchema = named(
  "NotReady",
  t.Object({
    status: t.Union([t.Literal("queued"), t.Literal("processing")]),
    report_id: t.String(),
    message: t.String(),
  }),
);

/** A submission's answer: the new report's id, and where to read it (Location). */
const queuedSchema = withResponseHeaders(named("Queued", t.Object({ report_id: t.String({ format: "uuid" }) })), {
  Location: "The new report: /api/v1/reports/{report_id}",
});

/** A link answer's responses (download and e-invoice): 200 with the link, 202 not ready, 404, 409, 410. */
const linkResponses = (what: string) =>
  withAuth({
    200: t.Object({
      data: t.String({ description: `Absolute, signed link to the ${what}; usable without a key until expires_at` }),
      expires_at: t.String({ format: "date-time" }),
    }),
    202: withResponseHeaders(notReadySchema, { "Retry-After": "" }),
    404: errorSchema,
    409: errorSchema,
    410: errorSchema,
    422: errorSchema,
  });

/** A link answer's body: the link when ready, else 202 with Retry-After and what to do. */
function linkAnswer(
  what: string,
  reportId: string,
  a: Awaited<ReturnType<ReportsService["download"]>>,
  set: { status?: number | string; headers: Record<string, unknown> },
) {
  if (!a.ready) {
    set.status = 202;
    set.headers["retry-after"] = String(a.retryAfter);
    return {
      status: a.status,
      report_id: reportId,
      message: `the ${what} is not ready yet (${a.status}); retry after ${a.retryAfter} s, or pass ?wait=30 to wait for it`,
    };
  }
  return { data: a.url, expires_at: iso(a.expiresAt)! };
}

/**
 * Queues a report through the Idempotency-Key check: 202 with the report's id and Location, or the stored
 * answer of an earlier request with the same key (Idempotent-Replayed: true).
 */
async function queueIdempotently(
  ctx: {
    principal: { accountId: string; keyId: string };
    body: unknown;
    set: { status?: number | string; headers: Record<string, unknown> };
    headers: Record<string, string | undefined>;
    request: Request;
  },
  opts: ReportsRoutesOptions,
  submit: () => Promise<{ reportId: string }>,
) {
  const { principal, body, set, headers, request } = ctx;
  const r = await opts.idempotency.run(
    idempotentRequest({ principal, headers, request, body }),
    () => undefined,
    async () => {
      const { reportId } = await submit();
      return { status: 202, headers: { location: `/api/v1/reports/${reportId}` }, body: { report_id: reportId } };
    },
  );
  set.status = r.status;
  Object.assign(set.headers, r.headers);
  if (r.replayed) set.headers["idempotent-replayed"] = "true";
  const reportId = (r.body as { report_id?: string } | undefined)?.report_id;
  if (reportId) noteReport(request, reportId);
  return r.body;
}

export const reportsRoutes = (reports: ReportsService, guard: ReturnType<typeof apiGuard>, opts: ReportsRoutesOptions) =>
  new Elysia({ name: "reports-routes", detail: { tags: ["Reports"] } })
    .use(guard)
    .post(
      "/generate-pdf-async",
      (ctx) =>
        queueIdempotently(ctx, opts, () => reports.submit(ctx.principal, ctx.body, opts.originOf(ctx.request), requestIdOf(ctx.request))),
      {
        body: generateBodySchema(opts.templateMaxLength),
        headers: idempotencyHeaders,
        parse: "json", // documents the media type; apiGuard's parser (registered first) does the parsing
        response: withBody({
          202: queuedSchema,
          404: errorSchema,
          409: errorSchema,
          422: errorSchema,
          507: errorSchema,
        }),
        detail: {
          operationId: "generatePdfAsync",
          summary: "Queue a PDF",
          description:
            "Answers 202 with `report_id` as soon as the report is durably queued. Poll `GET /reports/{reportID}` or `GET /reports/{reportID}/download`. " +
            "With engine `ejs`, EJS runs in a sandbox (no host access) with the given `data`; EJS options are never taken from `data`. " +
            "With engine `raw`, the HTML is printed as given and `data` is ignored. " +
            "Instead of `html_template` and `engine`, `template_id` (and optionally `template_version`, default the latest) renders a stored template: " +
            "`data` is checked against its `data_schema` before anything is queued (422 validation_failed naming every failing path), its `options` are " +
            "defaults that the request's override field by field, and the report records `template_id` and `template_version`. " +
            "Exactly one form per request (422 otherwise); an unknown template or version, or another account's, is 404. " +
            "With `webhook.url`, a signed event is POSTed there when the report succeeds or fails (see Webhooks above). " +
            "With an `Idempotency-Key` header, a retry within 24 hours returns the same `report_id` instead of queueing a second report.",
        },
      },
    )
    .post(
      "/reports/merge",
      (ctx) =>
        queueIdempotently(ctx, opts, () =>
          reports.submitMerge(ctx.principal, ctx.body, opts.originOf(ctx.request), requestIdOf(ctx.request)),
        ),
      {
        body: mergeBodySchema,
        headers: idempotencyHeaders,
        parse: "json",
        response: withBody({
          202: queuedSchema,
          404: errorSchema,
          409: errorSchema,
          422: errorSchema,
          507: errorSchema,
        }),
        detail: {
          operationId: "mergeReports",
          summary: "Merge reports into one PDF",
          description:
            "Queues a new report whose PDF is the given reports' PDFs one after the other (its page count is their sum, plus the pages of a table of contents), with one bookmark per part " +
            "(the part's PDF title, else `Report <id>`), and `options` (toc, page_numbers, watermark, stamp, attachments, encryption, linearize, pdfa) applied to the result. " +
            "The new report follows the same flow as a generated one: status, long polling, download link and `webhook`; it shows engine `raw`. " +
            "Every part must be a succeeded, unencrypted report of this account: an unknown id or another account's is 404, one not yet succeeded (or expired, or encrypted) is 422 naming it.",
        },
      },
    )
    .get(
      "/reports",
      async ({ principal, query }) => {
        const page = await reports.list(principal.accountId, { ...query, ...pageQuery(query) });
        return { data: page.items.map(toReportJson), next_cursor: page.nextCursor };
      },
      {
        query: listQuerySchema,
        response: withAuth({
          200: pageSchema(reportSchema),
          400: errorSchema,
          422: errorSchema,
        }),
        detail: {
          operationId: "listReports",
          summary: "List the account's reports",
          description:
            "Newest first, `limit` per page (default 20, at most 100), optionally only one `status`. Reports of other accounts are never listed.",
        },
      },
    )
    .get(
      "/reports/:reportID",
      async ({ principal, params, query }) => {
        const r = await reports.getWhenFinished(principal.accountId, params.reportID, queryNumber("wait", query.wait, WAIT));
        // `webhook` and `deliveries` only for reports submitted with them: other reports keep exactly the v1 shape.
        const [webhook, deliveries] = await Promise.all([opts.webhookLog(r.id), opts.deliveryLog(r.id)]);
        return { data: { ...toReportJson(r), ...(webhook ? { webhook } : {}), ...(deliveries ? { deliveries } : {}) } };
      },
      {
        params: reportIdParams,
        query: waitQuerySchema,
        response: withAuth({ 200: t.Object({ data: reportSchema }), 404: errorSchema, 422: errorSchema }),
        detail: {
          operationId: "getReport",
          summary: "A report's status",
          description:
            "Status is one of queued, processing, succeeded, failed (with `error`), expired (PDF deleted after the retention period). With `wait`, answers as soon as the report is finished (long polling). " +
            "For a report submitted with a webhook, `webhook` shows its URL and every delivery attempt with its outcome (absent otherwise, and in the list). " +
            "For a report submitted with options.deliver, `deliveries` shows each destination's status (pending, delivered, failed), attempts, target, delivered_at and last error.",
        },
      },
    )
    .get(
      "/reports/:reportID/download",
      async ({ principal, params, query, request, set }) => {
        const a = await reports.download(
          principal.accountId,
          params.reportID,
          opts.originOf(request),
          queryNumber("wait", query.wait, WAIT),
        );
        return linkAnswer("PDF", params.reportID, a, set);
      },
      {
        params: reportIdParams,
        query: waitQuerySchema,
        response: linkResponses("PDF"),
        detail: {
          operationId: "downloadReport",
          summary: "A download link for the PDF",
          description:
            "200 with `data` (the link) when ready. 202 with `status` and a `Retry-After` header while queued or processing (with `wait`, only after waiting that long). 409 `report_failed` with the reason when rendering failed. 410 `report_expired` after the retention period; 410 `pdf_missing` when a succeeded report's PDF is missing from the store before then (the report then carries that error too).",
        },
      },
    )
    .get(
      "/reports/:reportID/e-invoice",
      async ({ principal, params, query, request, set }) => {
        const a = await reports.eInvoiceLink(
          principal.accountId,
          params.reportID,
          opts.originOf(request),
          queryNumber("wait", query.wait, WAIT),
        );
        return linkAnswer("e-invoice", params.reportID, a, set);
      },
      {
        params: reportIdParams,
        query: waitQuerySchema,
        response: linkResponses("e-invoice XML"),
        detail: {
          operationId: "getReportEInvoice",
          summary: "A download link for the e-invoice XML",
          description:
            "For a report with options.e_invoice: answers like /download, with a link that serves the XML (application/xml, named after the invoice number): the XRechnung, Peppol or UBL XML, or for Factur-X the XML embedded in the PDF. 404 for a report without an e-invoice.",
        },
      },
    )
    .get(
      "/reports/:reportID/thumbnail",
      async ({ principal, params, set }) => {
        const a = await opts.thumbnails.get(principal.accountId, params.reportID);
        if ("ready" in a) {
          set.status = 202;
          set.headers["retry-after"] = String(a.retryAfter);
          return {
            status: a.status,
            report_id: params.reportID,
            message: `the report is not ready yet (${a.status}); retry after ${a.retryAfter} s`,
          };
        }
        return new Response(new Blob([a.png as Uint8Array<ArrayBuffer>]), {
          headers: { "content-type": "image/png", "cache-control": "private, max-age=3600", "x-content-type-options": "nosniff" },
        });
      },
      {
        params: reportIdParams,
        detail: {
          operationId: "getReportThumbnail",
          summary: "A thumbnail of the report's page 1",
          description: `A PNG at most ${THUMBNAIL.width} px wide and ${THUMBNAIL.maxBytes / 1024} KB, for a succeeded report (a PDF or pictures). Made on the first request and kept with the report until it is deleted. 202 while queued or processing; the download's 409 and 410 otherwise. See docs/images.md.`,
          responses: {
            ...jsonResponses(withAuth({ 404: errorSchema, 409: errorSchema, 410: errorSchema })),
            200: { description: "The thumbnail", content: { "image/png": { schema: { type: "string", format: "binary" } } } },
            202: { description: "Not ready yet", content: jsonRef("NotReady") },
            404: { description: "Unknown, or another account's report", content: errorJson },
            409: { description: "`report_failed`", content: errorJson },
            410: { description: "`report_expired` or `pdf_missing`", content: errorJson },
          },
        },
      },
    )
    .delete(
      "/reports/:reportID",
      async ({ principal, params }) => {
        await reports.delete(principal.accountId, params.reportID);
        return { data: { report_id: params.reportID, deleted: true } };
      },
      {
        params: reportIdParams,
        response: withAuth({ 200: t.Object({ data: t.Object({ report_id: t.String(), deleted: t.Literal(true) }) }), 404: errorSchema }),
        detail: {
          operationId: "deleteReport",
          summary: "Delete a report",
          description:
            "Removes the record and the PDF; existing download links stop working. A report still rendering is cancelled and its PDF never appears.",
        },
      },
    );
