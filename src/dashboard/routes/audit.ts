// Audit log page: the account's audit events, a page at a time; needs keys:manage, as the API does.
import { Elysia } from "elysia";
import { requireScope } from "../../access/scopes";
import { DASHBOARD, type DashboardDeps, type Guards } from "../guards";
import { AUDIT_PAGE_SIZE, auditPage } from "../pages/audit";
import { htmlResponse } from "../security";

export function auditRoutes(d: DashboardDeps, g: Guards) {
  return new Elysia({ name: "dashboard-audit" }).get(
    `${DASHBOARD}/audit`,
    g.page(async ({ query }, s) => {
      requireScope(s.scopes, "keys:manage", "reading the audit log");
      const cursor = query.cursor || undefined;
      const [{ items, nextCursor }, keys] = await Promise.all([
        d.audit.list(s.accountId, { cursor, limit: AUDIT_PAGE_SIZE }),
        d.keys.list(s.accountId),
      ]);
      const names = new Map(keys.map((k) => [k.id, k.name]));
      return htmlResponse(
        auditPage(await g.viewerOf(s), { items, names, cursor, nextCursor, retentionDays: d.auditRetentionDays, labels: d.auditLabels }),
      );
    }),
  );
}
