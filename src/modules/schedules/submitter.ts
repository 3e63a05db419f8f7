// Who a scheduled report is submitted as: the key that created the schedule, while it exists and has not
// expired (the report records it, its usage counts it, and its daily quota holds: a schedule is no way
// around a key's quota), else the account alone (its queue caps still hold).
import type { KeysRepo } from "../keys/repo";
import type { Submitter } from "../reports/service";
import type { ScheduleRow } from "./repo";

export async function submitterOf(
  s: Pick<ScheduleRow, "accountId" | "createdBy">,
  keys: Pick<KeysRepo, "get">,
  now: number,
): Promise<Submitter | string> {
  const key = s.createdBy ? await keys.get(s.createdBy, s.accountId) : undefined;
  if (!key || (key.expiresAt !== null && key.expiresAt <= now)) return s.accountId;
  return { accountId: s.accountId, keyId: key.id, maxReportsPerDay: key.maxReportsPerDay };
}
