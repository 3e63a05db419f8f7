// Request schemas of /api/v1/schedules (validated by Elysia, published in OpenAPI) and the JSON forms of
// a schedule and of a run.
import { t } from "elysia";
import { catchUpModes, scheduleRunStatuses } from "../../db/schema";
import { named } from "../../http/openapi-names";
import { oneOf } from "../../http/schema";
import { iso } from "../../lib/time";
import { pdfOptionsSchema } from "../../pdf/options-schema";
import { reportDeliveriesSchema } from "../destinations/model";
import { webhookRequestSchema } from "../webhooks/model";
import type { RunRow, ScheduleRow } from "./repo";

export const SCHEDULE_NAME_MAX = 200;

const cronField = t.String({
  minLength: 1,
  maxLength: 200,
  description:
    'When it runs: five cron fields "minute hour day-of-month month day-of-week" ("0 6 * * *": 06:00 daily), six with seconds first, ' +
    "or @hourly, @daily, @weekly, @monthly, @yearly; read in `timezone`",
  examples: ["0 6 * * *"],
});

const timezoneField = t.String({
  minLength: 1,
  maxLength: 100,
  description: 'An IANA time zone name ("Europe/Berlin"); daylight saving time is followed. Default UTC',
  examples: ["Europe/Berlin"],
});

/**
 * options.deliver of every report the schedule makes. Checked here only as a list of objects with a
 * destination_id: the report options' own schema (destinations) checks the rest when a run submits.
 */
const deliverField = t.Array(
  t.Object(
    { destination_id: t.String({ minLength: 1, maxLength: 100, description: "A destination of this account (POST /destinations)" }) },
    { additionalProperties: true, description: "One delivery: destination_id, and path, subject, body as options.deliver takes them" },
  ),
  { maxItems: 20, description: "Where each report goes (options.deliver of the report it makes)" },
);

const fields = {
  name: t.String({ minLength: 1, maxLength: SCHEDULE_NAME_MAX, description: "A name for people", examples: ["daily statements"] }),
  cron: cronField,
  timezone: timezoneField,
  template_id: t.String({ format: "uuid", description: "A stored template of this account (POST /templates)" }),
  template_version: t.Integer({ minimum: 1, maximum: 999_999_999, description: "Its version to render; default: its latest at each run" }),
  data: t.Record(t.String(), t.Any(), { description: "The template's data, the same at every run (not with data_url)" }),
  data_url: t.String({
    minLength: 1,
    maxLength: 2048,
    description:
      "Fetched (GET) at each run, it answers the template's data as a JSON object, at most --data-max-size bytes; public https only, unless " +
      "its host is on the operator's --webhook-allow-hosts. Not with data",
  }),
  options: pdfOptionsSchema,
  deliver: deliverField,
  webhook: webhookRequestSchema,
  catch_up: oneOf(catchUpModes, {
    description:
      "Ticks missed while no instance was running (or noticed more than a minute late): none skips them; last runs the latest one once. Default none",
  }),
  paused: t.Boolean({ description: "A paused schedule runs no tick; resuming waits for the next tick (catch_up does not apply)" }),
};

export const createScheduleSchema = t.Object(
  {
    name: fields.name,
    cron: fields.cron,
    timezone: t.Optional(fields.timezone),
    template_id: fields.template_id,
    template_version: t.Optional(fields.template_version),
    data: t.Optional(fields.data),
    data_url: t.Optional(fields.data_url),
    options: t.Optional(fields.options),
    deliver: t.Optional(fields.deliver),
    webhook: t.Optional(fields.webhook),
    catch_up: t.Optional(fields.catch_up),
    paused: t.Optional(fields.paused),
  },
  { additionalProperties: false },
);

/** A PATCH: any field; null clears an optional one (template_version, data, data_url, options, deliver, webhook). */
export const patchScheduleSchema = t.Object(
  {
    name: t.Optional(fields.name),
    cron: t.Optional(fields.cron),
    timezone: t.Optional(fields.timezone),
    template_id: t.Optional(fields.template_id),
    template_version: t.Optional(t.Nullable(fields.template_version)),
    data: t.Optional(t.Nullable(fields.data)),
    data_url: t.Optional(t.Nullable(fields.data_url)),
    options: t.Optional(t.Nullable(fields.options)),
    deliver: t.Optional(t.Nullable(fields.deliver)),
    webhook: t.Optional(t.Nullable(fields.webhook)),
    catch_up: t.Optional(fields.catch_up),
    paused: t.Optional(fields.paused),
  },
  { additionalProperties: false },
);

export type CreateSchedule = typeof createScheduleSchema.static;
export type PatchSchedule = typeof patchScheduleSchema.static;

export const scheduleSchema = named(
  "Schedule",
  t.Object({
    id: t.String({ format: "uuid" }),
    name: t.String(),
    cron: t.String(),
    timezone: t.String(),
    template_id: t.String({ format: "uuid" }),
    template_version: t.Nullable(t.Integer()),
    data: t.Nullable(t.Record(t.String(), t.Any())),
    data_url: t.Nullable(t.String()),
    options: t.Nullable(t.Record(t.String(), t.Any())),
    deliver: t.Nullable(t.Array(t.Record(t.String(), t.Any()))),
    webhook: t.Nullable(t.Object({ url: t.String() })),
    catch_up: oneOf(catchUpModes),
    paused: t.Boolean(),
    next_run_at: t.Nullable(
      t.String({ format: "date-time", description: "The next tick; null while paused or when the expression fires no more" }),
    ),
    created_at: t.String({ format: "date-time" }),
    updated_at: t.String({ format: "date-time" }),
  }),
);

const json = (s: string | null) => (s === null ? null : JSON.parse(s));

export function toScheduleJson(s: ScheduleRow) {
  return {
    id: s.id,
    name: s.name,
    cron: s.cron,
    timezone: s.timezone,
    template_id: s.templateId,
    template_version: s.templateVersion,
    data: json(s.data),
    data_url: s.dataUrl,
    options: json(s.options),
    deliver: json(s.deliver),
    webhook: s.webhookUrl ? { url: s.webhookUrl } : null,
    catch_up: s.catchUp,
    paused: s.paused === 1,
    next_run_at: s.paused ? null : iso(s.nextRunAt),
    created_at: iso(s.createdAt)!,
    updated_at: iso(s.updatedAt)!,
  };
}

export const runSchema = named(
  "ScheduleRun",
  t.Object({
    id: t.String({ format: "uuid" }),
    schedule_id: t.String({ format: "uuid" }),
    scheduled_for: t.String({ format: "date-time", description: "The tick this run is for" }),
    status: oneOf(scheduleRunStatuses, {
      description: "running: being started; submitted: its report was queued (see report_status); failed: no report was made (see error)",
    }),
    report_id: t.Nullable(t.String({ format: "uuid", description: "The report it made: GET /reports/{id}" })),
    report_status: t.Nullable(t.String({ description: "That report's status now (queued, processing, succeeded, failed, expired)" })),
    error: t.Nullable(t.String({ description: "Why no report was made" })),
    caught_up: t.Boolean({ description: "The tick was missed and ran later because catch_up is last" }),
    event: t.Nullable(
      t.Object(
        { status: t.String({ description: "pending, delivered or failed" }), attempts: t.Integer() },
        { description: "The schedule.run_failed webhook event of a failed run, when the schedule has a webhook" },
      ),
    ),
    created_at: t.String({ format: "date-time" }),
    finished_at: t.Nullable(t.String({ format: "date-time" })),
    deliveries: t.Optional(reportDeliveriesSchema),
  }),
);

export function toRunJson(r: RunRow) {
  return {
    id: r.id,
    schedule_id: r.scheduleId,
    scheduled_for: iso(r.scheduledFor)!,
    status: r.status,
    report_id: r.reportId,
    report_status: r.reportStatus,
    error: r.error,
    caught_up: r.caughtUp === 1,
    event: r.webhookStatus ? { status: r.webhookStatus, attempts: r.webhookAttempts } : null,
    created_at: iso(r.createdAt)!,
    finished_at: iso(r.finishedAt),
  };
}

export const scheduleIdParams = t.Object({ scheduleID: t.String({ description: "The schedule's id" }) });
