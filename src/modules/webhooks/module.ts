// Webhooks: the account's signing secret (the deliveries are sent by app/app.ts's WebhookSender).
import type { FeatureModule } from "../../app/module";
import { webhooksDescription, webhooksDocumentation } from "./docs";
import { webhooksRoutes } from "./index";

export const webhooksModule: FeatureModule = {
  name: "webhooks",
  routes: {
    "GET /api/v1/webhook-secret": "keys:manage",
    "POST /api/v1/webhook-secret/rotate": "keys:manage",
  },
  api: ({ services: s, guard }) => webhooksRoutes(s.webhookSecrets, guard),
  docs: { description: webhooksDescription, webhooks: webhooksDocumentation },
};
