// `reportgen serve`: runs the service until SIGTERM or SIGINT.
import { serveMode } from "../app/app";
import { bootstrap } from "../app/bootstrap";
import type { Config } from "../config/settings";
import { reexecWithAllocatorSettings } from "../lib/allocator";
import { prestartRenderThread } from "../render/pool";

export async function serve(config: Config): Promise<void> {
  // Before anything starts: on success this process is replaced and begins again (src/lib/allocator.ts).
  const allocatorNotice = reexecWithAllocatorSettings();
  const mode = serveMode(config.role);
  if (mode.render) prestartRenderThread();
  const app = await bootstrap(config, { mode });
  try {
    await app.start();
  } catch (e) {
    await app.stop().catch(() => {});
    throw e;
  }
  if (allocatorNotice) app.logger.warn("running with the allocator's default settings", { reason: allocatorNotice });
  let signals = 0;
  const shutdown = (signal: string) => {
    if (++signals > 1) process.exit(1); // a second signal: stop waiting
    const started = performance.now();
    app.logger.info("shutting down: draining", { signal, drain_period_ms: app.config.drainPeriod });
    app
      .drain()
      .then(({ handedBack }) => {
        app.logger.info("drained; stopping", { handed_back: handedBack, rendering: app.renderer?.processor.busy ?? 0 });
        return app.stop();
      })
      .then(
        () => {
          app.logger.info("shut down", { ms: Math.round(performance.now() - started) });
          process.exit(0);
        },
        (e) => {
          app.logger.error("shutdown failed", { error: e });
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
