// Route of /api/v1/usage: the account's reports, pages, bytes and render time per day or per key.
import { Elysia } from "elysia";
import type { apiGuard } from "../../http/auth";
import { errorSchema, withAuth } from "../../http/openapi";
import { dayJson, keyJson, totalsJson, usageQuerySchema, usageSchema } from "./model";
import { dayRange, isoDay, USAGE_DEFAULT_DAYS, USAGE_MAX_DAYS, type UsageService } from "./service";

export const usageRoutes = (usage: UsageService, guard: ReturnType<typeof apiGuard>) =>
  new Elysia({ name: "usage-routes", detail: { tags: ["Usage"] } }).use(guard).get(
    "/usage",
    async ({ principal, query }) => {
      const range = dayRange(query);
      const head = { from: isoDay(range.fromDay), to: isoDay(range.toDay) };
      if (query.group_by === "key") {
        const { keys, totals } = await usage.byKey(principal.accountId, range);
        return { ...head, group_by: "key" as const, data: keys.map(keyJson), totals: totalsJson(totals) };
      }
      const { days, totals } = await usage.byDay(principal.accountId, range);
      return { ...head, group_by: "day" as const, data: days.map(dayJson), totals: totalsJson(totals) };
    },
    {
      query: usageQuerySchema,
      response: withAuth({ 200: usageSchema, 422: errorSchema }),
      detail: {
        operationId: "getUsage",
        summary: "Usage of the account per day or per key",
        description:
          `Reports submitted, succeeded and failed, pages, bytes and render time of the account's reports, per UTC day (\`group_by=day\`, the default: every day of the range, zeros included) ` +
          `or per submitting key (\`group_by=key\`). A report counts on the day it was submitted; pages, bytes and render time count successful reports. ` +
          `The range is whole UTC days, from and to included: by default the last ${USAGE_DEFAULT_DAYS} days, at most ${USAGE_MAX_DAYS}. ` +
          "Usage is kept in a daily roll-up written with each report's status change, so it stays after the report is deleted or its PDF expires. " +
          "A from after to, a range longer than allowed, an unreadable date or an unknown group_by is a 422 saying which.",
      },
    },
  );
