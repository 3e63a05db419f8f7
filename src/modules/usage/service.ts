// Usage per day and per key: what the API's /usage, the dashboard's chart and its Access Keys page show.
// Ranges are whole UTC days, since that is what the roll-up keeps.
import { validationFailed } from "../../lib/errors";
import { RFC3339_DATE_TIME } from "../../lib/time";
import { dayOf, dayStart, type UsageByDay, type UsageByKey, type UsageRepo, type UsageTotals } from "./repo";

export const USAGE_GROUPS = ["day", "key"] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];
/** The longest range one request may ask for, in days: a leap year. */
export const USAGE_MAX_DAYS = 366;
/** What a range without from spans, in days (to included). */
export const USAGE_DEFAULT_DAYS = 30;

export interface DayRange {
  fromDay: number;
  toDay: number;
}

export interface KeyUsage extends UsageByKey {
  /** The key's name; null for a deleted key and for reports whose key was not recorded. */
  keyName: string | null;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const bad = (field: string, problem: string, message: string) => validationFailed(message, [{ field, problem }]);

/** YYYY-MM-DD as a day number, or undefined when it is no calendar date (2026-02-30). */
function calendarDay(text: string): number | undefined {
  const m = DATE_RE.exec(text);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === text ? dayOf(ms) : undefined;
}

/** A from/to parameter: a date (YYYY-MM-DD, UTC) or an RFC 3339 date-time, which counts as its UTC day. */
export function parseDay(field: "from" | "to", text: string): number {
  const day = DATE_RE.test(text) ? calendarDay(text) : RFC3339_DATE_TIME.test(text) ? dayOf(Date.parse(text)) : undefined;
  if (day === undefined || !Number.isFinite(day)) {
    throw bad(
      field,
      "a date (YYYY-MM-DD) or an RFC 3339 date-time",
      `${field} must be a date (YYYY-MM-DD, UTC) or an RFC 3339 date-time, e.g. 2026-11-01 or 2026-11-01T00:00:00Z; got "${text}"`,
    );
  }
  return day;
}

/** The day range of a request: to defaults to today (UTC), from to the 30 days ending at to. */
export function dayRange(q: { from?: string; to?: string }, now = Date.now()): DayRange {
  const toDay = q.to === undefined ? dayOf(now) : parseDay("to", q.to);
  const fromDay = q.from === undefined ? toDay - (USAGE_DEFAULT_DAYS - 1) : parseDay("from", q.from);
  if (fromDay > toDay) {
    throw bad("from", "not after to", `from (${isoDay(fromDay)}) is after to (${isoDay(toDay)}): swap them, or leave one out`);
  }
  const days = toDay - fromDay + 1;
  if (days > USAGE_MAX_DAYS) {
    throw bad(
      "to",
      `at most ${USAGE_MAX_DAYS} days after from`,
      `from ${isoDay(fromDay)} to ${isoDay(toDay)} spans ${days} days; ask for at most ${USAGE_MAX_DAYS} days per request (split a longer range)`,
    );
  }
  return { fromDay, toDay };
}

/** A day number as YYYY-MM-DD. */
export const isoDay = (day: number) => new Date(dayStart(day)).toISOString().slice(0, 10);

export const zeroUsage = (): UsageTotals => ({ submitted: 0, succeeded: 0, failed: 0, pages: 0, bytes: 0, renderMs: 0 });

export function addUsage(into: UsageTotals, u: UsageTotals): UsageTotals {
  into.submitted += u.submitted;
  into.succeeded += u.succeeded;
  into.failed += u.failed;
  into.pages += u.pages;
  into.bytes += u.bytes;
  into.renderMs += u.renderMs;
  return into;
}

export class UsageService {
  constructor(
    private readonly repo: UsageRepo,
    /** The account's current keys' names by id (deleted keys are absent). */
    private readonly keyNames: (accountId: string) => Promise<Map<string, string>>,
  ) {}

  /** Every day of the range in order, days without reports as zeros, and the range's totals. */
  async byDay(accountId: string, r: DayRange): Promise<{ days: UsageByDay[]; totals: UsageTotals }> {
    const rows = new Map((await this.repo.byDay(accountId, r.fromDay, r.toDay)).map((u) => [u.day, u]));
    const days: UsageByDay[] = [];
    for (let day = r.fromDay; day <= r.toDay; day++) days.push(rows.get(day) ?? { day, ...zeroUsage() });
    return { days, totals: days.reduce(addUsage, zeroUsage()) };
  }

  /** Per submitting key with reports in the range, most reports first, and the range's totals. */
  async byKey(accountId: string, r: DayRange): Promise<{ keys: KeyUsage[]; totals: UsageTotals }> {
    const [rows, names] = await Promise.all([this.repo.byKey(accountId, r.fromDay, r.toDay), this.keyNames(accountId)]);
    const keys = rows.map((u) => ({ ...u, keyName: names.get(u.keyId) ?? null }));
    return { keys, totals: rows.reduce(addUsage, zeroUsage()) };
  }
}
