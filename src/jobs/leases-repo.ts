// SQL of job leases: a job that must run once at a time across every instance sharing the database
// (the retention cleanup) runs only in the instance that holds its row's unexpired lease.
import type { Sql } from "../db/sql";

export class JobLeasesRepo {
  constructor(private readonly sql: Sql) {}

  /**
   * Takes (or renews) the lease on `name` for `holder` until now + ttlMs; false while another holder's
   * lease has not run out. One statement: two instances asking at once cannot both win.
   */
  async acquire(name: string, holder: string, now: number, ttlMs: number): Promise<boolean> {
    const n = await this.sql.run(
      `INSERT INTO job_leases (name, holder, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE job_leases.holder = excluded.holder OR job_leases.expires_at < $4`,
      [name, holder, now + ttlMs, now],
    );
    return n > 0;
  }

  /** Gives the lease up early (the job finished), so the next run need not wait for it to expire. */
  async release(name: string, holder: string): Promise<void> {
    await this.sql.run("DELETE FROM job_leases WHERE name = $1 AND holder = $2", [name, holder]);
  }
}
