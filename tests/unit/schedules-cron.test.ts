// A schedule's clock (src/modules/schedules/cron.ts): what a due tick means at a given moment (run it on
// time, catch it up, skip it), daylight saving time in the schedule's zone, and the refusals of
// expressions and zones with the fix they name. Pure functions: no database, no waiting.
import { expect, test } from "bun:test";
import { checkCron, checkTimezone, decideTick, nextTick } from "../../src/modules/schedules/cron";

const at = (s: string) => Date.parse(s);

test("a tick noticed on time runs; one noticed late runs only with catch_up last; the next tick is after now", () => {
  const daily = { cron: "0 6 * * *", timezone: "UTC", nextRunAt: at("2026-12-07T06:00:00Z") };
  expect(decideTick({ ...daily, catchUp: "none" }, at("2026-12-07T05:59:59Z"))).toBeUndefined();
  expect(decideTick({ ...daily, catchUp: "none" }, at("2026-12-07T06:00:30Z"))).toEqual({
    tick: at("2026-12-07T06:00:00Z"),
    caughtUp: false,
    nextRunAt: at("2026-12-08T06:00:00Z"),
  });
  // Down from 05:00 to 09:00 on the 9th: the 7th, 8th and 9th were missed.
  const late = at("2026-12-09T09:00:00Z");
  expect(decideTick({ ...daily, catchUp: "none" }, late)).toEqual({ caughtUp: false, nextRunAt: at("2026-12-10T06:00:00Z") });
  expect(decideTick({ ...daily, catchUp: "last" }, late)).toEqual({
    tick: at("2026-12-09T06:00:00Z"),
    caughtUp: true,
    nextRunAt: at("2026-12-10T06:00:00Z"),
  });
});

test("a fast schedule counts a tick as missed after half its period", () => {
  const s = { cron: "*/2 * * * * *", timezone: "UTC", catchUp: "none" as const, nextRunAt: at("2026-12-07T06:00:00Z") };
  expect(decideTick(s, at("2026-12-07T06:00:00.900Z"))?.tick).toBe(at("2026-12-07T06:00:00Z"));
  expect(decideTick(s, at("2026-12-07T06:00:01.100Z"))?.tick).toBeUndefined();
});

test("06:00 in Berlin follows daylight saving time", () => {
  expect(nextTick("0 6 * * *", "Europe/Berlin", at("2026-03-28T12:00:00Z"))).toBe(at("2026-03-29T04:00:00Z"));
  expect(nextTick("0 6 * * *", "Europe/Berlin", at("2026-03-27T12:00:00Z"))).toBe(at("2026-03-28T05:00:00Z"));
});

test("bad expressions and zones are refused naming the fix", () => {
  expect(checkCron("  0   6 * * * ")).toBe("0 6 * * *");
  expect(checkCron("@daily")).toBe("@daily");
  expect(() => checkCron("61 * * * *")).toThrow(/minute.*write five fields/);
  expect(() => checkCron("0 0 31 2 *")).toThrow(/never fires/);
  expect(() => checkCron("0 0 0 1 1 * 2030")).toThrow(/year field/);
  expect(checkTimezone("europe/berlin")).toBe("Europe/Berlin");
  expect(() => checkTimezone("Mars/Olympus")).toThrow(/IANA time zone name/);
  expect(() => checkTimezone("+02:00")).toThrow(/offset/);
});
