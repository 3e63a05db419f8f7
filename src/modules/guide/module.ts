// The user guide (docs/*.md), served by the executable at /docs.
import type { FeatureModule } from "../../app/module";
import { guideRoutes } from "./index";

export const guideModule: FeatureModule = {
  name: "guide",
  routes: {
    "GET /docs": "public",
    "GET /docs/:page": "public",
    "GET /docs/assets/:file": "public",
  },
  site: () => guideRoutes(),
};
