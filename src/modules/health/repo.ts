// SQL of the readiness probe: one row rewritten to prove the database still takes commits.
import type { Database } from "bun:sqlite";

export class HealthRepo {
  private readonly probeStmt;
  private readonly countStmt;

  constructor(db: Database) {
    this.probeStmt = db.prepare<unknown, [number]>(
      "INSERT INTO health_probe (name, checked_at) VALUES ('readyz', ?) ON CONFLICT (name) DO UPDATE SET checked_at = excluded.checked_at",
    );
    // Counted through the (status, created_at) index: no table scan.
    this.countStmt = db.prepare<{ status: string; n: number }, []>("SELECT status, count(*) AS n FROM reports GROUP BY status");
  }

  /** Commits one small write; throws what SQLite throws (SQLITE_FULL, SQLITE_READONLY, …). */
  probeWrite(now: number): void {
    this.probeStmt.run(now);
  }

  reportsByStatus(): Record<string, number> {
    return Object.fromEntries(this.countStmt.all().map((r) => [r.status, r.n]));
  }
}
