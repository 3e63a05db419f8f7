// Routes of /api/v1/schedules: an account's schedules and their runs. Scope schedules:manage (its
// descriptor, module.ts); each change is audited by the service.
import { Elysia, t } from "elysia";
import type { apiGuard } from "../../http/auth";
import { errorSchema, withAuth, withBody } from "../../http/openapi";
import { pageQuery, pageQueryFields, pageSchema } from "../../http/schema";
import type { reportDeliveriesSchema } from "../destinations/model";
import { createScheduleSchema, patchScheduleSchema, runSchema, scheduleIdParams, scheduleSchema, toRunJson, toScheduleJson } from "./model";
import type { SchedulesService } from "./service";

const one = t.Object({ data: scheduleSchema });

/** A report's deliveries (options.deliver), as GET /reports/{id} shows them; null without any. */
type DeliveryLog = (reportId: string) => Promise<typeof reportDeliveriesSchema.static | null>;

export const schedulesRoutes = (schedules: SchedulesService, guard: ReturnType<typeof apiGuard>, deliveryLog: DeliveryLog) =>
  new Elysia({ name: "schedules-routes", detail: { tags: ["Schedules"] } })
    .use(guard)
    .post(
      "/schedules",
      async ({ actor, body, set }) => {
        const s = await schedules.create(actor, body);
        set.status = 201;
        set.headers.location = `/api/v1/schedules/${s.id}`;
        return { data: toScheduleJson(s) };
      },
      {
        body: createScheduleSchema,
        parse: "json", // documents the media type; apiGuard's parser (registered first) does the parsing
        response: withBody({ 201: one, 404: errorSchema, 422: errorSchema }),
        detail: {
          operationId: "createSchedule",
          summary: "Create a schedule",
          description:
            "Renders the stored template `template_id` at every tick of `cron` in `timezone`, as `POST /generate-pdf-async` with `template_id` would: " +
            "with `data`, or with the JSON object fetched from `data_url` when the tick comes, and `options`; `deliver` becomes the report's " +
            "`options.deliver`, `webhook` its webhook (and the target of `schedule.run_failed`). A bad cron expression or an unknown time zone is " +
            "422 validation_failed naming the field and the accepted forms; an unknown template (or version) 404; `data` failing the template's " +
            "data_schema 422. Recorded as schedule.created.",
        },
      },
    )
    .get(
      "/schedules",
      async ({ principal, query }) => {
        const page = await schedules.list(principal.accountId, pageQuery(query));
        return { data: page.items.map(toScheduleJson), next_cursor: page.nextCursor };
      },
      {
        query: t.Object(pageQueryFields("Schedules", 20)),
        response: withAuth({ 200: pageSchema(scheduleSchema), 400: errorSchema, 422: errorSchema }),
        detail: {
          operationId: "listSchedules",
          summary: "List the account's schedules",
          description: "Newest first, `limit` per page (default 20, at most 100).",
        },
      },
    )
    .get(
      "/schedules/:scheduleID",
      async ({ principal, params }) => ({ data: toScheduleJson(await schedules.get(principal.accountId, params.scheduleID)) }),
      {
        params: scheduleIdParams,
        response: withAuth({ 200: one, 404: errorSchema }),
        detail: {
          operationId: "getSchedule",
          summary: "A schedule",
          description: "With `next_run_at`, its next tick. Another account's schedule is 404.",
        },
      },
    )
    .patch(
      "/schedules/:scheduleID",
      async ({ actor, params, body }) => ({ data: toScheduleJson(await schedules.update(actor, params.scheduleID, body)) }),
      {
        params: scheduleIdParams,
        body: patchScheduleSchema,
        parse: "json",
        response: withBody({ 200: one, 404: errorSchema, 422: errorSchema }),
        detail: {
          operationId: "updateSchedule",
          summary: "Change, pause or resume a schedule",
          description:
            "Changes the fields given; `null` clears an optional one. `paused: true` pauses it (schedule.paused), `paused: false` resumes it from " +
            "the next tick after now (schedule.resumed: ticks while paused are never caught up); any other change is schedule.updated. " +
            "A new `cron` or `timezone` starts from its next tick.",
        },
      },
    )
    .delete(
      "/schedules/:scheduleID",
      async ({ actor, params }) => {
        await schedules.delete(actor, params.scheduleID);
        return { data: { schedule_id: params.scheduleID, deleted: true as const } };
      },
      {
        params: scheduleIdParams,
        response: withAuth({ 200: t.Object({ data: t.Object({ schedule_id: t.String(), deleted: t.Literal(true) }) }), 404: errorSchema }),
        detail: {
          operationId: "deleteSchedule",
          summary: "Delete a schedule",
          description: "Its runs go with it; the reports they made stay. Recorded as schedule.deleted.",
        },
      },
    )
    .get(
      "/schedules/:scheduleID/runs",
      async ({ principal, params, query }) => {
        const page = await schedules.runs(principal.accountId, params.scheduleID, pageQuery(query));
        // A run that queued a report with deliveries shows them, as its report does.
        const data = await Promise.all(
          page.items.map(async (r) => {
            const deliveries = r.reportId ? await deliveryLog(r.reportId) : null;
            return { ...toRunJson(r), ...(deliveries ? { deliveries } : {}) };
          }),
        );
        return { data, next_cursor: page.nextCursor };
      },
      {
        params: scheduleIdParams,
        query: t.Object(pageQueryFields("Runs", 20)),
        response: withAuth({ 200: pageSchema(runSchema), 400: errorSchema, 404: errorSchema, 422: errorSchema }),
        detail: {
          operationId: "listScheduleRuns",
          summary: "A schedule's runs",
          description:
            "Each tick that ran, newest first (pages like `GET /reports`): the report it queued (`report_id`, and `report_status` now), or why it " +
            "failed (`error`), the state of its schedule.run_failed event, and the report's `deliveries` when the schedule delivers (`deliver`).",
        },
      },
    );
