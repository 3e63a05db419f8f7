// Downloads: a PDF or an e-invoice's XML for whoever holds a signed link (the link's signature is the authority).
import type { FeatureModule } from "../../app/module";
import { filesRoutes } from "./index";

export const filesModule: FeatureModule = {
  name: "files",
  routes: { "GET /files/:reportID": "public", "GET /files/:reportID/e-invoice": "public" },
  site: ({ services: s }) => filesRoutes(s.repos.reports, s.files, s.links),
};
