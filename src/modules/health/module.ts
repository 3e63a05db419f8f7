// Health: the probes (/healthz, /livez, /readyz) and /metrics, which every instance serves.
import type { FeatureModule } from "../../app/module";
import { healthProbe } from "../../db/schema";
import { healthRoutes } from "./index";

export const healthModule: FeatureModule = {
  name: "health",
  tables: [healthProbe],
  routes: {
    "GET /healthz": "public",
    "GET /livez": "public",
    "GET /readyz": "public",
    "GET /metrics": "public",
  },
  probes: ({ services: s, config: c, probe, metrics, version }) =>
    healthRoutes(probe, version, {
      probeDatabaseWrite: () => s.repos.health.probeWrite(Date.now()),
      storage: s.storage,
      files: s.files,
      metrics,
      metricsToken: c.metricsToken,
    }),
};
