// The repository contract for the queue (see repos-contract.test.ts), run against both backends, a
// real SQLite file and a real PostgreSQL 15: claims in order and in batches, the attempt as a fence,
// the reaper, batched outcomes and concurrent claimers; on PostgreSQL, SKIP LOCKED and LISTEN/NOTIFY.
import { describe, expect, test } from "bun:test";
import { BACKENDS, done, newReport, useBackends } from "./repos-contract-harness";

const { fresh } = useBackends();

for (const kind of BACKENDS) {
  describe(`repositories on ${kind}`, () => {
    test("queue: claims oldest first, in batches, skipping held-back reports; each claim bumps the attempt (the fence)", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const now = Date.now();
      const rows = Array.from({ length: 5 }, () => newReport(acme.id));
      for (const r of rows) await repos.reports.insert(r);
      const q = repos.queue;
      const first = await q.claim(now, 10_000, 2);
      expect(first.map((c) => c.id).sort()).toEqual([rows[0]!.id, rows[1]!.id].sort());
      expect(first.every((c) => c.attempts === 1 && c.template === "<p>x</p>")).toBe(true);
      // Back with a backoff: not claimable until due.
      expect(await q.requeue(rows[0]!.id, 1, false, now + 60_000)).toBe(true);
      expect(await q.nextDueAt(now)).toBe(now + 60_000);
      const rest = await q.claim(now, 10_000, 10);
      expect(rest.map((c) => c.id).sort()).toEqual(
        rows
          .slice(2)
          .map((r) => r.id)
          .sort(),
      );
      expect(await q.claim(now, 10_000, 10)).toEqual([]);
      const later = await q.claim(now + 60_000, 10_000, 10);
      expect(later.map((c) => [c.id, c.attempts])).toEqual([[rows[0]!.id, 2]]);
      // A refund gives the attempt back.
      expect(await q.requeue(rows[0]!.id, 2, true)).toBe(true);
      expect((await q.claim(now + 60_000, 10_000))[0]?.attempts).toBe(2);
    });

    test("queue: outcomes are fenced by the attempt; a stale claim can neither succeed, fail nor re-queue", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const r = newReport(acme.id);
      await repos.reports.insert(r);
      const q = repos.queue;
      const [c] = await q.claim(Date.now(), 10_000);
      expect(await q.holds(r.id, c!.attempts)).toBe(true);
      expect(await q.holds(r.id, c!.attempts + 1)).toBe(false);
      expect(await q.succeed(done(r.id, c!.attempts + 1))).toBe(false);
      expect(await q.fail(r.id, c!.attempts - 1, "x", "y", Date.now())).toBe(false);
      expect(await q.requeue(r.id, 99, false)).toBe(false);
      expect(await q.succeed(done(r.id, c!.attempts))).toBe(true);
      expect(await q.succeed(done(r.id, c!.attempts))).toBe(false); // once
      const got = await repos.reports.get(r.id, acme.id);
      expect(got).toMatchObject({ status: "succeeded", sizeBytes: 10, pageCount: 1, attempts: 1 });
      expect(await q.holds(r.id, c!.attempts)).toBe(false);
    });

    test("queue: a chunked report's progress is written by the claim that holds it only, and read back with the report", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const r = newReport(acme.id);
      await repos.reports.insert(r);
      expect(await repos.reports.get(r.id, acme.id)).toMatchObject({ progressDone: null, progressTotal: null });
      const q = repos.queue;
      const [c] = await q.claim(Date.now(), 10_000);
      expect(await q.progress(r.id, c!.attempts, 3, 20)).toBe(true);
      expect(await q.progress(r.id, c!.attempts + 1, 4, 20)).toBe(false);
      expect(await repos.reports.get(r.id, acme.id)).toMatchObject({ status: "processing", progressDone: 3, progressTotal: 20 });
      expect(await q.succeed(done(r.id, c!.attempts))).toBe(true);
      expect(await q.progress(r.id, c!.attempts, 5, 20)).toBe(false);
      expect(await repos.reports.get(r.id, acme.id)).toMatchObject({ progressDone: 3 });
    });

    test("queue: the reaper takes back expired leases (attempts kept), fails reports out of attempts, leaves live leases alone", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const rows = Array.from({ length: 3 }, () => newReport(acme.id));
      for (const r of rows) await repos.reports.insert(r);
      const t0 = Date.now();
      const q = repos.queue;
      const claimed = await q.claim(t0, 1_000, 3);
      expect(claimed).toHaveLength(3);
      // The heartbeat renews the leases of the claims it names (those the processor still works on), no other.
      expect(
        await q.heartbeat(
          claimed.slice(0, 2).map((c) => c.id),
          t0 + 10_000,
        ),
      ).toBe(2);
      expect(await q.heartbeat([], t0 + 10_000)).toBe(0);
      // The third was let go (its completion could not be written): taken back once its own lease ran out.
      expect(await q.reap(3, t0 + 5_000)).toEqual({ requeued: 1, failed: 0 });
      // Past the renewed leases: back in the queue with their attempt counted.
      expect(await q.reap(3, t0 + 20_000)).toEqual({ requeued: 2, failed: 0 });
      const again = await q.claim(t0 + 20_000, 1_000, 3);
      expect(again.map((c) => c.attempts)).toEqual([2, 2, 2]);
      // The old claims are fenced out.
      expect(await q.succeed(done(rows[0]!.id, 1))).toBe(false);
      await q.reap(3, t0 + 30_000);
      await q.claim(t0 + 30_000, 1_000, 3);
      expect(await q.reap(3, t0 + 40_000)).toEqual({ requeued: 0, failed: 3 });
      const failed = await repos.reports.get(rows[0]!.id, acme.id);
      expect(failed).toMatchObject({ status: "failed", errorCode: "render_interrupted", attempts: 3 });
    });

    test("queue: succeedMany records a batch in one statement; only current claims count", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const rows = Array.from({ length: 4 }, () => newReport(acme.id));
      for (const r of rows) await repos.reports.insert(r);
      const claimed = await repos.queue.claim(Date.now(), 10_000, 4);
      const batch = claimed.map((c, i) => done(c.id, i === 0 ? c.attempts + 5 : c.attempts));
      const ok = await repos.queue.succeedMany(batch);
      expect(ok.sort()).toEqual(
        claimed
          .slice(1)
          .map((c) => c.id)
          .sort(),
      );
      expect(await repos.reports.countByStatus(acme.id)).toEqual({ processing: 1, succeeded: 3 });
    });

    test("queue: completeAndClaim records a batch and claims the next in one transaction", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const rows = Array.from({ length: 5 }, () => newReport(acme.id));
      for (const r of rows) await repos.reports.insert(r);
      const first = await repos.queue.claim(Date.now(), 10_000, 2);
      const r = await repos.queue.completeAndClaim(
        first.map((c) => done(c.id, c.attempts)),
        Date.now(),
        10_000,
        10,
      );
      expect(r.done.sort()).toEqual(first.map((c) => c.id).sort());
      expect(r.claimed.map((c) => c.id).sort()).toEqual(
        rows
          .slice(2)
          .map((x) => x.id)
          .sort(),
      );
      expect(await repos.reports.countByStatus(acme.id)).toEqual({ processing: 3, succeeded: 2 });
    });

    test("queue: 4 concurrent claimers never take the same report twice", async () => {
      const { repos } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const n = 200;
      for (let i = 0; i < n; i++) await repos.reports.insert(newReport(acme.id));
      const taken: string[] = [];
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (;;) {
            const got = await repos.queue.claim(Date.now(), 30_000, 7);
            if (got.length === 0) return;
            taken.push(...got.map((c) => c.id));
            await repos.queue.succeedMany(got.map((c) => done(c.id, c.attempts)));
          }
        }),
      );
      expect(taken).toHaveLength(n);
      expect(new Set(taken).size).toBe(n);
      expect(await repos.reports.countByStatus(acme.id)).toEqual({ succeeded: n });
    });
  });
}

describe("PostgreSQL only", () => {
  test("a claim in progress elsewhere is skipped, not waited for (FOR UPDATE SKIP LOCKED)", async () => {
    const a = await fresh("postgres");
    const acme = await a.repos.accounts.ensure("acme");
    const rows = [newReport(acme.id), newReport(acme.id)];
    for (const r of rows) await a.repos.reports.insert(r);
    // Hold the oldest row locked in an open transaction, as a claimer on another instance would.
    const conn = await a.pg!.client.reserve();
    await conn.unsafe("BEGIN");
    await conn.unsafe("SELECT id FROM reports WHERE id = $1 FOR UPDATE", [rows[0]!.id]);
    // A claim that waited for the lock would never return: the lock is released only after it.
    const got = await a.repos.queue.claim(Date.now(), 10_000, 2);
    expect(got.map((c) => c.id)).toEqual([rows[1]!.id]);
    await conn.unsafe("ROLLBACK");
    conn.release();
  });

  test("LISTEN/NOTIFY: a submission wakes listeners once per statement; a finished report names its id", async () => {
    const a = await fresh("postgres");
    const acme = await a.repos.accounts.ensure("acme");
    const queued: string[] = [];
    const finished: string[] = [];
    const l1 = await a.pg!.listen("reportgen_queue", (p) => queued.push(p));
    const l2 = await a.pg!.listen("reportgen_finished", (p) => finished.push(p));
    const r = newReport(acme.id);
    await a.repos.reports.insert(r);
    const claimed = await a.repos.queue.claim(Date.now(), 10_000);
    await a.repos.queue.succeed(done(r.id, claimed[0]!.attempts));
    for (let i = 0; i < 50 && finished.length === 0; i++) await Bun.sleep(20);
    expect(queued).toEqual([""]);
    expect(finished).toEqual([r.id]);
    await l1.unlisten();
    await l2.unlisten();
  });
});
