// Route of /api/v1/audit-events: the account's audit trail.
import { Elysia, t } from "elysia";
import type { apiGuard } from "../../http/auth";
import { errorSchema, withAuth } from "../../http/openapi";
import { queryNumber } from "../../http/schema";
import { auditEventSchema, toAuditJson } from "./model";
import type { AuditService } from "./service";

export const auditRoutes = (audit: AuditService, guard: ReturnType<typeof apiGuard>, retentionDays: number) =>
  new Elysia({ name: "audit-routes", detail: { tags: ["Audit trail"] } }).use(guard).get(
    "/audit-events",
    async ({ principal, query }) => {
      const page = await audit.list(principal.accountId, {
        cursor: query.cursor,
        limit: queryNumber("limit", query.limit, 1, 100, { integer: true }),
      });
      return { data: page.items.map(toAuditJson), next_cursor: page.nextCursor };
    },
    {
      query: t.Object({
        limit: t.Optional(t.Numeric({ description: "Events per page, a whole number from 1 to 100 (default 50)", examples: [50] })),
        cursor: t.Optional(t.String({ maxLength: 200, description: "next_cursor of the previous page" })),
      }),
      response: withAuth({
        200: t.Object({
          data: t.Array(auditEventSchema),
          next_cursor: t.Nullable(t.String({ description: "Pass as cursor for the next page; null on the last page" })),
        }),
        400: errorSchema,
        403: errorSchema,
        422: errorSchema,
      }),
      detail: {
        summary: "List the account's audit events",
        description:
          "Newest first, `limit` per page. Records access_key.created, access_key.updated, access_key.deleted, access_key.rotated, webhook_secret.rotated, " +
          `dashboard.sign_in and dashboard.sign_in_failed, each with the acting key, the client address, the time and the target. Kept ${retentionDays} days ` +
          "(--audit-retention). Needs the keys:manage scope.",
      },
    },
  );
