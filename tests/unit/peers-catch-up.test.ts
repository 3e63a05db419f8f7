// After PostgreSQL's LISTEN connection comes back, the long polls waiting here catch up on the reports
// that finished meanwhile (modules/reports/peers.ts). Right after a restart that read may fail: it is
// tried again, so a poll whose report finished during the gap is answered then, not at the end of its
// wait. Stand-ins for the connection, the events and the queue: only the catch-up's logic is under test.
import { expect, test } from "bun:test";
import { CATCH_UP_RETRY, listenForPeers } from "../../src/modules/reports/peers";

function harness(unfinished: () => Promise<Set<string>>) {
  const onListen: (() => void)[] = [];
  const finished: string[] = [];
  const pg = {
    listen: async (_channel: string, _onMessage: (payload: string) => void, reconnected?: () => void) => {
      if (reconnected) onListen.push(reconnected);
      return { unlisten: async () => {} };
    },
  };
  const events = {
    waitingIds: () => ["a", "b"].filter((id) => !finished.includes(id)),
    finished: (id: string) => void finished.push(id),
    queuedAnywhere: () => {},
    announceQueueFromPeers: () => {},
  };
  return { pg, events, queue: { unfinished }, onListen, finished };
}

test("a catch-up whose read fails is tried again until it reads; the finished reports' polls are answered then", async () => {
  let reads = 0;
  const h = harness(async () => {
    reads++;
    if (reads <= 2) throw new Error("the database system is starting up");
    return new Set(["b"]);
  });
  const stops = await listenForPeers(h.pg as never, h.events as never, h.queue as never);
  h.onListen[0]!();
  await Bun.sleep(CATCH_UP_RETRY.everyMs * 2 + 300);
  expect(reads).toBe(3);
  expect(h.finished).toEqual(["a"]);
  for (const stop of stops) await stop();
});

test("a failing catch-up stops being retried once the listener is stopped", async () => {
  let reads = 0;
  const h = harness(async () => {
    reads++;
    throw new Error("down");
  });
  const stops = await listenForPeers(h.pg as never, h.events as never, h.queue as never);
  h.onListen[0]!();
  await Bun.sleep(CATCH_UP_RETRY.everyMs + 300);
  expect(reads).toBe(2);
  for (const stop of stops) await stop();
  await Bun.sleep(CATCH_UP_RETRY.everyMs + 300);
  expect(reads).toBe(2);
  expect(h.finished).toEqual([]);
});
