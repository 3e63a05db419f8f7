// Routes of /api/v1/access-keys. Each needs the keys:manage scope (the keys module's descriptor, module.ts).
import { Elysia, t } from "elysia";
import type { apiGuard } from "../../http/auth";
import { errorSchema, withAuth, withBody } from "../../http/openapi";
import { iso } from "../../lib/time";
import { idempotencyHeaders } from "../idempotency/model";
import { type IdempotencyService, idempotentRequest } from "../idempotency/service";
import { createdKeySchema, createKeyBody, keyIdParams, keySchema, rotateKeyBody, toKeyJson, updateKeyBody } from "./model";
import type { KeysService } from "./service";

export const keysRoutes = (keys: KeysService, guard: ReturnType<typeof apiGuard>, idempotency: IdempotencyService) =>
  new Elysia({ name: "keys-routes", detail: { tags: ["Access keys"] } })
    .use(guard)
    .post(
      "/access-keys",
      async ({ principal, actor, body, set, headers, request }) => {
        const r = await idempotency.run(
          idempotentRequest({ principal, headers, request, body }),
          () => keys.prepare(principal.accountId, body, principal.scopes),
          async (prepared) => {
            const k = await keys.commit(prepared, actor);
            return {
              status: 201,
              headers: {},
              body: {
                data: k.value,
                id: k.id,
                name: k.name,
                scopes: k.scopes,
                created_at: iso(k.createdAt)!,
                expires_at: iso(k.expiresAt),
                max_reports_per_day: k.maxReportsPerDay,
              },
            };
          },
        );
        set.status = r.status;
        if (r.replayed) set.headers["idempotent-replayed"] = "true";
        return r.body;
      },
      {
        body: createKeyBody(keys.scopes),
        headers: idempotencyHeaders,
        parse: "json", // documents the media type; apiGuard's parser (registered first) does the parsing
        response: withBody({ 201: createdKeySchema, 403: errorSchema, 409: errorSchema, 422: errorSchema }),
        detail: {
          operationId: "createAccessKey",
          summary: "Create an access key",
          description:
            "The key belongs to the caller's account. Its value is returned once, in `data`; only an argon2id hash is stored. " +
            "`scopes` defaults to exactly the caller's; asking for a scope the caller lacks is 403 `forbidden`, an unknown scope 422 listing the valid ones. " +
            "`expires_at` (RFC 3339, in the future) ends the key at that second; `max_reports_per_day` caps its submissions per UTC day. " +
            "With an `Idempotency-Key` header, a retry within 24 hours returns the same key (see Idempotency keys above). Recorded as access_key.created.",
        },
      },
    )
    .get("/access-keys", async ({ principal }) => ({ data: (await keys.list(principal.accountId)).map(toKeyJson) }), {
      response: withAuth({ 200: t.Object({ data: t.Array(keySchema) }), 403: errorSchema }),
      detail: {
        operationId: "listAccessKeys",
        summary: "List the account's access keys",
        description: "Newest first, with each key's scopes, expiry, quota and last use. Never includes key values or hashes.",
      },
    })
    .patch(
      "/access-keys/:accessKeyID",
      async ({ principal, actor, params, body }) => ({
        data: toKeyJson(await keys.setQuota(params.accessKeyID, principal.accountId, body.max_reports_per_day, actor, principal.scopes)),
      }),
      {
        params: keyIdParams,
        body: updateKeyBody,
        parse: "json",
        response: withBody({ 200: t.Object({ data: keySchema }), 403: errorSchema, 404: errorSchema, 422: errorSchema }),
        detail: {
          operationId: "updateAccessKey",
          summary: "Change an access key's daily quota",
          description:
            "Sets `max_reports_per_day` (null removes the quota); it applies from the next submission, counting what the key already submitted today. " +
            "A key acts only on keys within its own scopes: a target holding a scope the caller lacks is 403 `forbidden` naming them. Recorded as access_key.updated.",
        },
      },
    )
    .post(
      "/access-keys/:accessKeyID/rotate",
      async ({ principal, actor, params, body }) => {
        const r = await keys.rotate(params.accessKeyID, principal.accountId, body.grace_seconds, actor, principal.scopes);
        return { data: r.value, key: toKeyJson(r.key), previous_valid_until: iso(r.previousValidUntil)! };
      },
      {
        params: keyIdParams,
        body: rotateKeyBody,
        parse: "json",
        response: withBody({
          200: t.Object(
            {
              data: t.String({ description: "The key's new value: shown only this once" }),
              key: keySchema,
              previous_valid_until: t.String({
                format: "date-time",
                description: "Until when the old value still works (now, for grace 0)",
              }),
            },
            {
              examples: [
                {
                  data: "rg_p9d4tn6yv2rc_Zb7xQ2mK9vR4tY1uW8pL3sN6cJ0hF5gD2aE4iO7kM1q",
                  key: {
                    id: "p9d4tn6yv2rc",
                    name: "billing-service",
                    scopes: ["reports:write", "reports:read"],
                    created_at: "2026-11-26T01:00:00.000Z",
                    expires_at: null,
                    last_used_at: "2026-11-26T01:05:00.000Z",
                    max_reports_per_day: 500,
                    rotated_at: "2026-11-26T02:00:00.000Z",
                  },
                  previous_valid_until: "2026-11-26T03:00:00.000Z",
                },
              ],
            },
          ),
          403: errorSchema,
          404: errorSchema,
          422: errorSchema,
        }),
        detail: {
          operationId: "rotateAccessKey",
          summary: "Rotate an access key's value",
          description:
            "Returns a new value for the same key id, scopes, expiry and quota. The old value keeps working for `grace_seconds` (0, the default, " +
            "to 604800 = 7 days), then is refused (401). Rotating again during a grace period ends the older value at once. Send `{}` for no grace. " +
            "A key acts only on keys within its own scopes: a target holding a scope the caller lacks is 403 `forbidden` naming them. Recorded as access_key.rotated.",
        },
      },
    )
    .delete(
      "/access-keys/:accessKeyID",
      async ({ principal, actor, params }) => {
        await keys.delete(params.accessKeyID, { accountId: principal.accountId, actor, scopes: principal.scopes });
        return { data: { id: params.accessKeyID, deleted: true } };
      },
      {
        params: keyIdParams,
        response: withAuth({
          200: t.Object({ data: t.Object({ id: t.String(), deleted: t.Literal(true) }) }),
          403: errorSchema,
          404: errorSchema,
        }),
        detail: {
          operationId: "deleteAccessKey",
          summary: "Delete an access key",
          description:
            "Irreversible; the key is rejected (401) from the next request on. A caller may delete the key it is using. " +
            "A key acts only on keys within its own scopes: a target holding a scope the caller lacks is 403 `forbidden` naming them. Recorded as access_key.deleted.",
        },
      },
    );
