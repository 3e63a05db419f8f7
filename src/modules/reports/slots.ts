// A submission that claims its own report (PostgreSQL). When the instance that takes a submission has
// a free render slot, the report's insert is also its claim: it is written `processing`, leased to this
// instance with attempt 1 (the fence), exactly as a claim would leave it, and the held lane renders it.
// The report is never `queued`, so no NOTIFY sends every instance to claim it (all but one finding
// nothing). Leases, the heartbeat, the reaper and the fence treat it like any claim.
import type { ClaimedReport } from "./queue";
import type { NewReport } from "./repo";

/** A render slot held for one submission: end it exactly once, with take() or release(). */
export interface HeldSlot {
  /** The lease owner the insert writes (the processor's queue owner). */
  owner: string;
  /** How long the insert's claim is leased. */
  leaseMs: number;
  /** The insert claimed the report: the held lane renders it. */
  take(job: ClaimedReport): void;
  /** The insert did not claim it (queued, refused or failed): the lane goes back to waiting. */
  release(): void;
}

/** Where a submission asks for a slot (the processor; none on an instance that does not render). */
export interface SlotSource {
  holdSlot(): HeldSlot | undefined;
}

/** The claim an insert made (repo.insertCounted's "claimed"): what queue.claim() would have returned for it. */
export function claimedOnInsert(row: NewReport, hasWebhook: boolean): ClaimedReport {
  return {
    id: row.id,
    accountId: row.accountId,
    engine: row.engine,
    template: row.template,
    data: row.data,
    options: row.options,
    attempts: 1,
    requestId: row.requestId ?? null,
    mergeParts: row.mergeParts ?? null,
    startedAt: row.createdAt,
    hasWebhook,
    more: false,
  };
}
