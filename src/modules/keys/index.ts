// Routes of /api/v1/access-keys.
import { Elysia, t } from "elysia";
import type { apiGuard } from "../../http/auth";
import { errorSchema, withAuth, withBody } from "../../http/openapi";
import { iso } from "../../lib/time";
import { idempotencyHeaders } from "../idempotency/model";
import type { IdempotencyService } from "../idempotency/service";
import { createKeyBody, keyIdParams, keySchema, toKeyJson } from "./model";
import type { KeysService } from "./service";

export const keysRoutes = (keys: KeysService, guard: ReturnType<typeof apiGuard>, idempotency: IdempotencyService) =>
  new Elysia({ name: "keys-routes", detail: { tags: ["Access keys"] } })
    .use(guard)
    .post(
      "/access-keys",
      async ({ principal, body, set, headers, request }) => {
        const r = await idempotency.run(
          { accountId: principal.accountId, key: headers["idempotency-key"], method: "POST", path: new URL(request.url).pathname, body },
          () => keys.prepare(principal.accountId, body.name),
          async (prepared) => {
            const k = await keys.commit(prepared);
            return { status: 201, headers: {}, body: { data: k.value, id: k.id, name: k.name, created_at: iso(k.createdAt)! } };
          },
        );
        set.status = r.status;
        if (r.replayed) set.headers["idempotent-replayed"] = "true";
        return r.body;
      },
      {
        body: createKeyBody,
        headers: idempotencyHeaders,
        parse: "json", // documents the media type; apiGuard's parser (registered first) does the parsing
        response: withBody({
          201: t.Object({
            data: t.String({ description: "The new key value: shown only this once" }),
            id: t.String(),
            name: t.String(),
            created_at: t.String({ format: "date-time" }),
          }),
          409: errorSchema,
          422: errorSchema,
        }),
        detail: {
          summary: "Create an access key",
          description:
            "The key belongs to the caller's account. Its value is returned once, in `data`; only an argon2id hash is stored. " +
            "With an `Idempotency-Key` header, a retry within 24 hours returns the same key (see Idempotency keys above).",
        },
      },
    )
    .get("/access-keys", async ({ principal }) => ({ data: (await keys.list(principal.accountId)).map(toKeyJson) }), {
      response: withAuth({ 200: t.Object({ data: t.Array(keySchema) }) }),
      detail: { summary: "List the account's access keys", description: "Newest first. Never includes key values or hashes." },
    })
    .delete(
      "/access-keys/:accessKeyID",
      async ({ principal, params }) => {
        await keys.delete(params.accessKeyID, principal.accountId);
        return { data: { id: params.accessKeyID, deleted: true } };
      },
      {
        params: keyIdParams,
        response: withAuth({ 200: t.Object({ data: t.Object({ id: t.String(), deleted: t.Literal(true) }) }), 404: errorSchema }),
        detail: {
          summary: "Delete an access key",
          description: "Irreversible; the key is rejected (401) from the next request on. A caller may delete the key it is using.",
        },
      },
    );
