// Webhooks: the account's signing secret (the deliveries are sent by app/app.ts's WebhookSender).
import type { FeatureModule } from "../../app/module";
import { reportWebhooks, webhookAttempts, webhookDeliveries, webhookSecrets } from "../../db/schema";
import { webhooksDescription, webhooksDocumentation } from "./docs";
import { webhooksRoutes } from "./index";
import { WebhookSecrets } from "./secrets";

/** The audit events it records, with the label the dashboard's audit page shows. */
const AUDIT_EVENTS = {
  "webhook_secret.rotated": "Webhook secret rotated",
} as const;

declare module "../audit/model" {
  interface AuditEventNames extends Record<keyof typeof AUDIT_EVENTS, true> {}
}

declare module "../../app/services" {
  interface ModuleServices {
    /** The accounts' webhook signing secrets (the sender signs with them; keys:manage rotates them). */
    webhookSecrets: WebhookSecrets;
  }
}

export const webhooksModule: FeatureModule = {
  name: "webhooks",
  tables: [webhookSecrets, reportWebhooks, webhookDeliveries, webhookAttempts],
  auditEvents: AUDIT_EVENTS,
  routes: {
    "GET /api/v1/webhook-secret": "keys:manage",
    "POST /api/v1/webhook-secret/rotate": "keys:manage",
  },
  services: ({ services: s }) => ({ webhookSecrets: new WebhookSecrets(s.repos.webhooks, s.audit) }),
  api: ({ services: s, guard }) => webhooksRoutes(s.webhookSecrets, guard),
  docs: { description: webhooksDescription, webhooks: webhooksDocumentation },
};
