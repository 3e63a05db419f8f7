// GET /files/{reportID}: serves a PDF to whoever holds a valid signed link (no X-API-Key).
import { Elysia, t } from "elysia";
import { errorSchema } from "../../http/openapi";
import { AppError } from "../../lib/errors";
import { UUID_RE } from "../../lib/ids";
import type { ReportsRepo } from "../reports/repo";
import { FILES_PREFIX, type LinkSigner } from "./links";
import type { FileStore } from "./store";

/** One refusal for every bad link (tampered, expired, deleted, unknown): it reveals nothing. */
const refused = () =>
  new AppError("link_invalid", "this download link is invalid or has expired; ask GET /api/v1/reports/{reportID}/download for a new one");

export const filesRoutes = (repo: ReportsRepo, files: FileStore, links: LinkSigner) =>
  new Elysia({ name: "files-routes", detail: { tags: ["Service"] } }).get(
    `${FILES_PREFIX}/:reportID`,
    ({ params, query, set }) => {
      const id = params.reportID;
      if (!UUID_RE.test(id) || !links.verify(id, query.expires, query.signature)) throw refused();
      const report = repo.getForDownload(id);
      if (report?.status !== "succeeded" || !files.exists(id)) throw refused();
      set.headers["content-type"] = "application/pdf";
      set.headers["content-disposition"] = `inline; filename="report-${id}.pdf"`;
      set.headers["cache-control"] = "private, no-store";
      set.headers["x-content-type-options"] = "nosniff";
      // Bun streams the file from disk; the PDF is never held in memory whole.
      return Bun.file(files.pathOf(id));
    },
    {
      params: t.Object({ reportID: t.String() }),
      query: t.Object({ expires: t.Optional(t.String()), signature: t.Optional(t.String()) }),
      detail: {
        summary: "Download a PDF through a signed link",
        description:
          "The link comes from GET /api/v1/reports/{reportID}/download. Invalid, tampered, expired or deleted-report links all get the same 403 `link_invalid`.",
        security: [],
        responses: {
          200: { description: "The PDF", content: { "application/pdf": { schema: { type: "string", format: "binary" } } } },
          403: {
            description: "Invalid, tampered or expired link, or a deleted report",
            content: { "application/json": { schema: errorSchema } },
          },
        },
      },
    },
  );
