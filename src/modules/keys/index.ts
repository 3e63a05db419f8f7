// Routes of /api/v1/access-keys.
import { Elysia, t } from "elysia";
import { apiGuard } from "../../http/auth";
import { createKeyBody, keyIdParams, keySchema, toKeyJson } from "./model";
import type { KeysService } from "./service";
import { errorSchema, withAuth } from "../../http/openapi";
import { iso } from "../../lib/time";

export const keysRoutes = (keys: KeysService, guard: ReturnType<typeof apiGuard>) =>
  new Elysia({ name: "keys-routes", detail: { tags: ["Access keys"] } })
    .use(guard)
    .post(
      "/access-keys",
      async ({ principal, body, set }) => {
        const k = await keys.create(principal.accountId, body.name);
        set.status = 201;
        return { data: k.value, id: k.id, name: k.name, created_at: iso(k.createdAt)! };
      },
      {
        body: createKeyBody,
        parse: "json", // documents the media type; apiGuard's parser (registered first) does the parsing
        response: withAuth({ 201: t.Object({ data: t.String({ description: "The new key value: shown only this once" }), id: t.String(), name: t.String(), created_at: t.String({ format: "date-time" }) }), 422: errorSchema }),
        detail: { summary: "Create an access key", description: "The key belongs to the caller's account. Its value is returned once, in `data`; only an argon2id hash is stored." },
      },
    )
    .get("/access-keys", ({ principal }) => ({ data: keys.list(principal.accountId).map(toKeyJson) }), {
      response: withAuth({ 200: t.Object({ data: t.Array(keySchema) }) }),
      detail: { summary: "List the account's access keys", description: "Newest first. Never includes key values or hashes." },
    })
    .delete(
      "/access-keys/:accessKeyID",
      ({ principal, params }) => {
        keys.delete(params.accessKeyID, principal.accountId);
        return { data: { id: params.accessKeyID, deleted: true } };
      },
      {
        params: keyIdParams,
        response: withAuth({ 200: t.Object({ data: t.Object({ id: t.String(), deleted: t.Literal(true) }) }), 404: errorSchema }),
        detail: { summary: "Delete an access key", description: "Irreversible; the key is rejected (401) from the next request on. A caller may delete the key it is using." },
      },
    );
