// With PostgreSQL, other instances' work reaches this one by NOTIFY (triggers of migrations/postgres):
// a queued report wakes the processor's idle lanes, a finished one answers the long polls waiting here,
// wherever it rendered. After a reconnect the long polls catch up on what finished meanwhile; a missed
// queue wake-up is covered by the processor's poll.
import type { PostgresSql } from "../../db/postgres";
import type { ReportEvents } from "./events";
import type { ReportQueue } from "./queue";

/** Starts listening; resolves to the functions that stop it. */
export async function listenForPeers(pg: PostgresSql, events: ReportEvents, queue: ReportQueue): Promise<(() => Promise<void>)[]> {
  const catchUp = async () => {
    const waiting = events.waitingIds();
    if (waiting.length === 0) return;
    const open = await queue.unfinished(waiting);
    for (const id of waiting) if (!open.has(id)) events.finished(id, true);
  };
  const queued = await pg.listen("reportgen_queue", () => events.queuedAnywhere());
  events.announceQueueFromPeers();
  const finished = await pg.listen(
    "reportgen_finished",
    (ids) => {
      for (const id of ids.split(",")) if (id) events.finished(id, true);
    },
    () => void catchUp().catch(() => {}),
  );
  return [queued.unlisten, finished.unlisten];
}
