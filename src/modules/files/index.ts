// GET /files/{reportID}: serves a PDF to whoever holds a valid signed link (no X-API-Key);
// GET /files/{reportID}/e-invoice the report's e-invoice XML, to the holder of a link to it.
import { Elysia, t } from "elysia";
import { xmlFileName } from "../../einvoice/formats";
import { errorJson } from "../../http/openapi";
import { AppError, retryLater } from "../../lib/errors";
import { UUID_RE } from "../../lib/ids";
import { CONTENT_TYPES } from "../../pdf/raster";
import { fileTypeOf, type ReportConformance } from "../reports/model";
import { pdfMissing } from "../reports/pdf-missing";
import type { ReportsRepo } from "../reports/repo";
import { FILES_PREFIX, type LinkSigner } from "./links";
import { fenceOf, type PdfStore, StoreUnavailableError } from "./pdf-store";

/** One refusal for every bad link (tampered, expired, deleted, unknown): it reveals nothing. */
const refused = () =>
  new AppError("link_invalid", "this download link is invalid or has expired; ask GET /api/v1/reports/{reportID}/download for a new one");

/** The bucket cannot be reached now: the link stays valid, so the client retries it. */
const storeUnavailable = () =>
  retryLater(
    "storage_unavailable",
    "the PDF store (the service's bucket) cannot be reached right now; this link stays valid until it expires: retry it after Retry-After seconds",
    5,
  );

export const filesRoutes = (repo: ReportsRepo, files: PdfStore, links: LinkSigner) =>
  new Elysia({ name: "files-routes", detail: { tags: ["Service"] } })
    .get(
      `${FILES_PREFIX}/:reportID/e-invoice`,
      async ({ params, query, set }) => {
        const id = params.reportID;
        if (!UUID_RE.test(id) || !links.verify(id, query.expires, query.signature, Date.now(), true)) throw refused();
        const report = await repo.getForDownload(id);
        if (report?.status !== "succeeded") throw refused();
        const xml = await files.readXml(id, fenceOf(report)).catch((e) => {
          if (e instanceof StoreUnavailableError) throw storeUnavailable();
          throw e;
        });
        // A report stored before its XML was kept beside the PDF: the dashboard reads it out of the PDF.
        if (!xml)
          throw new AppError(
            "not_found",
            `report ${id} has no stored e-invoice XML; the dashboard's Invoice XML link reads a Factur-X PDF's`,
          );
        const number = report.conformance ? (JSON.parse(report.conformance) as ReportConformance).e_invoice?.invoice_number : undefined;
        set.headers["content-type"] = "application/xml; charset=utf-8";
        set.headers["content-disposition"] = `attachment; filename="${xmlFileName(number ?? id)}"`;
        set.headers["cache-control"] = "private, no-store";
        set.headers["x-content-type-options"] = "nosniff";
        return new Response(Buffer.from(xml), { headers: set.headers as Record<string, string> });
      },
      {
        params: t.Object({ reportID: t.String() }),
        query: t.Object({ expires: t.Optional(t.String()), signature: t.Optional(t.String()) }),
        detail: {
          operationId: "downloadEInvoiceFile",
          summary: "Download an e-invoice's XML through a signed link",
          description:
            "The link comes from GET /api/v1/reports/{reportID}/e-invoice. Invalid, tampered (a PDF link included), expired or deleted-report links all get the same 403 `link_invalid`.",
          security: [],
          responses: {
            200: { description: "The XML", content: { "application/xml": { schema: { type: "string" } } } },
            403: {
              description: "Invalid, tampered or expired link, or a deleted report",
              content: errorJson,
            },
          },
        },
      },
    )
    .get(
      `${FILES_PREFIX}/:reportID`,
      async ({ params, query, set }) => {
        const id = params.reportID;
        if (!UUID_RE.test(id) || !links.verify(id, query.expires, query.signature)) throw refused();
        const report = await repo.getForDownload(id);
        if (report?.status !== "succeeded") throw refused();
        const pdf = await files.open(id, fenceOf(report), report.sizeBytes).catch((e) => {
          if (e instanceof StoreUnavailableError) throw storeUnavailable();
          throw e;
        });
        // A valid link to a succeeded report whose object is gone: its holder may know that (410, not 403).
        if (!pdf) throw await pdfMissing(repo, report);
        const type = fileTypeOf(report);
        set.headers["content-type"] = type.contentType;
        set.headers["content-disposition"] = `inline; filename="${type.filename}"`;
        set.headers["cache-control"] = "private, no-store";
        set.headers["x-content-type-options"] = "nosniff";
        // A file on disk (Blob) goes as it is: Bun sends it from disk. A bucket's object is streamed
        // through, chunk by chunk, behind this link's check (README: "Beyond one machine").
        if (pdf.body instanceof Blob) return pdf.body;
        if (pdf.size !== undefined) set.headers["content-length"] = String(pdf.size);
        return new Response(pdf.body, { headers: set.headers as Record<string, string> });
      },
      {
        params: t.Object({ reportID: t.String() }),
        query: t.Object({ expires: t.Optional(t.String()), signature: t.Optional(t.String()) }),
        detail: {
          operationId: "downloadFile",
          summary: "Download a PDF through a signed link",
          description:
            "The link comes from GET /api/v1/reports/{reportID}/download. Invalid, tampered, expired or deleted-report links all get the same 403 `link_invalid`. A valid link to a report whose PDF went missing from the store before its retention ended gets 410 `pdf_missing` (the report then carries that error too).",
          security: [],
          responses: {
            200: {
              description: "The PDF; for an image report (options.image) its picture, or a ZIP of its pictures (page-001.png, ...)",
              content: Object.fromEntries(
                ["application/pdf", ...Object.values(CONTENT_TYPES)].map((type) => [
                  type,
                  { schema: { type: "string", format: "binary" } },
                ]),
              ),
            },
            403: {
              description: "Invalid, tampered or expired link, or a deleted report",
              content: errorJson,
            },
            410: {
              description: "`pdf_missing`: the report succeeded, but its PDF is missing from the store; submit it again",
              content: errorJson,
            },
            503: {
              description: "The PDF store (bucket) cannot be reached right now; retry the same link after Retry-After seconds",
              content: errorJson,
            },
          },
        },
      },
    );
