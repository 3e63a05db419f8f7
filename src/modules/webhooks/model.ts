// Schemas of the webhook request field, the delivery log in a report, the secret endpoints and the
// event itself (published in the OpenAPI document's `webhooks` section).
import { t } from "elysia";
import { deliveryStatuses, type WebhookEvent, type WebhookEventType, webhookEventTypes } from "../../db/schema";
import { named } from "../../http/openapi-names";
import { oneOf } from "../../http/schema";
import { iso } from "../../lib/time";
import { reportDeliverySchema } from "../destinations/model";
import type { AttemptRow, DeliveryRow } from "./repo";
import type { WebhookSecretInfo } from "./secrets";
import { WEBHOOK_URL_MAX } from "./target";

export const webhookRequestSchema = named(
  "WebhookRequest",
  t.Object(
    {
      url: t.String({
        minLength: 1,
        maxLength: WEBHOOK_URL_MAX,
        description:
          "Where to POST the event: a public https URL (hosts on the operator's --webhook-allow-hosts may also be private, loopback or plain http)",
        examples: ["https://billing.example.com/hooks/reportgen"],
      }),
    },
    {
      additionalProperties: false,
      description: "Optional (reportgen extension): POST a signed event (Standard Webhooks) to this URL when the report succeeds or fails",
    },
  ),
);

const attemptSchema = t.Object({
  at: t.String({ format: "date-time" }),
  duration_ms: t.Integer(),
  response_status: t.Nullable(t.Integer({ description: "The receiver's HTTP status; null when it did not answer" })),
  error: t.Nullable(t.String({ description: "Connection error, timeout or network-policy refusal" })),
});

export const deliverySchema = named(
  "WebhookDelivery",
  t.Object({
    webhook_id: t.String({ description: "The webhook-id header: the same on every attempt of this event" }),
    event: oneOf(webhookEventTypes),
    status: oneOf(deliveryStatuses, { description: "pending (more attempts to come), delivered (a 2xx answer), failed (given up)" }),
    created_at: t.String({ format: "date-time" }),
    next_attempt_at: t.Nullable(t.String({ format: "date-time" })),
    finished_at: t.Nullable(t.String({ format: "date-time" })),
    last_error: t.Nullable(t.String()),
    attempts: t.Array(attemptSchema),
  }),
);

export const reportWebhookSchema = named(
  "ReportWebhook",
  t.Object(
    {
      url: t.String(),
      deliveries: t.Array(deliverySchema, {
        description: "Empty until the report finishes; then its event, and one per options.deliver entry once that delivery ends",
      }),
    },
    { description: "Only for reports submitted with a webhook: its URL and the delivery log of its event" },
  ),
);

/** The type a receiver sees for a stored event (a delivery's is in its detail: see WebhooksRepo.queueDeliveryEvent). */
export const eventTypeOf = (event: WebhookEvent, detail: string | null): WebhookEventType =>
  detail ? (JSON.parse(detail) as { type: WebhookEventType }).type : event;

export function toWebhookJson(url: string | undefined, log: { deliveries: DeliveryRow[]; attempts: AttemptRow[] }) {
  if (!url) return null;
  return {
    url,
    deliveries: log.deliveries.map((d) => ({
      webhook_id: d.id,
      event: eventTypeOf(d.event, d.detail),
      status: d.status,
      created_at: iso(d.createdAt)!,
      next_attempt_at: d.status === "pending" ? iso(d.nextAttemptAt) : null,
      finished_at: iso(d.finishedAt),
      last_error: d.lastError,
      attempts: log.attempts
        .filter((a) => a.deliveryId === d.id)
        .map((a) => ({ at: iso(a.startedAt)!, duration_ms: a.durationMs, response_status: a.responseStatus, error: a.error })),
    })),
  };
}

export const secretSchema = named(
  "WebhookSettings",
  t.Object({
    data: t.Object({
      secret: t.String({ description: "whsec_<base64>: pass it to any Standard Webhooks library to verify events" }),
      created_at: t.String({ format: "date-time" }),
      previous_secret_valid_until: t.Nullable(
        t.String({
          format: "date-time",
          description: "After a rotation, events also carry a signature made with the previous secret until then",
        }),
      ),
    }),
  }),
);

export const toSecretJson = (s: WebhookSecretInfo) => ({
  data: { secret: s.secret, created_at: iso(s.createdAt)!, previous_secret_valid_until: iso(s.previousValidUntil) },
});

const reportError = t.Nullable(t.Object({ code: t.String(), message: t.String() }));

/** The JSON body of an event (OpenAPI: webhooks.reportFinished). */
export const eventSchema = t.Object(
  {
    type: oneOf(webhookEventTypes),
    timestamp: t.String({ format: "date-time", description: "When this attempt was sent" }),
    data: t.Object({
      report_id: t.String({ format: "uuid" }),
      status: t.String({
        description: "The report's status when the attempt was sent: succeeded or failed (expired if it outlived retention)",
      }),
      engine: t.String(),
      created_at: t.String({ format: "date-time" }),
      started_at: t.Nullable(t.String({ format: "date-time" })),
      finished_at: t.Nullable(t.String({ format: "date-time" })),
      expires_at: t.Nullable(t.String({ format: "date-time" })),
      attempts: t.Integer(),
      size_bytes: t.Nullable(t.Integer()),
      page_count: t.Nullable(t.Integer()),
      error: reportError,
      download: t.Nullable(
        t.Object(
          { url: t.String({ description: "Signed link to the PDF, no key needed" }), expires_at: t.String({ format: "date-time" }) },
          { description: "report.succeeded only: a link signed at the time of this attempt (each retry carries a fresh one)" },
        ),
      ),
      delivery: t.Optional(
        t.Object(reportDeliverySchema.properties, {
          description: "report.delivered and report.delivery_failed only: the delivery (one entry of options.deliver) as it ended",
        }),
      ),
    }),
  },
  {
    description:
      "Headers: webhook-id (stable across retries: deduplicate on it), webhook-timestamp (Unix seconds of this attempt), webhook-signature (v1,<base64 HMAC-SHA256>)",
  },
);
