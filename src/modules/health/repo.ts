// SQL of the readiness probe: one row rewritten to prove the database still takes commits.
import type { Sql } from "../../db/sql";

export class HealthRepo {
  constructor(private readonly sql: Sql) {}

  /** Commits one small write; rejects with what the database says (SQLITE_FULL, a lost PostgreSQL connection, …). */
  async probeWrite(now: number): Promise<void> {
    await this.sql.run(
      "INSERT INTO health_probe (name, checked_at) VALUES ('readyz', $1) ON CONFLICT (name) DO UPDATE SET checked_at = excluded.checked_at",
      [now],
    );
  }

  /** Counted through the (status, …) indexes: no table scan. */
  async reportsByStatus(): Promise<Record<string, number>> {
    const rows = await this.sql.all<{ status: string; n: number }>("SELECT status, count(*) AS n FROM reports GROUP BY status");
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }
}
