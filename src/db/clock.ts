// How far this machine's clock is from PostgreSQL's: instances of a cluster compare times written by
// each other. A lease expires at the claiming instance's now + 15 s and is reaped by whichever
// instance's now passes it (renewed every 5 s); a download link expires by the minting instance's
// clock and is checked by any other's; retries are held back until a time another instance compares.
// An instance whose clock runs 10 s ahead reaps live leases (the fence keeps the PDF right, but the
// report is printed twice); one 10 s behind lets a dead instance's reports wait longer. PostgreSQL's
// clock is the one every instance sees, so each compares its own with it: doctor and `serve` warn past
// MAX_CLOCK_OFFSET_MS. The fix is the machine's, not ours: NTP (docs/cluster.md).
import type { Logger } from "../lib/logger";
import type { Sql } from "./sql";

/** Beyond this, an instance's clock is far enough off to matter (a fifth of the lease, a third of its renewal). */
export const MAX_CLOCK_OFFSET_MS = 2_000;

export interface ClockOffset {
  /** PostgreSQL's clock minus this machine's, in ms (positive: this machine is behind). */
  offsetMs: number;
  /** Half the query's round trip: the offset is known to within this. */
  uncertaintyMs: number;
}

/** Reads PostgreSQL's clock once and compares it with `now` (this machine's) at the midpoint of the round trip. */
export async function clockOffset(sql: Sql, now: () => number = Date.now): Promise<ClockOffset> {
  const before = now();
  const row = await sql.get<{ ms: number }>("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms");
  const after = now();
  if (!row) throw new Error("PostgreSQL returned no time");
  return { offsetMs: Number(row.ms) - (before + after) / 2, uncertaintyMs: (after - before) / 2 };
}

/** Whether the clocks are surely further apart than MAX_CLOCK_OFFSET_MS (the round trip's share given the benefit of the doubt). */
export function clockOff(o: ClockOffset): boolean {
  return Math.abs(o.offsetMs) - o.uncertaintyMs > MAX_CLOCK_OFFSET_MS;
}

/** "3.2 s ahead of PostgreSQL's" or "3.2 s behind PostgreSQL's": what this machine's clock does. */
export function describeClockOffset(o: ClockOffset): string {
  const s = (Math.abs(o.offsetMs) / 1000).toFixed(1);
  return `${s} s ${o.offsetMs < 0 ? "ahead of" : "behind"} PostgreSQL's`;
}

/** Logs a warning when this machine's clock is off (serve, at start); a failed read is only logged at debug level. */
export async function warnIfClockOff(sql: Sql, logger: Logger, now: () => number = Date.now): Promise<void> {
  try {
    const o = await clockOffset(sql, now);
    if (clockOff(o))
      logger.warn(`this machine's clock is ${describeClockOffset(o)}: sync it (NTP), or instances will reap each other's live leases`, {
        offset_ms: Math.round(o.offsetMs),
        limit_ms: MAX_CLOCK_OFFSET_MS,
      });
  } catch (e) {
    logger.debug("could not compare the clock with PostgreSQL's", { error: (e as Error).message });
  }
}
