// Schemas of the access-key endpoints.
import { t } from "elysia";
import { iso } from "../../lib/time";
import { KEY_NAME_MAX, type KeyRow } from "./service";

export const createKeyBody = t.Object({
  name: t.String({ minLength: 1, maxLength: KEY_NAME_MAX, description: "What the key is for, e.g. billing-service" }),
});
export const keyIdParams = t.Object({ accessKeyID: t.String({ description: "id of the key, as listed" }) });

export const keySchema = t.Object({
  id: t.String({ description: "Public identifier; also the middle part of the key value (rg_<id>_<secret>)" }),
  name: t.String(),
  created_at: t.String({ format: "date-time" }),
  last_used_at: t.Nullable(t.String({ format: "date-time", description: "Updated at most once a minute" })),
});

export const toKeyJson = (k: Pick<KeyRow, "id" | "name" | "createdAt" | "lastUsedAt">) => ({
  id: k.id,
  name: k.name,
  created_at: iso(k.createdAt)!,
  last_used_at: iso(k.lastUsedAt),
});
