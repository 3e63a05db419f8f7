// `reportgen cleanup`: runs the retention job once (the same job cron runs in the server).
import type { Config } from "../config/settings";
import { withApp } from "./with-app";

export async function cleanup(config: Config): Promise<void> {
  await withApp(config, async (app) => {
    const r = await app.cleanup();
    if (r.skipped) return console.error("another process is running the cleanup now; nothing done");
    console.error(`expired ${r.expired} report(s); removed ${r.orphansRemoved} orphaned file(s)`);
  });
}
