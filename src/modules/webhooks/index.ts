// Routes of /api/v1/webhook-secret: the account's signing secret, and its rotation.
import { Elysia, t } from "elysia";
import type { apiGuard } from "../../http/auth";
import { errorSchema, withAuth, withBody } from "../../http/openapi";
import { secretSchema, toSecretJson } from "./model";
import type { WebhookSecrets } from "./secrets";

export const webhooksRoutes = (secrets: WebhookSecrets, guard: ReturnType<typeof apiGuard>) =>
  new Elysia({ name: "webhooks-routes", detail: { tags: ["Webhooks"] } })
    .use(guard)
    .get("/webhook-secret", async ({ principal }) => toSecretJson(await secrets.get(principal.accountId)), {
      response: withAuth({ 200: secretSchema, 403: errorSchema }),
      detail: {
        operationId: "getWebhookSettings",
        summary: "The account's webhook signing secret",
        description:
          "Every webhook event of the account is signed with this secret (Standard Webhooks, HMAC-SHA256). It is created on the first call. " +
          "Needs the keys:manage scope.",
      },
    })
    .post("/webhook-secret/rotate", async ({ principal, actor }) => toSecretJson(await secrets.rotate(principal.accountId, actor)), {
      body: t.Object({}, { additionalProperties: false, description: "An empty JSON object: {}" }),
      parse: "json", // documents the media type; apiGuard's parser (registered first) does the parsing
      response: withBody({ 200: secretSchema, 403: errorSchema, 422: errorSchema }),
      detail: {
        operationId: "rotateWebhookSecret",
        summary: "Rotate the webhook signing secret",
        description:
          "Replaces the secret. For 24 hours events carry two signatures (one per secret, space-separated in webhook-signature, as the standard allows), " +
          "so receivers still holding the old secret keep accepting events while they switch. Send `{}` as the body. Recorded as webhook_secret.rotated.",
      },
    });
