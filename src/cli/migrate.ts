// `reportgen migrate`: applies the embedded migrations (bootstrap does) and reports the schema version.
import type { Config } from "../config/settings";
import { withApp } from "./with-app";

export async function migrate(config: Config): Promise<void> {
  await withApp(config, ({ services: { migration: r } }) => {
    console.error(
      r.applied.length ? `applied ${r.applied.join(", ")}; schema version ${r.version}` : `schema is up to date (version ${r.version})`,
    );
  });
}
