// `reportgen serve`: runs the service until SIGTERM or SIGINT.
import { App } from "../app";
import type { Config } from "../config/settings";

export async function serve(config: Config): Promise<void> {
  const app = new App(config);
  try {
    await app.start({ listen: true });
  } catch (e) {
    await app.stop().catch(() => {});
    throw e;
  }
  let signals = 0;
  const shutdown = (signal: string) => {
    if (++signals > 1) process.exit(1); // a second signal: stop waiting
    app.logger.info("shutting down", { signal });
    app.stop().then(
      () => process.exit(0),
      (e) => {
        app.logger.error("shutdown failed", { error: e });
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
