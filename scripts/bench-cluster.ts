// The bench's cluster mode (--cluster): two instances of the service on one PostgreSQL (a throwaway
// PostgreSQL 15, tests/support/postgres-server.ts) and one bucket (moto_server, tests/support/moto-server.ts),
// against ONE instance on its defaults (SQLite and the data dir), measured in the same run, interleaved,
// at the same concurrencies, with the same long-poll client. The cluster's clients send each request to
// the next instance in turn, as a round-robin load balancer would: a report is submitted to one
// instance, waited for on the other, rendered by whichever claimed it first, and downloaded through
// either. On a 2-core machine a second instance cannot add throughput (one Chromium already uses both
// cores); what the ratio shows is what the coordination costs: PostgreSQL's round trips and
// notifications, the upload to the bucket and the download from it, long polls woken across instances.
// So each cluster measurement also counts, outside its CPU window: PostgreSQL's statements (the server
// runs pg_stat_statements, reset before and read after: scripts/lib/pg-statements.ts) and the bucket's
// requests and bytes (each instance's /metrics, reportgen_bucket_*_total, read before and after).
// scripts/bench-cluster-report.ts prints the figures and the targets.
import { availableParallelism, loadavg } from "node:os";
import { commandLine, machineCpuMs, processTable, TICK_MS, treeOf } from "../src/lib/process-tree";
import { startS3 } from "../tests/support/moto-server";
import { startPostgres } from "../tests/support/postgres-server";
import {
  type Cell,
  type ClusterSide,
  type Coordination,
  clusterReport,
  PARTS,
  type Part,
  PROC_KINDS,
  type ProcKind,
  SIDES,
} from "./bench-cluster-report";
import { ticksOf } from "./bench-cpu-pss";
import { fmt, log } from "./bench-report";
import { CONCURRENCY, countFor, EXTRA_SERVE_ARGS, flags, quick, ROUNDS, TEMPLATES, TOP_C } from "./bench-settings";
import { driveClients, now, onCleanup, type Printed, type Service, servicePdf, startService } from "./bench-sides";
import { type Submission, submissionOf } from "./bench-templates";
import { STATEMENT_SETTINGS, type StatementCounter, statementCounter } from "./lib/pg-statements";

interface Sides {
  single: Service;
  cluster: Service[];
  postgresPid: () => number | undefined;
  motoPid: number;
  statements: StatementCounter;
  /** The addresses of what the run started (in the JSON: all of them are gone once the bench ends). */
  endpoints: { single: string; cluster: string[]; postgres: string; bucket: string };
}

/** PostgreSQL, moto_server and the bucket, the two cluster instances (one key, in PostgreSQL) and the SQLite instance. */
async function startSides(): Promise<Sides> {
  const [pg, s3] = await Promise.all([startPostgres({ settings: STATEMENT_SETTINGS }), startS3("reportgen-bench")]);
  // Cleanup runs newest first: the instances stop before the database and the bucket they use.
  onCleanup(() => pg.stop());
  onCleanup(() => s3.stop());
  const databaseUrl = await pg.createDatabase("reportgen_bench");
  const statements = await statementCounter(databaseUrl);
  onCleanup(() => statements.close());
  const args = ["--database-url", databaseUrl, "--storage-url", `s3://${s3.bucket}/bench/`];
  // moto's own address, no proxy: the bench injects no fault, and a proxy would run in this process.
  const a = await startService({ args, env: s3.directEnv });
  const [b, single] = await Promise.all([startService({ args, env: s3.directEnv, key: a.key }), startService()]);
  const endpoints = { single: single.base, cluster: [a.base, b.base], postgres: pg.url, bucket: s3.directEndpoint };
  return { single, cluster: [a, b], postgresPid: pg.pid, motoPid: s3.pid, statements, endpoints };
}

/** A process of an instance's tree: the server itself (with the children it reaped), its Chromium, an EJS sandbox, or another (qpdf). */
export function kindOf(pid: number, root: number): ProcKind {
  if (pid === root) return "server";
  let kind = kinds.get(pid);
  if (!kind) {
    const cmd = commandLine(pid);
    kind = /chrom/i.test(cmd) ? "chromium" : cmd.includes("sandbox-child") ? "sandbox" : "other";
    kinds.set(pid, kind);
  }
  return kind;
}
const kinds = new Map<number, ProcKind>();

/** CPU ms so far of each part a side uses (a process tree with the children it reaped), and of the instances' processes by kind. */
function partsCpu(side: ClusterSide, s: Sides): { parts: Record<Part, number>; procs: Record<ProcKind, number> } {
  const procs = processTable();
  const byKind: Record<ProcKind, number> = { server: 0, chromium: 0, sandbox: 0, other: 0 };
  const sum = (roots: (number | undefined)[], split = false) =>
    roots.reduce<number>((acc, root) => {
      if (!root) return acc;
      return (
        acc +
        treeOf(root, procs).reduce((a, pid) => {
          const ms = ticksOf(procs.get(pid)) * TICK_MS;
          if (split) byKind[kindOf(pid, root)] += ms;
          return a + ms;
        }, 0)
      );
    }, 0);
  const cluster = side === "cluster";
  const parts = {
    instances: sum(cluster ? s.cluster.map((i) => i.proc.pid) : [s.single.proc.pid], true),
    postgres: cluster ? sum([s.postgresPid()]) : 0,
    bucket: cluster ? sum([s.motoPid]) : 0,
    bench: ticksOf(procs.get(process.pid)) * TICK_MS,
  };
  return { parts, procs: byKind };
}

interface Measurement {
  pdfsPerSec: number;
  latencies: number[];
  machineMsPerPdf: number;
  own: Record<Part, number>;
  /** The instances' own CPU per PDF by process kind. */
  procs: Record<ProcKind, number>;
  pages: number;
  /** The cluster's only. */
  coordination?: Coordination;
}

type Traffic = { requests: number; sent: number; received: number };

/** The bucket's traffic so far, summed over the instances' /metrics (every kind: PDFs and asset blobs). */
async function bucketTraffic(instances: Service[]): Promise<Traffic> {
  const total: Traffic = { requests: 0, sent: 0, received: 0 };
  for (const i of instances) {
    const text = await (await fetch(`${i.base}/metrics`)).text();
    const sum = (name: string) =>
      [...text.matchAll(new RegExp(`^reportgen_bucket_${name}_total\\{[^}]*\\} (\\d+)$`, "gm"))].reduce((a, m) => a + Number(m[1]), 0);
    total.requests += sum("requests");
    total.sent += sum("sent_bytes");
    total.received += sum("received_bytes");
  }
  return total;
}

/** c clients print n PDFs between them on one side, each client starting its next PDF when its last one is done. */
async function measure(side: ClusterSide, c: number, n: number, body: Submission, s: Sides): Promise<Measurement> {
  const target = side === "cluster" ? s.cluster : s.single;
  const latencies: number[] = [];
  let pages = -1;
  // The counters are read outside the CPU window: reading them costs PostgreSQL and the instances a little.
  const cluster = side === "cluster";
  if (cluster) await s.statements.reset();
  const traffic0 = cluster ? await bucketTraffic(s.cluster) : undefined;
  const own0 = partsCpu(side, s);
  const m0 = machineCpuMs();
  const t0 = now();
  await driveClients(c, n, async () => {
    const p: Printed = await servicePdf(target, body, false);
    latencies.push(p.ms);
    if (pages >= 0 && p.pages !== pages) throw new Error(`${side}: a PDF of ${p.pages} pages after one of ${pages}`);
    pages = p.pages;
  });
  const wall = now() - t0;
  const m1 = machineCpuMs();
  const own1 = partsCpu(side, s);
  const own = Object.fromEntries(PARTS.map((k) => [k, (own1.parts[k] - own0.parts[k]) / n])) as Record<Part, number>;
  const procs = Object.fromEntries(PROC_KINDS.map((k) => [k, (own1.procs[k] - own0.procs[k]) / n])) as Record<ProcKind, number>;
  let coordination: Coordination | undefined;
  if (traffic0) {
    const counts = await s.statements.read();
    const traffic1 = await bucketTraffic(s.cluster);
    coordination = {
      statements: counts.statements / n,
      roundTrips: counts.roundTrips / n,
      bucketRequests: (traffic1.requests - traffic0.requests) / n,
      bucketSentBytes: (traffic1.sent - traffic0.sent) / n,
      bucketReceivedBytes: (traffic1.received - traffic0.received) / n,
      rows: counts.rows,
      reports: n,
    };
  }
  return { pdfsPerSec: (n * 1000) / wall, latencies, machineMsPerPdf: (m1 - m0) / n, own, procs, pages, coordination };
}

/** The cluster mode's run: start everything, warm up, interleaved rounds, then the table and the target. Returns the exit code. */
export async function runCluster(): Promise<number> {
  const startedAt = Date.now();
  const loads: number[][] = [loadavg()];
  log(
    `reportgen bench --cluster: ${ROUNDS} round(s)${quick ? " (quick)" : ""}, templates ${TEMPLATES.map((t) => t.name).join(", ")}, ` +
      `c = ${CONCURRENCY.join(", ")}; ${availableParallelism()} cores, load ${loads[0]!.map((x) => x.toFixed(2)).join(" ")}`,
  );
  const s = await startSides();
  log(
    `up: one instance on SQLite at ${s.single.base}; two on PostgreSQL + moto_server at ${s.cluster.map((i) => i.base).join(" and ")}` +
      `${flags.binary ? " (compiled binary)" : ""}${EXTRA_SERVE_ARGS.length ? `, serve ${EXTRA_SERVE_ARGS.join(" ")}` : ""}`,
  );
  const tpls = TEMPLATES.map((t) => ({ t, body: submissionOf(t) }));

  // Warm-up: every page of every instance (fonts, caches, the database's connections) and a full cell's
  // reports per side, so that JIT compilation is mostly done before the rounds: each cluster instance
  // compiles the same code as the single one, on half the reports (with 16 per side, the cluster's
  // JIT threads still took ~1.7 ms per report in the first round, the single's ~0.9).
  const pagesOf = new Map<string, number>();
  for (const { t, body } of tpls) {
    for (const side of SIDES) {
      const m = await measure(side, TOP_C, countFor(t, TOP_C), body, s);
      const want = pagesOf.get(t.name);
      if (want !== undefined && want !== m.pages) throw new Error(`${t.name}: ${side} printed ${m.pages} pages, the other ${want}`);
      pagesOf.set(t.name, m.pages);
    }
    log(`warm-up ${t.name}: ${pagesOf.get(t.name)} page(s) on both sides`);
  }

  const cells = new Map<string, Cell>();
  const cell = (t: string, c: number, side: ClusterSide) => {
    const k = `${t}|${c}|${side}`;
    let x = cells.get(k);
    if (!x) cells.set(k, (x = { rates: [], latencies: [], machine: [], own: [], procs: [], coordination: [] }));
    return x;
  };
  let turn = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    loads.push(loadavg());
    log(`-- round ${round}/${ROUNDS} (${Math.round((Date.now() - startedAt) / 1000)} s, load ${loadavg()[0]!.toFixed(2)})`);
    for (const { t, body } of tpls) {
      for (const c of CONCURRENCY) {
        // Alternate which side goes first, so that neither always runs on the other's leftovers.
        const order = turn++ % 2 === 0 ? SIDES : [...SIDES].reverse();
        const line: string[] = [];
        for (const side of order) {
          const m = await measure(side, c, countFor(t, c), body, s);
          if (m.pages !== pagesOf.get(t.name))
            throw new Error(`${t.name}: ${side} printed ${m.pages} pages, expected ${pagesOf.get(t.name)}`);
          const x = cell(t.name, c, side);
          x.rates.push(m.pdfsPerSec);
          x.latencies.push(...m.latencies);
          x.machine.push(m.machineMsPerPdf);
          x.own.push(m.own);
          x.procs.push(m.procs);
          if (m.coordination) x.coordination.push(m.coordination);
          line.push(`${side} ${fmt(m.pdfsPerSec, 2)}/s`);
        }
        if (flags.verbose) log(`  ${t.name} c=${c}: ${line.join(" | ")}`);
      }
    }
  }
  loads.push(loadavg());
  // Where the reports were rendered: each instance's own counter (its /metrics).
  const rendered = {
    single: await renderedBy(s.single),
    cluster: await Promise.all(s.cluster.map(renderedBy)),
  };
  log(`reports rendered: single ${rendered.single}; cluster ${rendered.cluster.join(" + ")} (instance A + B)`);
  return clusterReport({ tpls, cell, startedAt, loads, rendered, endpoints: s.endpoints });
}

/** Reports an instance rendered and stored since it started (reportgen_reports_succeeded_total). */
async function renderedBy(i: Service): Promise<number> {
  const text = await (await fetch(`${i.base}/metrics`)).text();
  return Number(/^reportgen_reports_succeeded_total (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}
