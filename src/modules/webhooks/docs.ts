// The OpenAPI document's account of webhooks and idempotency keys (the README has the long form).
import { eventSchema } from "./model";

export const webhooksDescription = `
## Webhooks
Add \`"webhook": {"url": "https://…"}\` to \`POST /api/v1/generate-pdf-async\`. When the report succeeds or fails
(\`report.succeeded\`, \`report.failed\`), and when each of its deliveries ends (\`report.delivered\`,
\`report.delivery_failed\`, with \`data.delivery\`: see options.deliver), reportgen POSTs an event there, signed per [Standard Webhooks](https://www.standardwebhooks.com) with the account's
secret (\`GET /api/v1/webhook-secret\`; \`POST /api/v1/webhook-secret/rotate\` with \`{}\`). Schema: \`webhooks.reportFinished\`
below. Headers: \`webhook-id\` (stable across retries of one event), \`webhook-timestamp\` (Unix seconds of the attempt),
\`webhook-signature\`: \`v1,\` + base64(HMAC-SHA256(base64-decoded part of \`whsec_…\`, \`<id>.<timestamp>.<raw body>\`)),
space-separated when two secrets sign (24 h after a rotation). Verify (TypeScript):

\`\`\`ts
import { createHmac, timingSafeEqual } from "node:crypto";
function verify(secret: string, headers: Headers, rawBody: string) {
  const id = headers.get("webhook-id"), ts = headers.get("webhook-timestamp"), sigs = headers.get("webhook-signature");
  if (!id || !ts || !sigs || Math.abs(Date.now() / 1000 - Number(ts)) > 300) throw new Error("stale or missing headers");
  const expected = createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64")).update(\`\${id}.\${ts}.\${rawBody}\`).digest();
  const ok = sigs.split(" ").some((e) => { const [v, s] = e.split(","); const g = Buffer.from(s ?? "", "base64"); return v === "v1" && g.length === expected.length && timingSafeEqual(g, expected); });
  if (!ok) throw new Error("bad signature");
  return JSON.parse(rawBody);
}
\`\`\`

Answer 2xx within 10 s. Anything else (non-2xx, timeout, connection error) is retried with exponential backoff and
jitter: before attempt n+1, a random wait between half and all of 5 s × 2^(n−1), at most 1 h, for 24 h (33 to 57
attempts); then the delivery is \`failed\`. Redirects are not followed. Delivery is **at-least-once**: a crash during an
attempt re-sends the event (same \`webhook-id\`) after the restart, so deduplicate on \`webhook-id\`.
\`GET /api/v1/reports/{reportID}\` lists every attempt and its outcome under \`webhook\`. Targets must be public https;
only hosts the operator allow-lists (\`--webhook-allow-hosts\`) may be private, loopback or plain http.

## Idempotency keys
\`POST /api/v1/generate-pdf-async\` and \`POST /api/v1/access-keys\` take \`Idempotency-Key\` (Stripe's semantics, per
account, 24 h, kept across restarts): the same key and body answer the first response again (\`Idempotent-Replayed: true\`;
the same \`report_id\`, the same new key value), however many duplicates arrive at once; the same key with another body
or endpoint → **422** \`idempotency_key_reused\`; a malformed key → **400** \`invalid_idempotency_key\`. Only a 2xx response
is stored: after an error the same key may be retried. Stored responses are encrypted under a key derived from the
Idempotency-Key (stored only as a hash). **409** \`idempotency_replay_unavailable\` if the server secret changed since.
`;

/** OpenAPI 3.1 `webhooks`: the request reportgen sends to a report's webhook URL. */
export const webhooksDocumentation = {
  reportFinished: {
    post: {
      operationId: "reportFinished",
      summary: "A report succeeded or failed; or one of its deliveries (options.deliver) ended: report.delivered, report.delivery_failed",
      description: "Sent to the report's `webhook.url`. Verify `webhook-signature` before trusting the body; deduplicate on `webhook-id`.",
      parameters: [
        {
          name: "webhook-id",
          in: "header",
          required: true,
          schema: { type: "string" },
          description: "msg_…: the same on every attempt of this event",
        },
        {
          name: "webhook-timestamp",
          in: "header",
          required: true,
          schema: { type: "string" },
          description: "Unix seconds when this attempt was sent",
        },
        {
          name: "webhook-signature",
          in: "header",
          required: true,
          schema: { type: "string" },
          description: "v1,<base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`>, space-separated per secret",
        },
      ],
      requestBody: { required: true, content: { "application/json": { schema: eventSchema } } },
      responses: { "2XX": { description: "Delivered. Any other answer, a timeout or a connection error is retried." } },
    },
  },
};
