// Schemas of GET /api/v1/usage, and the JSON it answers with.
import { t } from "elysia";
import { named } from "../../http/openapi-names";
import { oneOf } from "../../http/schema";
import type { UsageByDay, UsageTotals } from "./repo";
import { isoDay, type KeyUsage, USAGE_DEFAULT_DAYS, USAGE_GROUPS, USAGE_MAX_DAYS } from "./service";

/** YYYY-MM-DD (OpenAPI's "date" format, spelled as a pattern: TypeBox checks it without a registered format). */
const DATE_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";

const dayOrTime = (what: string) =>
  t.String({
    maxLength: 40,
    description: `${what}: a date (YYYY-MM-DD, UTC) or an RFC 3339 date-time, which counts as its whole UTC day`,
    examples: ["2026-11-01", "2026-11-01T09:30:00Z"],
  });

export const usageQuerySchema = t.Object({
  from: t.Optional(dayOrTime(`First day, included (default: ${USAGE_DEFAULT_DAYS - 1} days before to)`)),
  to: t.Optional(dayOrTime(`Last day, included (default: today, UTC); at most ${USAGE_MAX_DAYS} days after from`)),
  group_by: t.Optional(oneOf(USAGE_GROUPS, { description: "day (default): one entry per day of the range; key: one per submitting key" })),
});

const totalsFields = {
  reports: t.Object(
    {
      submitted: t.Integer({ description: "Reports submitted (on their day of submission, whatever their status now)" }),
      succeeded: t.Integer({ description: "Of those, reports that rendered (expired ones included)" }),
      failed: t.Integer({ description: "Of those, reports that failed" }),
    },
    { description: "submitted − succeeded − failed are still queued or rendering" },
  ),
  pages: t.Integer({ description: "Pages of the successful reports' PDFs" }),
  bytes: t.Integer({ description: "Bytes of the successful reports' PDFs" }),
  render_ms: t.Integer({
    description:
      "Render time of the successful reports in milliseconds: finished_at − started_at of each one's successful attempt, added up",
  }),
};

const example = {
  from: "2026-11-01",
  to: "2026-11-02",
  group_by: "day",
  data: [
    { date: "2026-11-01", reports: { submitted: 12, succeeded: 11, failed: 1 }, pages: 30, bytes: 912_345, render_ms: 2_410 },
    { date: "2026-11-02", reports: { submitted: 0, succeeded: 0, failed: 0 }, pages: 0, bytes: 0, render_ms: 0 },
  ],
  totals: { reports: { submitted: 12, succeeded: 11, failed: 1 }, pages: 30, bytes: 912_345, render_ms: 2_410 },
};

export const usageSchema = named(
  "Usage",
  t.Object(
    {
      from: t.String({ pattern: DATE_PATTERN, description: "First day of the range (UTC)" }),
      to: t.String({ pattern: DATE_PATTERN, description: "Last day of the range (UTC), included" }),
      group_by: oneOf(USAGE_GROUPS),
      data: t.Array(
        t.Object({
          date: t.Optional(t.String({ pattern: DATE_PATTERN, description: "group_by=day: the UTC day; every day of the range is listed" })),
          key_id: t.Optional(
            t.Nullable(
              t.String({ description: "group_by=key: the submitting key's public id; null for reports older than per-key usage" }),
            ),
          ),
          key_name: t.Optional(t.Nullable(t.String({ description: "group_by=key: the key's name; null once the key is deleted" }))),
          ...totalsFields,
        }),
        {
          description: "group_by=day: every day of the range, oldest first. group_by=key: every key with reports in the range, most first",
        },
      ),
      totals: t.Object(totalsFields, { description: "The whole range" }),
    },
    { examples: [example] },
  ),
);

const totalsJson = (u: UsageTotals) => ({
  reports: { submitted: u.submitted, succeeded: u.succeeded, failed: u.failed },
  pages: u.pages,
  bytes: u.bytes,
  render_ms: u.renderMs,
});

export const dayJson = (u: UsageByDay) => ({ date: isoDay(u.day), ...totalsJson(u) });
export const keyJson = (u: KeyUsage) => ({ key_id: u.keyId || null, key_name: u.keyName, ...totalsJson(u) });
export { totalsJson };
