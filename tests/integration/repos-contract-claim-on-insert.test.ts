// The repository contract for a submission that claims its own report (src/modules/reports/slots.ts) and
// for the finished report's state in its notification (migrations/postgres/0011), on both backends:
// SQLite never claims in the insert (one instance, no NOTIFY); on PostgreSQL the insert leaves the report
// exactly as a claim would (status, attempt 1 as the fence, lease), which the heartbeat, the reaper and
// the fence then treat like any claim.
import { describe, expect, test } from "bun:test";
import { finishedStates } from "../../src/modules/reports/peers";
import type { NewReport } from "../../src/modules/reports/repo";
import { BACKENDS, done, newReport, useBackends } from "./repos-contract-harness";

const { fresh } = useBackends();

const roomy = { total: 100, account: 100 };
const DAY = 20_000;

for (const kind of BACKENDS) {
  describe(`repositories on ${kind}`, () => {
    test("a keyed insert with a claim: on PostgreSQL the report is leased to the owner with attempt 1, a claim as any other; SQLite queues it", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const q = repos.queue;
      const now = Date.now();
      const r = newReport(acme.id, { keyId: "key-c", createdAt: now });
      const claim = { owner: q.owner, leaseExpiresAt: now + 1_000 };
      const got = await repos.reports.transaction(() =>
        repos.reports.insertCounted(r, { keyId: "key-c", day: DAY, max: null }, roomy, claim),
      );
      // Counted against the quota either way.
      expect(await repos.reports.reportsOn("key-c", DAY)).toBe(1);
      if (kind === "sqlite") {
        expect(got).toBe("inserted");
        expect((await repos.reports.get(r.id, acme.id))?.status).toBe("queued");
        expect((await q.claim(now, 10_000)).map((c) => [c.id, c.attempts])).toEqual([[r.id, 1]]);
        return;
      }
      expect(got).toBe("claimed");
      expect(await repos.reports.get(r.id, acme.id)).toMatchObject({ status: "processing", attempts: 1, startedAt: now });
      // Held by attempt 1, and by no one else: no claim finds it, a later attempt is fenced out.
      expect(await q.holds(r.id, 1)).toBe(true);
      expect(await q.claim(now, 10_000, 10)).toEqual([]);
      // The owner's heartbeat renews it; the reaper leaves it while the lease runs.
      expect(await q.heartbeat([r.id], now + 2_000)).toBe(1);
      expect(await q.reap(3, now + 1_500)).toEqual({ requeued: 0, failed: 0 });
      // Once the lease ran out, the reaper takes it back and the next claim is attempt 2: the insert's
      // claim (attempt 1) can no longer record anything.
      expect(await q.reap(3, now + 2_500)).toEqual({ requeued: 1, failed: 0 });
      const [again] = await q.claim(now + 2_500, 10_000);
      expect([again?.id, again?.attempts]).toEqual([r.id, 2]);
      expect(await q.succeed(done(r.id, 1))).toBe(false);
      expect(await q.fail(r.id, 1, "x", "y", now)).toBe(false);
      expect(await q.succeed(done(r.id, 2))).toBe(true);
    });

    test("a keyed insert with a claim leaves older due reports first, and is refused by the caps and the quota like any", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const q = repos.queue;
      const now = Date.now();
      const submit = (o: Partial<NewReport> = {}, caps = roomy, max: number | null = null) => {
        const r = newReport(acme.id, { keyId: "key-o", createdAt: now, ...o });
        const claim = { owner: q.owner, leaseExpiresAt: now + 60_000 };
        return repos.reports
          .transaction(() => repos.reports.insertCounted(r, { keyId: "key-o", day: DAY, max }, caps, claim))
          .then((got) => [got, r.id] as const);
      };
      // A report held back by a retry's backoff is not due: it does not keep a new one from its slot.
      const older = newReport(acme.id, { createdAt: now - 1_000 });
      await repos.reports.insert(older);
      const [held] = await q.claim(now, 10_000);
      expect(await q.requeue(held!.id, held!.attempts, false, now + 60_000)).toBe(true);
      const [first, firstId] = await submit();
      expect(first).toBe(kind === "postgres" ? "claimed" : "inserted");
      // A due report waits in the queue: the new one queues behind it, and claims take them in order.
      const due = newReport(acme.id, { createdAt: now - 500 });
      await repos.reports.insert(due);
      const [second, secondId] = await submit();
      expect(second).toBe("inserted");
      expect((await repos.reports.get(secondId, acme.id))?.status).toBe("queued");
      expect((await q.claim(now, 10_000)).map((c) => c.id)).toEqual([due.id]);
      const rest = (await q.claim(now, 10_000, 10)).map((c) => c.id).sort();
      expect(rest).toEqual(kind === "postgres" ? [secondId] : [firstId, secondId].sort());
      // The caps and the quota refuse before anything is written or claimed.
      expect((await submit({}, { total: 1, account: 100 }))[0]).toBe("queue_full");
      expect((await submit({}, { total: 100, account: 1 }))[0]).toBe("account_queue_full");
      expect((await submit({}, roomy, 2))[0]).toBe("quota_exceeded");
      expect(await repos.reports.reportsOn("key-o", DAY)).toBe(2);
    });
  });
}

for (const kind of BACKENDS) {
  test(`claimNext on ${kind}: the next due report as claim() returns it, else when the next held-back one is due`, async () => {
    const { repos } = await fresh(kind);
    const acme = await repos.accounts.ensure("acme");
    const q = repos.queue;
    const now = Date.now();
    expect(await q.claimNext(now, 10_000)).toEqual({});
    const held = newReport(acme.id, { createdAt: now - 2_000 });
    await repos.reports.insert(held);
    const first = await q.claimNext(now, 10_000);
    expect(first.job).toMatchObject({ id: held.id, attempts: 1, accountId: acme.id, engine: "raw", template: "<p>x</p>", startedAt: now });
    expect(first.nextDueAt).toBeUndefined();
    expect(await q.requeue(held.id, 1, false, now + 60_000)).toBe(true);
    expect(await q.claimNext(now, 10_000)).toEqual({ nextDueAt: now + 60_000 });
    // Two due: the oldest first, and (PostgreSQL) the claim says more are due.
    const a = newReport(acme.id, { createdAt: now - 1_000, requestId: "req-a", options: '{"format":"A4"}' });
    const b = newReport(acme.id, { createdAt: now - 500 });
    await repos.reports.insert(a);
    await repos.reports.insert(b);
    const next = await q.claimNext(now, 10_000);
    const [same] = await q.claim(now + 1, 10_000);
    expect(next.job?.id).toBe(a.id);
    expect(same?.id).toBe(b.id);
    // The same columns as claim()'s, and the lease.
    const { id: _a, more: moreA, ...fromNext } = next.job!;
    const { id: _b, more: moreB, ...fromClaim } = same!;
    expect(Object.keys(fromNext).sort()).toEqual(Object.keys(fromClaim).sort());
    expect(fromNext).toMatchObject({ requestId: "req-a", options: '{"format":"A4"}', mergeParts: null, attempts: 1 });
    if (kind === "postgres") expect([moreA, moreB]).toEqual([true, false]);
    expect(await q.holds(a.id, 1)).toBe(true);
    expect(await q.reap(3, now + 5_000)).toEqual({ requeued: 0, failed: 0 });
    expect(await q.reap(3, now + 10_002)).toEqual({ requeued: 2, failed: 0 });
  });
}

for (const kind of BACKENDS) {
  test(`afterTx on ${kind}: runs once the outermost transaction has ended, true only when it committed`, async () => {
    const { repos } = await fresh(kind);
    const acme = await repos.accounts.ensure("acme");
    const seen: [string, boolean, string | undefined][] = [];
    const note = (what: string, id: string) =>
      repos.reports.afterTx((committed) => {
        // Read when told: a commit is visible then, a rollback left nothing.
        void repos.reports.get(id, acme.id).then((r) => seen.push([what, committed, r?.status]));
      });
    const kept = newReport(acme.id);
    await repos.reports.transaction(async () => {
      await repos.reports.transaction(async () => {
        note("inner", kept.id);
        await repos.reports.insert(kept);
      });
      // The inner transaction joined the outer one: nothing is told before the outer one ends.
      expect(seen).toEqual([]);
    });
    const lost = newReport(acme.id);
    await expect(
      repos.reports.transaction(async () => {
        note("rolled back", lost.id);
        await repos.reports.insert(lost);
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    note("outside", kept.id);
    for (let i = 0; i < 50 && seen.length < 3; i++) await Bun.sleep(10);
    expect(seen.sort()).toEqual([
      ["inner", true, "queued"],
      ["outside", true, "queued"],
      ["rolled back", false, undefined],
    ]);
  });
}

describe("PostgreSQL only", () => {
  /** Collects a channel's payloads until `until` says they are complete (or 2 s pass). */
  async function collect(
    a: Awaited<ReturnType<typeof fresh>>,
    channel: string,
    run: () => Promise<unknown>,
    until: (p: string[]) => boolean,
  ) {
    const got: string[] = [];
    const l = await a.pg!.listen(channel, (p) => got.push(p));
    try {
      await run();
      for (let i = 0; i < 100 && !until(got); i++) await Bun.sleep(20);
      return got;
    } finally {
      await l.unlisten();
    }
  }

  test("a report claimed by its insert wakes no instance; its success notifies its final state, equal to the row's", async () => {
    const a = await fresh("postgres");
    const acme = await a.repos.accounts.ensure("acme");
    const q = a.repos.queue;
    const now = Date.now();
    const r = newReport(acme.id, { keyId: "key-n", createdAt: now });
    const queued = await collect(
      a,
      "reportgen_queue",
      () =>
        a.repos.reports.transaction(() =>
          a.repos.reports.insertCounted(r, { keyId: "key-n", day: DAY, max: null }, roomy, {
            owner: q.owner,
            leaseExpiresAt: now + 60_000,
          }),
        ),
      () => false,
    );
    expect(queued).toEqual([]);
    // The same insert without a claim does wake them: the listener above was listening.
    const other = newReport(acme.id, { keyId: "key-n" });
    expect(
      await collect(
        a,
        "reportgen_queue",
        () => a.repos.reports.transaction(() => a.repos.reports.insertCounted(other, { keyId: "key-n", day: DAY, max: null }, roomy)),
        (p) => p.length > 0,
      ),
    ).toEqual([""]);
    const states = await collect(
      a,
      "reportgen_finished_state",
      () => q.succeed({ ...done(r.id, 1), sizeBytes: 4_321, pageCount: 3 }),
      (p) => p.length > 0,
    );
    expect(states).toHaveLength(1);
    const row = (await a.repos.reports.get(r.id, acme.id))!;
    const [id, state] = finishedStates(states[0]!)![0]!;
    expect(id).toBe(r.id);
    expect(state).toEqual({
      id: r.id,
      status: "succeeded",
      attempts: 1,
      errorCode: null,
      errorMessage: null,
      sizeBytes: 4_321,
      pageCount: 3,
      startedAt: row.startedAt,
      finishedAt: row.finishedAt,
      expiresAt: row.expiresAt,
      progressDone: null,
      progressTotal: null,
    } as never);
    expect({ ...row, ...state }).toEqual({ ...row, id: r.id });
  }, 30_000);

  test("finished states go in notifications under 8000 bytes: a reaper statement finishing 300 reports, an error too long to send", async () => {
    const a = await fresh("postgres");
    const acme = await a.repos.accounts.ensure("acme");
    const q = a.repos.queue;
    const now = Date.now();
    const rows = Array.from({ length: 300 }, () => newReport(acme.id, { createdAt: now }));
    await a.repos.reports.transaction(async () => {
      for (const r of rows) await a.repos.reports.insert(r);
    });
    expect(await q.claim(now, 1, 300)).toHaveLength(300);
    // One statement fails all 300 (their last attempt ran out): ids and states, both split.
    const ids: string[] = [];
    const states: string[] = [];
    const l1 = await a.pg!.listen("reportgen_finished", (p) => ids.push(p));
    const l2 = await a.pg!.listen("reportgen_finished_state", (p) => states.push(p));
    try {
      expect(await q.reap(1, now + 10)).toEqual({ requeued: 0, failed: 300 });
      const seen = () => states.flatMap((p) => finishedStates(p)!.map(([id]) => id));
      for (let i = 0; i < 100 && seen().length < 300; i++) await Bun.sleep(20);
      expect(new Set(ids.flatMap((p) => p.split(","))).size).toBe(300);
      expect(new Set(seen()).size).toBe(300);
      expect(states.length).toBeGreaterThan(1);
      for (const p of [...ids, ...states]) expect(new TextEncoder().encode(p).length).toBeLessThan(8000);
      const [, failed] = finishedStates(states[0]!)![0]!;
      expect(failed).toMatchObject({ status: "failed", errorCode: "render_interrupted", attempts: 1 });
      // An error message too long for a notification: the id alone, and the waiter reads the report.
      const long = newReport(acme.id);
      await a.repos.reports.insert(long);
      const [c] = await q.claim(Date.now(), 10_000);
      states.length = 0;
      expect(await q.fail(long.id, c!.attempts, "template_error", "x".repeat(5_000), Date.now())).toBe(true);
      for (let i = 0; i < 100 && states.length === 0; i++) await Bun.sleep(20);
      expect(finishedStates(states[0]!)).toEqual([[long.id, undefined]]);
    } finally {
      await l1.unlisten();
      await l2.unlisten();
    }
  }, 30_000);

  test("finishedStates refuses what is not a list of finished reports, and keeps ids whose state is incomplete", () => {
    expect(finishedStates("a,b")).toBeUndefined();
    expect(finishedStates('{"id":"a"}')).toBeUndefined();
    expect(finishedStates('[{"status":"succeeded"}]')).toBeUndefined();
    expect(finishedStates('[{"id":"a","status":"queued","attempts":1}]')).toEqual([["a", undefined]]);
    expect(finishedStates('[{"id":"a","status":"succeeded","attempts":"1"}]')).toEqual([["a", undefined]]);
  });
});
