// SQL of the secrets every instance on one PostgreSQL database must share (link-signing secret, auth
// pepper). With SQLite they stay files in the data dir (modules/files/links.ts, modules/keys/check.ts).
import type { Sql } from "./sql";

export class SharedSecretsRepo {
  constructor(private readonly sql: Sql) {}

  /** The stored value of `name`; the first caller stores `generate()`, every later one (on any instance) reads it. */
  async getOrCreate(name: string, generate: () => string, now = Date.now()): Promise<string> {
    await this.sql.run("INSERT INTO shared_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING", [
      name,
      generate(),
      now,
    ]);
    return (await this.sql.get<{ value: string }>("SELECT value FROM shared_secrets WHERE name = $1", [name]))!.value;
  }
}
