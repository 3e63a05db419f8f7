// Usage: what the account's reports added up to, per day.
import type { FeatureModule } from "../../app/module";
import { usageDaily } from "../../db/schema";
import { usageRoutes } from "./index";

export const usageModule: FeatureModule = {
  name: "usage",
  tables: [usageDaily],
  // Read access to the account's reports shows as much.
  routes: { "GET /api/v1/usage": "reports:read" },
  api: ({ services: s, guard }) => usageRoutes(s.usage, guard),
};
