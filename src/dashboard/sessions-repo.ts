// SQL for dashboard sessions.
import { eq, lt, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { type DashboardSession, dashboardSessions } from "../db/schema";

export class SessionsRepo {
  // Read on every dashboard request: one prepared statement.
  private readonly byHash;

  constructor(private readonly db: Db) {
    this.byHash = db.$client.prepare<DashboardSession, [string]>(
      `SELECT id_hash AS idHash, key_id AS keyId, account_id AS accountId, csrf_token AS csrfToken,
       created_at AS createdAt, last_seen_at AS lastSeenAt, expires_at AS expiresAt FROM dashboard_sessions WHERE id_hash = ?`,
    );
  }

  insert(row: DashboardSession): void {
    this.db.insert(dashboardSessions).values(row).run();
  }

  get(idHash: string): DashboardSession | undefined {
    return this.byHash.get(idHash) ?? undefined;
  }

  touch(idHash: string, at: number): void {
    this.db.update(dashboardSessions).set({ lastSeenAt: at }).where(eq(dashboardSessions.idHash, idHash)).run();
  }

  delete(idHash: string): void {
    this.db.delete(dashboardSessions).where(eq(dashboardSessions.idHash, idHash)).run();
  }

  /** Removes sessions past their absolute expiry or idle since before `idleBefore`. */
  deleteExpired(now: number, idleBefore: number): number {
    return this.db
      .delete(dashboardSessions)
      .where(or(lt(dashboardSessions.expiresAt, now), lt(dashboardSessions.lastSeenAt, idleBefore)))
      .returning({ id: dashboardSessions.idHash })
      .all().length;
  }
}
