// A schedule's clock: its cron expression and IANA time zone checked as submitted, and what a tick
// due at `now` means (run it, catch it up, or skip it). Pure functions over croner; no I/O.
import { Cron } from "croner";
import type { CatchUp } from "../../db/schema";
import { validationFailed } from "../../lib/errors";

/** A tick noticed later than this is missed (catch_up decides); shorter for a faster schedule (half its period). */
export const MISSED_AFTER_MS = 60_000;

const CRON_HELP =
  'five fields "minute hour day-of-month month day-of-week" (e.g. "0 6 * * *": 06:00 every day; "0 6 * * 1-5": weekdays) ' +
  'or six with seconds first ("*/30 * * * * *"), or a nickname (@hourly, @daily, @weekly, @monthly, @yearly)';

const clock = (cron: string, timezone: string) => new Cron(cron, { timezone, paused: true });

/** The expression, trimmed; 422 naming the field and the accepted forms when croner refuses it or it never fires. */
export function checkCron(raw: string, timezone = "UTC"): string {
  const cron = raw.trim().replace(/\s+/g, " ");
  const refuse = (problem: string) =>
    validationFailed(`cron ${JSON.stringify(raw.slice(0, 100))} ${problem}: write ${CRON_HELP}`, [{ field: "cron", problem }]);
  if (!cron.startsWith("@") && cron.split(" ").length > 6) throw refuse("has a year field, which schedules do not take");
  let next: Date | null;
  try {
    next = clock(cron, timezone).nextRun();
  } catch (e) {
    throw refuse(`is not a cron expression (${(e as Error).message.replace(/^CronPattern: /, "")})`);
  }
  if (!next) throw refuse("never fires (no such date)");
  return cron;
}

/** The zone's canonical IANA name ("europe/berlin" → "Europe/Berlin"); 422 for an unknown zone or a bare offset. */
export function checkTimezone(raw: string): string {
  const refuse = (problem: string) =>
    validationFailed(
      `timezone ${JSON.stringify(raw.slice(0, 100))} ${problem}: give an IANA time zone name such as "Europe/Berlin", "America/New_York" or "UTC"`,
      [{ field: "timezone", problem }],
    );
  if (/^[+-]/.test(raw.trim())) throw refuse("is an offset, which daylight saving time would make wrong half the year");
  try {
    return new Intl.DateTimeFormat("en", { timeZone: raw.trim() }).resolvedOptions().timeZone;
  } catch {
    throw refuse("is not a time zone this server knows");
  }
}

/** The first tick strictly after `after` (ms), or null when there is none. */
export function nextTick(cron: string, timezone: string, after: number): number | null {
  return clock(cron, timezone).nextRun(new Date(after))?.getTime() ?? null;
}

export interface Clocked {
  cron: string;
  timezone: string;
  catchUp: CatchUp;
  /** The next tick not yet considered. */
  nextRunAt: number;
}

/** What to do with a schedule whose next tick is due: the tick to run (if any), and the next one to wait for. */
export interface TickDecision {
  /** The tick to run now; undefined: nothing (catch_up none and every due tick was missed). */
  tick?: number;
  /** The tick was missed (noticed late) and runs because catch_up is last. */
  caughtUp: boolean;
  /** The next tick after now; null when the expression fires no more. */
  nextRunAt: number | null;
}

/**
 * The due ticks of `s` at `now` (those from nextRunAt up to now): only the latest can run. It runs when
 * it is on time (at most MISSED_AFTER_MS late, or half the period for a faster schedule), or, missed
 * (the service was down, or no instance noticed it in time), when catch_up is "last". Earlier due ticks
 * are skipped either way: "last" runs one tick, however long the outage.
 */
export function decideTick(s: Clocked, now: number): TickDecision | undefined {
  if (s.nextRunAt > now) return undefined;
  const c = clock(s.cron, s.timezone);
  const latest = Math.max(s.nextRunAt, c.previousRuns(1, new Date(now + 1))[0]?.getTime() ?? s.nextRunAt);
  const after = c.nextRun(new Date(latest))?.getTime() ?? null;
  const period = after === null ? Number.POSITIVE_INFINITY : after - latest;
  const onTime = now - latest <= Math.min(MISSED_AFTER_MS, period / 2);
  const nextRunAt = c.nextRun(new Date(now))?.getTime() ?? null;
  if (onTime) return { tick: latest, caughtUp: false, nextRunAt };
  if (s.catchUp === "last") return { tick: latest, caughtUp: true, nextRunAt };
  return { caughtUp: false, nextRunAt };
}
