// Checks of what a caller may set on a key: expiry, daily quota, a rotation's grace. One rule for the
// API, the dashboard and the CLI; each failure is a 422 naming the field and how to fix it.
import { validationFailed } from "../../lib/errors";

export const MAX_GRACE_SECONDS = 7 * 24 * 3600;
export const MAX_REPORTS_PER_DAY_LIMIT = 10_000_000;

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** expires_at (RFC 3339, in the future) to ms since the epoch; undefined/null: never expires. */
export function checkExpiresAt(value: unknown, now = Date.now()): number | null {
  if (value === undefined || value === null) return null;
  const ms = typeof value === "string" && RFC3339.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw validationFailed('expires_at must be an RFC 3339 date-time with a time zone, e.g. "2027-01-31T23:59:59Z"', [
      { field: "expires_at", problem: "RFC 3339 date-time" },
    ]);
  }
  if (ms <= now) {
    throw validationFailed(
      `expires_at ${value} is in the past: give a time after now (${new Date(now).toISOString()}), or omit it for a key that never expires`,
      [{ field: "expires_at", problem: "in the past" }],
    );
  }
  return ms;
}

/** max_reports_per_day: a whole number from 1; undefined/null: no quota. */
export function checkQuota(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_REPORTS_PER_DAY_LIMIT) {
    throw validationFailed(`max_reports_per_day must be a whole number from 1 to ${MAX_REPORTS_PER_DAY_LIMIT}, or null for no quota`, [
      { field: "max_reports_per_day", problem: `integer 1..${MAX_REPORTS_PER_DAY_LIMIT} or null` },
    ]);
  }
  return value;
}

/** grace_seconds of a rotation: 0 (the default: the old value stops at once) to 7 days. */
export function checkGrace(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_GRACE_SECONDS) {
    throw validationFailed(`grace_seconds must be a whole number from 0 to ${MAX_GRACE_SECONDS} (7 days)`, [
      { field: "grace_seconds", problem: `integer 0..${MAX_GRACE_SECONDS}` },
    ]);
  }
  return value;
}

/** The UTC day number (days since 1970-01-01) of a time, and the seconds until the next UTC midnight. */
export const utcDay = (now: number) => Math.floor(now / 86_400_000);
export const secondsToNextUtcMidnight = (now: number) => Math.max(1, Math.ceil(((utcDay(now) + 1) * 86_400_000 - now) / 1000));
