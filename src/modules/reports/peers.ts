// With PostgreSQL, other instances' work reaches this one by NOTIFY (triggers of migrations/postgres):
// a queued report wakes the processor's idle lanes, a finished one answers the long polls waiting here,
// wherever it rendered, with its final state (migration 0011): the poll answers without reading the
// report again. After a reconnect the long polls catch up on what finished meanwhile (read); a long
// poll whose notification was lost reads the report when its wait ends; a missed queue wake-up is
// covered by the processor's poll.
import type { PostgresSql } from "../../db/postgres";
import type { FinishedState, ReportEvents } from "./events";
import type { ReportQueue } from "./queue";

/** How often, and how many times, a failed catch-up is tried again (right after a restart, statements may still fail). */
export const CATCH_UP_RETRY = { everyMs: 1_000, times: 10 };

/** Starts listening; resolves to the functions that stop it. */
export async function listenForPeers(
  pg: Pick<PostgresSql, "listen">,
  events: Pick<ReportEvents, "waitingIds" | "finished" | "queuedAnywhere" | "announceQueueFromPeers">,
  queue: Pick<ReportQueue, "unfinished">,
): Promise<(() => Promise<void>)[]> {
  let stopped = false;
  // The connection is back, but the first reads may still fail (PostgreSQL restarting, the pool's fast
  // failure after an outage): a catch-up that failed is tried again, or long polls whose reports finished
  // meanwhile would wait out their whole wait (seen after a fast restart: 4 polls held 10 s).
  const catchUp = async (left = CATCH_UP_RETRY.times): Promise<void> => {
    const waiting = events.waitingIds();
    if (waiting.length === 0 || stopped) return;
    try {
      const open = await queue.unfinished(waiting);
      for (const id of waiting) if (!open.has(id)) events.finished(id, true);
    } catch {
      if (left > 0) setTimeout(() => void catchUp(left - 1), CATCH_UP_RETRY.everyMs).unref?.();
    }
  };
  const queued = await pg.listen("reportgen_queue", () => events.queuedAnywhere());
  events.announceQueueFromPeers();
  const finished = await pg.listen(
    "reportgen_finished_state",
    (payload) => {
      const states = finishedStates(payload);
      // Not ours to read (a later release's shape?): whoever waits reads the report.
      if (!states) return void catchUp();
      for (const [id, state] of states) events.finished(id, true, true, state);
    },
    () => void catchUp(),
  );
  const stop = async () => {
    stopped = true;
  };
  return [stop, queued.unlisten, finished.unlisten];
}

const STATUSES = new Set(["succeeded", "failed"]);
const numberOrNull = (v: unknown) => v === null || typeof v === "number";
const stringOrNull = (v: unknown) => v === null || typeof v === "string";

/**
 * The reports of a reportgen_finished_state payload, each with its final state, or without one (an id
 * alone: the trigger left out a state too large to send, and the waiter reads the report); undefined
 * for a payload that is not a list of them.
 */
export function finishedStates(payload: string): [string, FinishedState | undefined][] | undefined {
  let items: unknown;
  try {
    items = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (!Array.isArray(items)) return undefined;
  const out: [string, FinishedState | undefined][] = [];
  for (const item of items) {
    if (!item || typeof item !== "object" || typeof (item as { id?: unknown }).id !== "string") return undefined;
    const s = item as Record<string, unknown>;
    const complete =
      typeof s.status === "string" &&
      STATUSES.has(s.status) &&
      typeof s.attempts === "number" &&
      stringOrNull(s.errorCode) &&
      stringOrNull(s.errorMessage) &&
      ["sizeBytes", "pageCount", "startedAt", "finishedAt", "expiresAt", "progressDone", "progressTotal"].every((k) => numberOrNull(s[k]));
    out.push([s.id as string, complete ? (s as unknown as FinishedState) : undefined]);
  }
  return out;
}
