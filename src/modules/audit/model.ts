// The audit trail's vocabulary: who acted (Actor), the closed list of event types, and the JSON shape.
import { t } from "elysia";
import type { KeyActor } from "../../access/principal";
import { named } from "../../http/openapi-names";
import { iso } from "../../lib/time";

/**
 * Who did something: a request made with an access key (API or dashboard: src/access/principal.ts),
 * the admin CLI, or nobody known (a failed sign-in).
 */
export type Actor = KeyActor | { kind: "cli"; accountId: string } | { kind: "anonymous"; accountId: string | null; address: string | null };

/**
 * Every type an audit event can have, as a key of this interface: the module that records an event
 * declares its type here by declaration merging
 * (`declare module "../audit/model" { interface AuditEventNames extends Record<keyof typeof AUDIT_EVENTS, true> {} }`)
 * and, with the label the dashboard shows, in its descriptor (FeatureModule.auditEvents).
 */
// biome-ignore lint/suspicious/noEmptyInterface: the modules' declarations fill it (declaration merging)
export interface AuditEventNames {}
export type AuditEventType = keyof AuditEventNames & string;

/** Some event types, each with the label the dashboard's audit page gives it: one module's declaration. */
export type AuditEventLabels = Readonly<Partial<Record<AuditEventType, string>>>;

export interface AuditEvent {
  id: string;
  accountId: string | null;
  type: AuditEventType;
  actor: Actor["kind"];
  actorKeyId: string | null;
  clientAddress: string | null;
  target: string | null;
  /** JSON object text, or null. */
  detail: string | null;
  createdAt: number;
}

/** An audit event as the API returns it; `types`: every type one can have (app/modules.ts joins them). */
export const auditEventSchema = (types: readonly string[]) =>
  named(
    "AuditEvent",
    t.Object(
      {
        id: t.String(),
        type: t.String({ description: `One of: ${types.join(", ")}` }),
        actor: t.Union([t.Literal("key"), t.Literal("cli"), t.Literal("anonymous")], {
          description: "key: a request made with an access key (actor_key_id); cli: `reportgen admin`; anonymous: a failed sign-in",
        }),
        actor_key_id: t.Nullable(t.String()),
        client_address: t.Nullable(t.String({ description: "The client's address (with --trust-proxy, the first X-Forwarded-For hop)" })),
        target: t.Nullable(
          t.String({
            description:
              "What was acted on: an access key id for access_key.* and dashboard.*, a template id for template.*, an asset id for asset.*, the account for webhook_secret.rotated",
          }),
        ),
        detail: t.Nullable(t.Record(t.String(), t.Unknown(), { description: "More about the event, e.g. the scopes of a created key" })),
        created_at: t.String({ format: "date-time" }),
      },
      {
        examples: [
          {
            id: "0193b5f2-6c1a-7d2e-9a41-2f6d3c8b7e10",
            type: "access_key.created",
            actor: "key",
            actor_key_id: "k3mzq8xw2hfa",
            client_address: "203.0.113.7",
            target: "p9d4tn6yv2rc",
            detail: { name: "billing-service", scopes: ["reports:write", "reports:read"], expires_at: null, max_reports_per_day: 500 },
            created_at: "2026-11-26T01:02:03.000Z",
          },
        ],
      },
    ),
  );

export const toAuditJson = (e: AuditEvent) => ({
  id: e.id,
  type: e.type,
  actor: e.actor,
  actor_key_id: e.actorKeyId,
  client_address: e.clientAddress,
  target: e.target,
  detail: e.detail ? (JSON.parse(e.detail) as Record<string, unknown>) : null,
  created_at: iso(e.createdAt)!,
});
