// SQL of the report queue: claims, leases, heartbeats, the reaper and fenced outcomes. The same SQL
// runs on SQLite (one process) and PostgreSQL (N instances); only the claim's row locking differs.
// attempts, bumped by every claim, is the fence: an outcome is recorded only by the claim that holds
// the report's current attempt, so an instance whose lease ran out (and whose report another instance
// took) can no longer mark it. The same number names the attempt's file (see ClaimedReport.attempts).

import type { Report } from "../../db/schema";
import { jsonList, type Sql } from "../../db/sql";

/**
 * A claimed report; `attempts` is this claim's fence (pass it back with the outcome); `startedAt`, when
 * this claim started it. `hasWebhook`: a
 * webhook waits for its outcome (only then is the webhook sender woken when it finishes). `more`
 * (PostgreSQL): other reports were claimable when this one was taken, so an idle lane should look too;
 * absent (SQLite) means "maybe", and the lane passes the wake-up on as before.
 */
export type ClaimedReport = Pick<
  Report,
  "id" | "accountId" | "engine" | "template" | "data" | "options" | "attempts" | "requestId" | "mergeParts"
> & { startedAt?: number | null; hasWebhook?: boolean | number; more?: boolean };

export interface Completion {
  id: string;
  /** The fence: the attempts value the claim returned. */
  attempt: number;
  sizeBytes: number;
  pageCount: number;
  finishedAt: number;
  expiresAt: number;
}

const unleased = "lease_owner = NULL, lease_expires_at = NULL";

/** What a claim returns of each report. */
const RETURNED = `id, account_id AS "accountId", engine, template, data, options, attempts, request_id AS "requestId", merge_parts AS "mergeParts",
  started_at AS "startedAt", EXISTS (SELECT 1 FROM report_webhooks w WHERE w.report_id = reports.id) AS "hasWebhook"`;
/** A claimable report ($1: now). */
const DUE = "status = 'queued' AND (not_before IS NULL OR not_before <= $1)";
/** A claim ($1: now, $2: owner, $3: lease expiry). */
const CLAIMED =
  "status = 'processing', attempts = attempts + 1, started_at = $1, not_before = NULL, lease_owner = $2, lease_expires_at = $3";

/** Defaults: a dead instance's reports are back in the queue within lease + reaper period = 20 s. */
export const LEASE_MS = 15_000;
export const REAP_EVERY_MS = 5_000;

export class ReportQueue {
  constructor(
    private readonly sql: Sql,
    /** Names this process in lease_owner: unique per start, so a restarted instance holds none of its predecessor's leases. */
    readonly owner: string,
  ) {}

  /**
   * Takes up to `limit` due reports, oldest first, leased until now + leaseMs. On PostgreSQL, rows that
   * another instance is claiming at this moment are skipped, not waited for (FOR UPDATE SKIP LOCKED).
   */
  claim(now: number, leaseMs: number, limit = 1): Promise<ClaimedReport[]> {
    // Lost in a power cut, a claim is simply undone: the report is still queued.
    if (this.sql.dialect === "sqlite") {
      return this.sql.all<ClaimedReport>(
        `UPDATE reports SET ${CLAIMED} WHERE id IN (SELECT id FROM reports WHERE ${DUE} ORDER BY created_at, rowid LIMIT $4) RETURNING ${RETURNED}`,
        [now, this.owner, now + leaseMs, limit],
        { durable: false },
      );
    }
    // One statement also says whether more were due: the CTE's SELECT sees the snapshot from before the
    // UPDATE, so the picked rows still read queued and are left out. A row another instance is claiming
    // at this moment counts as more: at worst one idle lane looks and finds nothing.
    return this.sql.all<ClaimedReport>(
      `WITH picked AS (SELECT id FROM reports WHERE ${DUE} ORDER BY created_at, id LIMIT $4 FOR UPDATE SKIP LOCKED),
       claimed AS (UPDATE reports SET ${CLAIMED} WHERE id IN (SELECT id FROM picked) RETURNING ${RETURNED})
       SELECT claimed.*, EXISTS (SELECT 1 FROM reports WHERE ${DUE} AND id NOT IN (SELECT id FROM picked)) AS more FROM claimed`,
      [now, this.owner, now + leaseMs, limit],
      { durable: false },
    );
  }

  /**
   * Takes the next due report, as claim(now, leaseMs, 1); when there is none, says when the next report
   * held back by a retry's backoff is due (as nextDueAt). PostgreSQL: one statement either way (an empty
   * claim is what an idle instance's poll runs every few seconds); SQLite: the claim, then nextDueAt
   * when it found nothing.
   */
  async claimNext(now: number, leaseMs: number): Promise<{ job?: ClaimedReport; nextDueAt?: number }> {
    if (this.sql.dialect === "sqlite") {
      const [job] = await this.claim(now, leaseMs, 1);
      if (job) return { job };
      const nextDueAt = await this.nextDueAt(now);
      return nextDueAt === undefined ? {} : { nextDueAt };
    }
    const row = await this.sql.get<Omit<ClaimedReport, "id"> & { id: string | null; nextDueAt: number | null }>(
      `WITH picked AS (SELECT id FROM reports WHERE ${DUE} ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED),
       claimed AS (UPDATE reports SET ${CLAIMED} WHERE id IN (SELECT id FROM picked) RETURNING ${RETURNED})
       SELECT claimed.*,
         CASE WHEN claimed.id IS NOT NULL THEN EXISTS (SELECT 1 FROM reports WHERE ${DUE} AND id NOT IN (SELECT id FROM picked)) END AS more,
         CASE WHEN claimed.id IS NULL THEN (SELECT min(not_before) FROM reports WHERE status = 'queued' AND not_before > $1) END AS "nextDueAt"
       FROM (SELECT 1) AS one LEFT JOIN claimed ON true`,
      [now, this.owner, now + leaseMs],
      { durable: false },
    );
    if (row?.id) {
      const { nextDueAt: _none, id, ...job } = row;
      return { job: { id, ...job } };
    }
    return row?.nextDueAt === null || row?.nextDueAt === undefined ? {} : { nextDueAt: row.nextDueAt };
  }

  /**
   * Renews until `until` the leases of the claims this process is still working on (`ids`); returns how
   * many it still holds. Only those: a claim whose completion could not be written (the database was
   * down) has been let go by the processor, and renewing it by owner would keep it from the reaper.
   */
  heartbeat(ids: string[], until: number): Promise<number> {
    if (ids.length === 0) return Promise.resolve(0);
    return this.sql.run(
      `UPDATE reports SET lease_expires_at = $2 WHERE id IN ${jsonList(this.sql.dialect, "$3")} AND lease_owner = $1 AND status = 'processing'`,
      [this.owner, until, JSON.stringify(ids)],
      { durable: false },
    );
  }

  /** Whether this claim (report id + fence) still holds the report: false once it was deleted, re-queued or taken over. */
  async holds(id: string, attempt: number): Promise<boolean> {
    return (
      (await this.sql.get("SELECT 1 AS held FROM reports WHERE id = $1 AND status = 'processing' AND attempts = $2", [id, attempt])) !==
      undefined
    );
  }

  /**
   * How far a chunked report has got (chunks printed of chunks in all), if the claim still holds it.
   * Not durable: a progress lost to a crash is rewritten by the next attempt. False when the claim no
   * longer holds the report (deleted, re-queued, taken over), like holds().
   */
  async progress(id: string, attempt: number, done: number, total: number): Promise<boolean> {
    const n = await this.sql.run(
      "UPDATE reports SET progress_done = $3, progress_total = $4 WHERE id = $1 AND status = 'processing' AND attempts = $2",
      [id, attempt, done, total],
      { durable: false },
    );
    return n > 0;
  }

  /** Records success if the claim still holds the report; false when it does not (deleted, or taken over). */
  async succeed(c: Completion): Promise<boolean> {
    return (await this.succeedMany([c])).length === 1;
  }

  /**
   * Records many successes in one commit; returns the ids whose claims still held. PostgreSQL: one
   * statement joining a JSON array (one round trip). SQLite: one prepared UPDATE per report inside one
   * transaction (~10 µs each; a join against json_each re-parsed the array for every row: 20-30 ms for 64).
   */
  async succeedMany(cs: Completion[]): Promise<string[]> {
    if (cs.length === 0) return [];
    const set = `status = 'succeeded', template = NULL, data = NULL, options = NULL, error_code = NULL, error_message = NULL, ${unleased}`;
    if (this.sql.dialect === "sqlite") {
      return this.sql.tx(async () => {
        const ids: string[] = [];
        for (const c of cs) {
          const n = await this.sql.run(
            `UPDATE reports SET ${set}, size_bytes = $3, page_count = $4, finished_at = $5, expires_at = $6
             WHERE id = $1 AND status = 'processing' AND attempts = $2`,
            [c.id, c.attempt, c.sizeBytes, c.pageCount, c.finishedAt, c.expiresAt],
          );
          if (n > 0) ids.push(c.id);
        }
        return ids;
      });
    }
    const done = await this.sql.all<{ id: string }>(
      `UPDATE reports SET ${set}, size_bytes = v.size, page_count = v.pages, finished_at = v.fin, expires_at = v.exp
       FROM jsonb_to_recordset(CAST($1 AS TEXT)::jsonb) AS v(id TEXT, attempt INTEGER, size BIGINT, pages INTEGER, fin BIGINT, exp BIGINT)
       WHERE reports.id = v.id AND reports.status = 'processing' AND reports.attempts = v.attempt RETURNING reports.id`,
      [
        JSON.stringify(
          cs.map((c) => ({ id: c.id, attempt: c.attempt, size: c.sizeBytes, pages: c.pageCount, fin: c.finishedAt, exp: c.expiresAt })),
        ),
      ],
    );
    return done.map((r) => r.id);
  }

  /**
   * Records a batch's successes and claims the next batch in one transaction: one commit (one WAL flush)
   * per cycle instead of two. Returns the ids recorded and the new claims.
   */
  completeAndClaim(cs: Completion[], now: number, leaseMs: number, limit: number): Promise<{ done: string[]; claimed: ClaimedReport[] }> {
    return this.sql.tx(async () => ({ done: await this.succeedMany(cs), claimed: await this.claim(now, leaseMs, limit) }));
  }

  /** Records a failure if the claim still holds the report. */
  async fail(id: string, attempt: number, code: string, message: string, finishedAt: number): Promise<boolean> {
    const n = await this.sql.run(
      `UPDATE reports SET status = 'failed', error_code = $3, error_message = $4, finished_at = $5, template = NULL, data = NULL, options = NULL, ${unleased}
       WHERE id = $1 AND status = 'processing' AND attempts = $2`,
      [id, attempt, code, message, finishedAt],
    );
    return n > 0;
  }

  /**
   * Puts a report back in the queue if the claim still holds it; `refund` gives back the attempt when we
   * interrupted it ourselves; `notBefore` (ms since the epoch) holds it back for a retry's backoff.
   */
  async requeue(id: string, attempt: number, refund: boolean, notBefore: number | null = null): Promise<boolean> {
    const n = await this.sql.run(
      `UPDATE reports SET status = 'queued', started_at = NULL, not_before = $4, ${unleased},
       attempts = CASE WHEN $3 = 1 AND attempts > 0 THEN attempts - 1 ELSE attempts END
       WHERE id = $1 AND status = 'processing' AND attempts = $2`,
      [id, attempt, refund ? 1 : 0, notBefore],
    );
    return n > 0;
  }

  /**
   * The reaper: reports whose lease ran out before `now` (their instance died or stalled) go back to the
   * queue, unless they have used all their attempts (a template that kills its renderer every time must
   * not do so forever). With SQLite, one process owns the queue: at start-up everything `processing` is
   * abandoned, so the caller passes now = Infinity.
   */
  reap(maxAttempts: number, now: number): Promise<{ requeued: number; failed: number }> {
    const before = Number.isFinite(now) ? now : Number.MAX_SAFE_INTEGER;
    const expired = "status = 'processing' AND (lease_expires_at IS NULL OR lease_expires_at < $1)";
    return this.sql.tx(async () => {
      const failed = await this.sql.run(
        `UPDATE reports SET status = 'failed', error_code = 'render_interrupted', error_message = $3, finished_at = $4,
         template = NULL, data = NULL, options = NULL, ${unleased} WHERE ${expired} AND attempts >= $2`,
        [before, maxAttempts, `rendering was interrupted ${maxAttempts} times (the service stopped while printing it)`, Date.now()],
      );
      const requeued = await this.sql.run(`UPDATE reports SET status = 'queued', started_at = NULL, ${unleased} WHERE ${expired}`, [
        before,
      ]);
      return { requeued, failed };
    });
  }

  /** When the next report held back by a retry backoff becomes due, if any. */
  async nextDueAt(now: number): Promise<number | undefined> {
    return (
      (
        await this.sql.get<{ t: number | null }>("SELECT min(not_before) AS t FROM reports WHERE status = 'queued' AND not_before > $1", [
          now,
        ])
      )?.t ?? undefined
    );
  }

  /** Of these ids, the ones whose reports are still unfinished (for a long poll after a missed NOTIFY). */
  async unfinished(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.sql.all<{ id: string }>(
      `SELECT id FROM reports WHERE id IN ${jsonList(this.sql.dialect, "$1")} AND status IN ('queued', 'processing')`,
      [JSON.stringify(ids)],
    );
    return new Set(rows.map((r) => r.id));
  }
}
