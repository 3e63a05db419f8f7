// Access keys: minting, listing, changing, rotating and deleting them.
import type { FeatureModule } from "../../app/module";
import { keysRoutes } from "./index";

export const keysModule: FeatureModule = {
  name: "keys",
  routes: {
    "POST /api/v1/access-keys": "keys:manage",
    "GET /api/v1/access-keys": "keys:manage",
    "PATCH /api/v1/access-keys/:accessKeyID": "keys:manage",
    "DELETE /api/v1/access-keys/:accessKeyID": "keys:manage",
    "POST /api/v1/access-keys/:accessKeyID/rotate": "keys:manage",
  },
  api: ({ services: s, guard }) => keysRoutes(s.keys, guard, s.idempotency),
};
