// The refusals of a submission that a client may retry later: the queue, or the account's share of it,
// is full; the key's daily quota is used up.
import { retryLater } from "../../lib/errors";
import { secondsToNextUtcMidnight } from "../keys/options";

/** 503 queue_full or 429 account_queue_full: the queue, or the account's share of it, has no room. */
export function queueRefusal(code: "queue_full" | "account_queue_full", caps: { total: number; account: number }) {
  return code === "queue_full"
    ? retryLater("queue_full", `the service has ${caps.total} reports waiting; retry later`, 5)
    : retryLater(
        "account_queue_full",
        `this account already has ${caps.account} unfinished reports; wait for some to finish, then retry`,
        2,
      );
}

/** 429 quota_exceeded: the key has submitted its `max` reports of the UTC day of `now`. */
export function quotaExceeded(max: number, now: number) {
  const wait = secondsToNextUtcMidnight(now);
  return retryLater(
    "quota_exceeded",
    `this access key may submit ${max} reports per UTC day and has used them all today; retry after the next UTC midnight (in ${wait} s), or raise its max_reports_per_day`,
    wait,
  );
}
