// Signing identities: the PKCS#12 keys options.signature signs with.
import type { FeatureModule } from "../../app/module";
import { signingRoutes } from "./index";

export const signingModule: FeatureModule = {
  name: "signing",
  // Signing a report with one (options.signature) needs only reports:write.
  routes: {
    "POST /api/v1/signing-identities": "signing:manage",
    "GET /api/v1/signing-identities": "signing:manage",
    "GET /api/v1/signing-identities/:identityID": "signing:manage",
    "DELETE /api/v1/signing-identities/:identityID": "signing:manage",
  },
  api: ({ services: s, guard }) => signingRoutes(s.signing, guard),
};
