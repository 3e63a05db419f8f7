// PostgreSQL statements per report (issue 36, "coordination cost"): instances of the service on a
// throwaway PostgreSQL started with pg_stat_statements (top-level statements only), and the bucket
// (moto_server) when --instances > 1 (one instance keeps its PDFs in its data dir). For each concurrency,
// the statistics are reset, c clients each submit, long-poll and download invoices (the bench's client,
// requests round-robin over the instances), and the counts are read back (scripts/lib/pg-statements.ts,
// which the bench's cluster mode uses too): statements and round trips per report, broken down by
// statement text, plus the instances' own CPU per report.
//
//   bun scripts/bench-statements.ts [--concurrency 1,2,4] [--count 60] [--templates invoice-ejs] [--instances 1] [--json out.json]
//
// The periodic work (reaper, lease renewals, retention lease) is counted too: it is part of what an
// instance costs the database, and over a run of a few seconds it is a small, visible share.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { processTable, TICK_MS, treeOf } from "../src/lib/process-tree";
import { STATEMENT_SETTINGS, statementCounter } from "./lib/pg-statements";

const { values: own } = parseArgs({
  args: process.argv.slice(2),
  options: {
    concurrency: { type: "string", default: "1,2,4" },
    count: { type: "string", default: "60" },
    templates: { type: "string", default: "invoice-ejs" },
    instances: { type: "string", default: "1" },
    json: { type: "string" },
    top: { type: "string", default: "30" },
  },
  strict: true,
});
// bench-settings parses process.argv itself: hand it only what it knows.
process.argv = [
  ...process.argv.slice(0, 2),
  "--concurrency",
  own.concurrency!,
  "--count",
  own.count!,
  "--templates",
  own.templates!,
  "--rounds",
  "1",
];
const { countFor, TEMPLATES, CONCURRENCY } = await import("./bench-settings");
const { driveClients, onCleanup, servicePdf, startService } = await import("./bench-sides");
const { submissionOf } = await import("./bench-templates");
const { ticksOf } = await import("./bench-cpu-pss");
const { startPostgres } = await import("../tests/support/postgres-server");

const INSTANCES = Number(own.instances);
if (!Number.isInteger(INSTANCES) || INSTANCES < 1) throw new Error("--instances: a whole number ≥ 1");

async function main(): Promise<number> {
  const pg = await startPostgres({ settings: STATEMENT_SETTINGS });
  onCleanup(() => pg.stop());
  const databaseUrl = await pg.createDatabase("reportgen_statements");
  const stats = await statementCounter(databaseUrl);
  onCleanup(() => stats.close());

  const args = ["--database-url", databaseUrl];
  const env: Record<string, string> = {};
  if (INSTANCES > 1) {
    const { startS3 } = await import("../tests/support/moto-server");
    const s3 = await startS3("reportgen-statements");
    onCleanup(() => s3.stop());
    args.push("--storage-url", `s3://${s3.bucket}/statements/`);
    Object.assign(env, s3.directEnv);
  }
  const first = await startService({ args, env });
  const rest = await Promise.all(Array.from({ length: INSTANCES - 1 }, () => startService({ args, env, key: first.key })));
  const cluster = [first, ...rest];
  const cpu = () => {
    const procs = processTable();
    return cluster.reduce((a, s) => a + treeOf(s.proc.pid, procs).reduce((b, pid) => b + ticksOf(procs.get(pid)) * TICK_MS, 0), 0);
  };

  const results: unknown[] = [];
  for (const t of TEMPLATES) {
    const body = submissionOf(t);
    // Warm-up: connections, prepared statements, Chromium.
    await Promise.all(Array.from({ length: 4 }, () => servicePdf(cluster, body, false)));
    for (const c of CONCURRENCY) {
      const n = countFor(t, c);
      await stats.reset();
      const cpu0 = cpu();
      const t0 = performance.now();
      await driveClients(c, n, async () => {
        await servicePdf(cluster, body, false);
      });
      const wall = performance.now() - t0;
      const cpuPer = (cpu() - cpu0) / n;
      const { rows, roundTrips: total, statements } = await stats.read();
      console.log(
        `\n${t.name} c=${c}, ${n} reports through ${INSTANCES} instance(s) in ${(wall / 1000).toFixed(1)} s: ` +
          `${(statements / n).toFixed(2)} statements and ${(total / n).toFixed(2)} round trips per report; instances' CPU ${cpuPer.toFixed(1)} ms per report`,
      );
      for (const r of rows.slice(0, Number(own.top))) {
        console.log(`  ${(r.calls / n).toFixed(2).padStart(6)}  ${r.query.slice(0, 150)}`);
      }
      results.push({
        template: t.name,
        c,
        reports: n,
        instances: INSTANCES,
        statements_per_report: statements / n,
        round_trips_per_report: total / n,
        instances_cpu_ms_per_report: cpuPer,
        by_statement: rows.map((r) => ({ query: r.query, per_report: r.calls / n })),
      });
    }
  }
  if (own.json) writeFileSync(own.json, `${JSON.stringify({ date: new Date().toISOString(), results }, null, 2)}\n`);
  return 0;
}

let code = 1;
try {
  code = await main();
} finally {
  const { cleanup } = await import("./bench-sides");
  await cleanup();
}
process.exit(code);
