// The SQL of a durable queue table that workers on any instance share (webhook deliveries, report
// deliveries). A row waits with status 'pending' and a next_attempt_at; a worker claims it by pushing
// next_attempt_at a lease ahead and writing its name in claimed_by, so one instance makes each attempt,
// and if that instance dies the row is due again when the lease ends. A pending row whose
// next_attempt_at is NULL is not due yet (its report's PDF is not durable) and nobody claims it.
import { jsonList, type Sql } from "./sql";

export type LeasedTable = "webhook_deliveries" | "report_deliveries";

export class LeasedRows {
  constructor(
    private readonly sql: Sql,
    private readonly table: LeasedTable,
    /** This process's name in claims (see ReportQueue.owner). */
    private readonly owner: string,
  ) {}

  /**
   * Claims up to `limit` due rows, oldest due first, for `leaseMs`, and gives their ids; until the lease
   * ends no other worker (here or on another instance) takes them. Call it inside a transaction that
   * also reads the rows, so a claim and its read are one.
   */
  async claim(now: number, limit: number, leaseMs: number): Promise<string[]> {
    const rows = await this.sql.all<{ id: string }>(this.claimStatement("id"), [now, limit, now + leaseMs, this.owner]);
    return rows.map((r) => r.id);
  }

  /**
   * The same claim as one statement that gives the rows' `returning` columns, oldest created first,
   * without waiting for its fsync on SQLite (as the report queue's claim): a claim lost in a power cut
   * leaves the rows due, and they are attempted again (at least once, as promised).
   */
  async claimRows<T extends { id: string; createdAt: number }>(
    now: number,
    limit: number,
    leaseMs: number,
    returning: string,
  ): Promise<T[]> {
    const rows = await this.sql.all<T>(this.claimStatement(returning), [now, limit, now + leaseMs, this.owner], { durable: false });
    // RETURNING keeps no order.
    return rows.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private claimStatement(returning: string): string {
    // PostgreSQL: two instances claiming at once skip each other's rows instead of waiting on them.
    const skipLocked = this.sql.dialect === "postgres" ? "FOR UPDATE SKIP LOCKED" : "";
    return `UPDATE ${this.table} SET next_attempt_at = $3, claimed_by = $4 WHERE id IN (
         SELECT id FROM ${this.table} WHERE status = 'pending' AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $2 ${skipLocked})
       RETURNING ${returning}`;
  }

  /** Gives claimed rows back (their attempt was cut off by a stop): due again at `now`. */
  async release(ids: string[], now: number): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.run(
      `UPDATE ${this.table} SET next_attempt_at = $2, claimed_by = NULL WHERE id IN ${jsonList(this.sql.dialect, "$1")} AND status = 'pending'`,
      [JSON.stringify(ids), now],
    );
  }

  /**
   * Single machine only: at start-up, the claims of an earlier (killed) process are due at once rather
   * than when their leases run out. Not for PostgreSQL, where the other claimers are alive.
   */
  releaseOthers(now: number): Promise<number> {
    return this.sql.run(
      `UPDATE ${this.table} SET next_attempt_at = $2, claimed_by = NULL
       WHERE status = 'pending' AND claimed_by IS NOT NULL AND claimed_by <> $1 AND next_attempt_at IS NOT NULL`,
      [this.owner, now],
    );
  }

  /** When the earliest pending row is due, or null when none is waiting to be attempted. */
  async nextDueAt(): Promise<number | null> {
    const row = await this.sql.get<{ at: number | null }>(`SELECT min(next_attempt_at) AS at FROM ${this.table} WHERE status = 'pending'`);
    return row?.at ?? null;
  }
}
