// SQL of usage: reads the daily roll-up (usage_daily) that triggers on reports keep (migration 0012 on
// SQLite, postgres/0004): the repository never writes it, so no code path can forget to.
import type { Sql } from "../../db/sql";

/** What a set of reports added up to. */
export interface UsageTotals {
  submitted: number;
  succeeded: number;
  failed: number;
  pages: number;
  bytes: number;
  /** Sum of finished_at - started_at over the successful attempts. */
  renderMs: number;
}

export type UsageByDay = UsageTotals & { day: number };
/** keyId "" gathers reports submitted before the submitting key was recorded. */
export type UsageByKey = UsageTotals & { keyId: string };

const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 (UTC) of a time in ms since the epoch: the roll-up's `day`. */
export const dayOf = (ms: number) => Math.floor(ms / MS_PER_DAY);
/** The first millisecond of a `day`. */
export const dayStart = (day: number) => day * MS_PER_DAY;

// sum() is NUMERIC on PostgreSQL (a string to postgres-js): cast back to BIGINT, a JS number on both.
const sums = `CAST(sum(submitted) AS BIGINT) AS submitted, CAST(sum(succeeded) AS BIGINT) AS succeeded, CAST(sum(failed) AS BIGINT) AS failed,
  CAST(sum(pages) AS BIGINT) AS pages, CAST(sum(bytes) AS BIGINT) AS bytes, CAST(sum(render_ms) AS BIGINT) AS "renderMs"`;

export class UsageRepo {
  constructor(private readonly sql: Sql) {}

  /** The account's usage per day from `fromDay` to `toDay` (both included); days without reports are absent. */
  byDay(accountId: string, fromDay: number, toDay: number): Promise<UsageByDay[]> {
    return this.sql.all<UsageByDay>(
      `SELECT day, ${sums} FROM usage_daily WHERE account_id = $1 AND day >= $2 AND day <= $3 GROUP BY day ORDER BY day`,
      [accountId, fromDay, toDay],
    );
  }

  /** The account's usage per submitting key over the days, most reports first; keys without reports are absent. */
  byKey(accountId: string, fromDay: number, toDay: number): Promise<UsageByKey[]> {
    return this.sql.all<UsageByKey>(
      `SELECT key_id AS "keyId", ${sums} FROM usage_daily WHERE account_id = $1 AND day >= $2 AND day <= $3
       GROUP BY key_id ORDER BY sum(submitted) DESC, key_id`,
      [accountId, fromDay, toDay],
    );
  }
}
