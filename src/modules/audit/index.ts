// Route of /api/v1/audit-events: the account's audit trail.
import { Elysia, t } from "elysia";
import type { apiGuard } from "../../http/auth";
import { errorSchema, withAuth } from "../../http/openapi";
import { pageQuery, pageQueryFields, pageSchema } from "../../http/schema";
import { auditEventSchema, toAuditJson } from "./model";
import type { AuditService } from "./service";

export const auditRoutes = (audit: AuditService, guard: ReturnType<typeof apiGuard>, retentionDays: number, types: readonly string[]) =>
  new Elysia({ name: "audit-routes", detail: { tags: ["Audit trail"] } }).use(guard).get(
    "/audit-events",
    async ({ principal, query }) => {
      const page = await audit.list(principal.accountId, pageQuery(query));
      return { data: page.items.map(toAuditJson), next_cursor: page.nextCursor };
    },
    {
      query: t.Object(pageQueryFields("Events", 50)),
      response: withAuth({
        200: pageSchema(auditEventSchema(types)),
        400: errorSchema,
        403: errorSchema,
        422: errorSchema,
      }),
      detail: {
        operationId: "listAuditEvents",
        summary: "List the account's audit events",
        description:
          "Newest first, `limit` per page. Records access_key.created, access_key.updated, access_key.deleted, access_key.rotated, webhook_secret.rotated, " +
          `dashboard.sign_in and dashboard.sign_in_failed, each with the acting key, the client address, the time and the target. Kept ${retentionDays} days ` +
          "(--audit-retention). Needs the keys:manage scope.",
      },
    },
  );
