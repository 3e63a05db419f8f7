// Idempotency keys: the stored answer of a request sent again with the same Idempotency-Key.
import type { FeatureModule } from "../../app/module";
import { idempotencyKeys } from "../../db/schema";

export const idempotencyModule: FeatureModule = {
  name: "idempotency",
  tables: [idempotencyKeys],
};
