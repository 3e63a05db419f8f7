// The OpenAPI document's account of schedules, and the schedule.run_failed webhook event.
import { t } from "elysia";

export const schedulesDescription = `
## Schedules
\`POST /api/v1/schedules\` renders a stored template on a cron schedule (scope \`schedules:manage\`):
\`{"name", "cron": "0 6 * * *", "timezone": "Europe/Berlin", "template_id", "template_version"?, "data"? | "data_url"?, "options"?,
"deliver"?, "webhook"?, "catch_up": "none" | "last"}\`. Each tick queues one report, exactly once however many instances
run; \`GET /api/v1/schedules/{id}/runs\` lists them. A failed run (no report could be queued: data_url unreachable, the
template deleted, data failing its schema) is in the runs with its \`error\` and, with \`webhook\`, sends a signed
\`schedule.run_failed\` event (schema: \`webhooks.scheduleRunFailed\`). \`deliver\` becomes each report's \`options.deliver\`.
`;

const runFailedSchema = t.Object({
  type: t.Literal("schedule.run_failed"),
  timestamp: t.String({ format: "date-time" }),
  data: t.Object({
    schedule_id: t.String({ format: "uuid" }),
    schedule_name: t.String(),
    run_id: t.String({ format: "uuid", description: "GET /schedules/{schedule_id}/runs lists it" }),
    scheduled_for: t.String({ format: "date-time" }),
    error: t.Nullable(t.String({ description: "Why no report was queued" })),
  }),
});

/** OpenAPI 3.1 `webhooks`: what a schedule's webhook receives when a run fails. */
export const schedulesWebhooks = {
  scheduleRunFailed: {
    post: {
      operationId: "scheduleRunFailed",
      summary: "A schedule's run failed",
      description:
        "Sent to the schedule's `webhook.url` when a tick could queue no report; signed and retried like report events (same headers), " +
        "webhook-id msg_<run_id>.",
      requestBody: { required: true, content: { "application/json": { schema: runFailedSchema } } },
      responses: { "2XX": { description: "Delivered. Any other answer, a timeout or a connection error is retried." } },
    },
  },
};
