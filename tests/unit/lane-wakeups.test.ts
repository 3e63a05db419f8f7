// The processor's wake-ups: one idle lane per wake-up (not all of them, which with PostgreSQL sent a
// claim per idle lane and instance for every queued report), oldest first; a lane that timed out is no
// longer counted as idle; stop() wakes idle and paused lanes alike, and a paused lane never takes a
// wake-up meant for a report; a wake-up that found no idle lane is kept for the next lane to finish a report.
import { expect, test } from "bun:test";
import { LaneWakeups } from "../../src/modules/reports/lane-wakeups";
import type { ClaimedReport } from "../../src/modules/reports/queue";

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => (done = true));
  await Bun.sleep(5);
  return done;
};

test("one() wakes exactly one idle lane, the one idle longest", async () => {
  const w = new LaneWakeups();
  const first = w.wait();
  const second = w.wait();
  w.one();
  expect(await settled(first)).toBe(true);
  expect(await settled(second)).toBe(false);
  w.one();
  expect(await settled(second)).toBe(true);
  w.one(); // nobody idle: nothing to do, nothing kept for later
  const third = w.wait();
  expect(await settled(third)).toBe(false);
  w.all();
});

test("a lane that timed out leaves the idle list: the next wake-up goes to a lane still waiting", async () => {
  const w = new LaneWakeups();
  const timedOut = w.wait(1);
  await Bun.sleep(10);
  expect(await settled(timedOut)).toBe(true);
  const waiting = w.wait();
  w.one();
  expect(await settled(waiting)).toBe(true);
});

test("paused lanes take no wake-up meant for a report; all() wakes paused and idle lanes", async () => {
  const w = new LaneWakeups();
  const paused = w.pause(new Promise(() => {}));
  const idle = w.wait();
  w.one();
  expect(await settled(idle)).toBe(true);
  expect(await settled(paused)).toBe(false);
  const idle2 = w.wait();
  w.all();
  expect(await settled(paused)).toBe(true);
  expect(await settled(idle2)).toBe(true);
});

test("a pause ends with its recovery", async () => {
  const w = new LaneWakeups();
  let recover!: () => void;
  const paused = w.pause(new Promise<void>((r) => (recover = r)));
  expect(await settled(paused)).toBe(false);
  recover();
  expect(await settled(paused)).toBe(true);
});

test("one idle lane at a time polls; when it is woken or its poll ends, the next lane to go idle polls", async () => {
  const w = new LaneWakeups();
  const poller = w.wait(undefined, 20);
  const quiet = w.wait(undefined, 20); // another lane polls already: this one waits for a wake-up only
  await Bun.sleep(40);
  expect(await settled(poller)).toBe(true);
  expect(await settled(quiet)).toBe(false);
  const next = w.wait(undefined, 20); // the poll ended: this lane takes it over
  await Bun.sleep(40);
  expect(await settled(next)).toBe(true);
  // A due report (retry backoff) wakes a lane that is not polling, at its time.
  const due = w.wait(10, 20);
  const dueQuiet = w.wait(10, 20);
  await Bun.sleep(30);
  expect(await settled(due)).toBe(true);
  expect(await settled(dueQuiet)).toBe(true);
  w.all();
  expect(await settled(quiet)).toBe(true);
});

test("a wake-up that found no idle lane is kept (bounded) for a lane that finishes a report: takeMissed() once each", () => {
  const w = new LaneWakeups();
  expect(w.takeMissed()).toBe(false);
  w.one();
  w.one();
  expect(w.takeMissed()).toBe(true);
  expect(w.takeMissed()).toBe(true);
  expect(w.takeMissed()).toBe(false);
  for (let i = 0; i < 1_000; i++) w.one();
  let kept = 0;
  while (w.takeMissed()) kept++;
  expect(kept).toBe(64);
});

test("a wake-up taken by an idle lane is not also kept as missed", async () => {
  const w = new LaneWakeups();
  const idle = w.wait();
  w.one();
  expect(await settled(idle)).toBe(true);
  expect(w.takeMissed()).toBe(false);
});

test("hold() takes the lane idle longest, its timer stopped, and hands it a report or releases it; neither a wake-up nor all() reaches a held lane", async () => {
  const w = new LaneWakeups();
  expect(w.hold()).toBeUndefined();
  const oldest = w.wait(undefined, 20); // the poller: its poll would end the wait after 20 ms
  const next = w.wait();
  const give = w.hold()!;
  await Bun.sleep(40);
  expect(await settled(oldest)).toBe(false);
  // A wake-up meanwhile goes to the next idle lane, not the held one.
  w.one();
  expect(await settled(next)).toBe(true);
  w.all();
  expect(await settled(oldest)).toBe(false);
  const job = { id: "r1", attempts: 1 } as ClaimedReport;
  give(job);
  expect(await oldest).toBe(job);
  // Released: the lane learns that no report came (it then goes idle again without a claim).
  const again = w.wait();
  w.hold()!("released");
  expect(await again).toBe("released");
  // The poll passes to the next lane once the held poller is answered.
  const poller = w.wait(undefined, 10);
  await Bun.sleep(30);
  expect(await poller).toBeUndefined();
});
