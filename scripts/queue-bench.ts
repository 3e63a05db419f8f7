// The queue without Chromium: 4 concurrent claimers take reports and record them succeeded, through the
// repositories only (ReportQueue over the Sql port), on PostgreSQL and on SQLite. Reports claim→complete
// cycles per second, batched (claim up to --batch at once, complete them in one statement) and naive
// (one report per claim, one completing UPDATE), each measured in the same run.
// Run: bun scripts/queue-bench.ts [--n 20000] [--batch 64] [--claimers 4] [--database-url postgres://…]
// Without --database-url a throwaway PostgreSQL 15 is started (Debian's binaries, as the tests do).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type BackendWithRepos, openRepos } from "../src/app/repos";
import type { NewReport } from "../src/modules/reports/repo";
import { startPostgres } from "../tests/support/postgres-server";

const { values } = parseArgs({
  options: {
    n: { type: "string" },
    batch: { type: "string" },
    claimers: { type: "string" },
    "database-url": { type: "string" },
    rounds: { type: "string" },
  },
});
const N = Number(values.n ?? 20_000);
const BATCH = Number(values.batch ?? 64);
const CLAIMERS = Number(values.claimers ?? 4);
const ROUNDS = Number(values.rounds ?? 3);
const LEASE_MS = 15_000;

const dirs: string[] = [];
const server = values["database-url"] ? undefined : await startPostgres();

async function freshBackend(kind: "sqlite" | "postgres"): Promise<BackendWithRepos> {
  const dir = mkdtempSync(join(tmpdir(), "rg-queue-bench-"));
  dirs.push(dir);
  const url = kind === "sqlite" ? "" : (values["database-url"] ?? (await server!.createDatabase()));
  return openRepos({ dataDir: dir, databaseUrl: url });
}

/** Queues n reports (not timed), in transactions of 1,000. */
async function fill(b: BackendWithRepos, n: number): Promise<void> {
  const account = await b.repos.accounts.ensure("bench");
  const t0 = Date.now();
  for (let i = 0; i < n; i += 1000) {
    await b.repos.reports.transaction(async () => {
      for (let j = i; j < Math.min(n, i + 1000); j++) {
        const r: NewReport = {
          id: crypto.randomUUID(),
          accountId: account.id,
          engine: "raw",
          template: "<p>bench</p>",
          data: null,
          options: null,
          createdAt: t0 + j,
        };
        await b.repos.reports.insert(r);
      }
    });
  }
}

/**
 * CLAIMERS loops until the queue is empty; cycles (reports completed) per second. Batched: each loop
 * records its batch and claims the next in one transaction (one commit per cycle). Naive: one claim
 * statement and one completing statement per report, each its own commit.
 */
async function drain(b: BackendWithRepos, batch: number): Promise<{ perSecond: number; done: number; ms: number }> {
  const q = b.repos.queue;
  let done = 0;
  const result = (c: { id: string; attempts: number }, at: number) => ({
    id: c.id,
    attempt: c.attempts,
    sizeBytes: 1000,
    pageCount: 1,
    finishedAt: at,
    expiresAt: at + 86_400_000,
  });
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLAIMERS }, async () => {
      if (batch === 1) {
        for (;;) {
          const [c] = await q.claim(Date.now(), LEASE_MS, 1);
          if (!c) return;
          // Awaited before adding: `done += await …` would read `done` before the other claimers' additions.
          const ok = await q.succeed(result(c, Date.now()));
          if (ok) done++;
        }
      }
      let got = await q.claim(Date.now(), LEASE_MS, batch);
      while (got.length > 0) {
        const now = Date.now();
        const r = await q.completeAndClaim(
          got.map((c) => result(c, now)),
          now,
          LEASE_MS,
          batch,
        );
        done += r.done.length;
        got = r.claimed;
      }
    }),
  );
  const ms = performance.now() - t0;
  return { perSecond: Math.round((done / ms) * 1000), done, ms: Math.round(ms) };
}

async function measure(kind: "sqlite" | "postgres", batch: number, n: number): Promise<number> {
  const b = await freshBackend(kind);
  try {
    await fill(b, n);
    const r = await drain(b, batch);
    if (r.done !== n) throw new Error(`${kind}: ${r.done} of ${n} reports completed`);
    const left = await b.repos.reports.countUnfinished();
    if (left !== 0) throw new Error(`${kind}: ${left} reports left unfinished`);
    return r.perSecond;
  } finally {
    await b.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const rows: { backend: string; mode: string; runs: number[] }[] = [];
  for (const kind of ["postgres", "sqlite"] as const) {
    // The naive loop drains fewer reports: it is slower and only the baseline.
    const modes = [
      { mode: `batch ${BATCH}`, batch: BATCH, n: N },
      { mode: "one per claim", batch: 1, n: Math.min(N, 4_000) },
    ];
    for (const m of modes) {
      const runs: number[] = [];
      for (let i = 0; i < ROUNDS; i++) runs.push(await measure(kind, m.batch, m.n));
      rows.push({ backend: kind, mode: m.mode, runs });
      console.error(`${kind} ${m.mode}: ${runs.join(", ")} cycles/s`);
    }
  }
  console.log(`\nqueue claim→complete, ${CLAIMERS} concurrent claimers, ${N} reports (naive: ${Math.min(N, 4_000)}), median of ${ROUNDS}`);
  console.log("| backend | mode | cycles/s (median) | runs |");
  console.log("|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.backend} | ${r.mode} | ${median(r.runs)} | ${r.runs.join(", ")} |`);
} finally {
  await server?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
