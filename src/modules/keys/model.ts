// Schemas of the access-key endpoints.
import { t } from "elysia";
import type { Scope, ScopeList } from "../../access/scopes";
import { named } from "../../http/openapi-names";
import { iso } from "../../lib/time";
import { MAX_GRACE_SECONDS, MAX_REPORTS_PER_DAY_LIMIT } from "./options";
import type { KeyRow } from "./repo";
import { parseScopes } from "./scopes";
import { KEY_NAME_MAX } from "./service";

// Scopes are checked by grantScopes (a 422 that lists the valid ones, a 403 for escalation), not here.
const scopesField = (scopes: ScopeList) =>
  t.Array(t.String(), {
    description: `What the key may do. Omitted: exactly the scopes of the key creating it; it can never grant a scope it lacks (403). Valid: ${scopes.all.map((s) => `\`${s}\` (${scopes.descriptions[s]})`).join("; ")}.`,
    examples: [["reports:write", "reports:read"]],
  });
const quotaField = t.Nullable(
  t.Integer({
    minimum: 1,
    maximum: MAX_REPORTS_PER_DAY_LIMIT,
    description:
      "Reports (generated and merged) the key may submit per UTC day; beyond it 429 quota_exceeded with Retry-After until the next UTC midnight. null or omitted: no quota.",
    examples: [500],
  }),
);

/** The body of POST /access-keys, its scopes field documenting the closed list. */
export const createKeyBody = (scopes: ScopeList) =>
  t.Object({
    name: t.String({ minLength: 1, maxLength: KEY_NAME_MAX, description: "What the key is for, e.g. billing-service" }),
    scopes: t.Optional(scopesField(scopes)),
    expires_at: t.Optional(
      t.Nullable(
        t.String({
          description:
            "RFC 3339 date-time after which the key is refused (401) like a deleted one; must be in the future. Omitted: never expires.",
          examples: ["2027-01-31T23:59:59Z"],
        }),
      ),
    ),
    max_reports_per_day: t.Optional(quotaField),
  });

export const updateKeyBody = t.Object({ max_reports_per_day: quotaField });

export const rotateKeyBody = t.Object({
  grace_seconds: t.Optional(
    t.Integer({
      description: `How long the old value keeps working, 0 (the default: it stops at once) to ${MAX_GRACE_SECONDS} (7 days)`,
      examples: [3600],
    }),
  ),
});

export const keyIdParams = t.Object({ accessKeyID: t.String({ description: "id of the key, as listed" }) });

export const keySchema = named(
  "AccessKey",
  t.Object(
    {
      id: t.String({ description: "Public identifier; also the middle part of the key value (rg_<id>_<secret>), which rotation keeps" }),
      name: t.String(),
      scopes: t.Array(t.String()),
      created_at: t.String({ format: "date-time" }),
      expires_at: t.Nullable(t.String({ format: "date-time", description: "null: never expires" })),
      last_used_at: t.Nullable(t.String({ format: "date-time", description: "Updated at most once a minute" })),
      max_reports_per_day: t.Nullable(t.Integer()),
      rotated_at: t.Nullable(t.String({ format: "date-time", description: "When its value was last rotated" })),
    },
    {
      examples: [
        {
          id: "p9d4tn6yv2rc",
          name: "billing-service",
          scopes: ["reports:write", "reports:read"],
          created_at: "2026-11-26T01:00:00.000Z",
          expires_at: "2027-01-31T23:59:59.000Z",
          last_used_at: "2026-11-26T01:05:00.000Z",
          max_reports_per_day: 500,
          rotated_at: null,
        },
      ],
    },
  ),
);

export const toKeyJson = (
  k: Pick<KeyRow, "id" | "name" | "createdAt" | "lastUsedAt" | "expiresAt" | "maxReportsPerDay" | "rotatedAt" | "scopes">,
) => ({
  id: k.id,
  name: k.name,
  scopes: parseScopes(k.scopes) as string[],
  created_at: iso(k.createdAt)!,
  expires_at: iso(k.expiresAt),
  last_used_at: iso(k.lastUsedAt),
  max_reports_per_day: k.maxReportsPerDay,
  rotated_at: iso(k.rotatedAt),
});

export const createdKeySchema = named(
  "CreatedAccessKey",
  t.Object(
    {
      data: t.String({ description: "The new key value: shown only this once" }),
      id: t.String(),
      name: t.String(),
      scopes: t.Array(t.String()),
      created_at: t.String({ format: "date-time" }),
      expires_at: t.Nullable(t.String({ format: "date-time" })),
      max_reports_per_day: t.Nullable(t.Integer()),
    },
    {
      examples: [
        {
          data: "rg_p9d4tn6yv2rc_8Jq3vWm2YxkP0aN7tLr5sUe1cHb9dFg4iKo6jMn2pQz",
          id: "p9d4tn6yv2rc",
          name: "billing-service",
          scopes: ["reports:write", "reports:read"],
          created_at: "2026-11-26T01:00:00.000Z",
          expires_at: null,
          max_reports_per_day: 500,
        },
      ],
    },
  ),
);

export const toScopes = (s: Scope[]) => s as string[];
