// Accounts: what keys, reports and everything else belong to (created with an account's first key).
import type { FeatureModule } from "../../app/module";
import { accounts } from "../../db/schema";

export const accountsModule: FeatureModule = {
  name: "accounts",
  tables: [accounts],
};
