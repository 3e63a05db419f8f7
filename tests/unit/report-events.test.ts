// Who wakes the processor for a queued report: a submission here (SQLite: one instance), or, once the
// instance listens to PostgreSQL's NOTIFY, the notification alone, which reaches every instance, this
// one included: one wake-up per report either way (a second sent a claim that found nothing).
import { expect, test } from "bun:test";
import { ReportEvents } from "../../src/modules/reports/events";

test("a submission here wakes the listeners once, until the queue is announced by NOTIFY; then only NOTIFY does", () => {
  const events = new ReportEvents();
  let wakes = 0;
  events.onQueued(() => wakes++);
  events.queued();
  expect(wakes).toBe(1);

  events.announceQueueFromPeers();
  events.queued();
  expect(wakes).toBe(1);
  events.queuedAnywhere();
  expect(wakes).toBe(2);
});

test("a finished report answers the long polls waiting on it, here or elsewhere; the webhook sender hears only of reports finished here", async () => {
  const events = new ReportEvents();
  const heard: string[] = [];
  events.onFinished((id) => heard.push(id));
  const here = events.waitForFinish("a", 5_000);
  const elsewhere = events.waitForFinish("b", 5_000);
  expect(events.waitingIds().sort()).toEqual(["a", "b"]);
  events.finished("a");
  events.finished("b", true);
  await Promise.all([here, elsewhere]);
  expect(heard).toEqual(["a"]);
  expect(events.waitingIds()).toEqual([]);
});
