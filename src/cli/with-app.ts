// How every one-shot command opens and closes the app: bootstrap (database, migrations, secrets),
// run, stop. A client error from a service (AppError) reads as a usage error on the command line.
import type { App } from "../app/app";
import { bootstrap } from "../app/bootstrap";
import type { Config } from "../config/settings";
import { AppError } from "../lib/errors";
import { UsageError } from "./args";

export async function withApp<T>(config: Config, fn: (app: App) => T | Promise<T>): Promise<T> {
  const app = await bootstrap(config);
  try {
    return await fn(app);
  } catch (e) {
    if (e instanceof AppError) throw new UsageError(e.message);
    throw e;
  } finally {
    await app.stop();
  }
}
