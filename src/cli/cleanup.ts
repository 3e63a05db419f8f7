// `reportgen cleanup`: runs the retention job once (the same job cron runs in the server).
import { App } from "../app";
import type { Config } from "../config/settings";

export function cleanup(config: Config): void {
  const app = new App(config);
  try {
    const r = app.cleanup();
    console.error(`expired ${r.expired} report(s); removed ${r.orphansRemoved} orphaned file(s)`);
  } finally {
    app.db.$client.close();
  }
}
