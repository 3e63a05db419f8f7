// The bench's cluster mode (--cluster): two instances of the service on one PostgreSQL (a throwaway
// PostgreSQL 15, scripts/lib/postgres-server.ts) and one bucket (moto_server, scripts/lib/moto-server.ts),
// against ONE instance on its defaults (SQLite and the data dir), measured in the same run, interleaved,
// at the same concurrencies, with the same long-poll client. The cluster's clients send each request to
// the next instance in turn, as a round-robin load balancer would: a report is submitted to one
// instance, waited for on the other, rendered by whichever claimed it first, and downloaded through
// either. On a 2-core machine a second instance cannot add throughput (one Chromium already uses both
// cores); what the ratio shows is what the coordination costs: PostgreSQL's round trips and
// notifications, the upload to the bucket and the download from it, long polls woken across instances.
import { writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { machineCpuMs, processTable, TICK_MS, treeOf } from "../src/lib/process-tree";
import { median, percentile } from "../src/lib/stats";
import { ticksOf } from "./bench-cpu-pss";
import { fmt, log } from "./bench-report";
import { CONCURRENCY, countFor, EXTRA_SERVE_ARGS, flags, quick, ROUNDS, TEMPLATES, TOP_C } from "./bench-settings";
import { now, onCleanup, type Printed, type Service, servicePdf, startService } from "./bench-sides";
import type { BenchTemplate } from "./bench-templates";
import { startS3 } from "./lib/moto-server";
import { startPostgres } from "./lib/postgres-server";

/** The target: the cluster's throughput over one SQLite instance's, at this concurrency. */
export const CLUSTER_TARGET = { c: 4, min: 0.9 };

type ClusterSide = "single" | "cluster";
const SIDES: ClusterSide[] = ["single", "cluster"];
/** Whose CPU a side's "own" figure counts: the instances' process trees, PostgreSQL's, moto_server's, this bench's. */
type Part = "instances" | "postgres" | "bucket" | "bench";
const PARTS: Part[] = ["instances", "postgres", "bucket", "bench"];

interface Sides {
  single: Service;
  cluster: Service[];
  postgresPid: () => number | undefined;
  motoPid: number;
  /** The addresses of what the run started (in the JSON: all of them are gone once the bench ends). */
  endpoints: { single: string; cluster: string[]; postgres: string; bucket: string };
}

/** PostgreSQL, moto_server and the bucket, the two cluster instances (one key, in PostgreSQL) and the SQLite instance. */
async function startSides(): Promise<Sides> {
  const [pg, s3] = await Promise.all([startPostgres(), startS3("reportgen-bench")]);
  // Cleanup runs newest first: the instances stop before the database and the bucket they use.
  onCleanup(() => pg.stop());
  onCleanup(() => s3.stop());
  const databaseUrl = await pg.createDatabase("reportgen_bench");
  const args = ["--database-url", databaseUrl, "--storage-url", `s3://${s3.bucket}/bench/`];
  // moto's own address, no proxy: the bench injects no fault, and a proxy would run in this process.
  const a = await startService({ args, env: s3.directEnv });
  const [b, single] = await Promise.all([startService({ args, env: s3.directEnv, key: a.key }), startService()]);
  const endpoints = { single: single.base, cluster: [a.base, b.base], postgres: pg.url, bucket: s3.directEndpoint };
  return { single, cluster: [a, b], postgresPid: pg.pid, motoPid: s3.pid, endpoints };
}

/** CPU ms so far of each part a side uses (a process tree with the children it reaped). */
function partsCpu(side: ClusterSide, s: Sides): Record<Part, number> {
  const procs = processTable();
  const sum = (roots: (number | undefined)[]) =>
    roots.reduce<number>(
      (acc, root) => acc + (root ? treeOf(root, procs).reduce((a, pid) => a + ticksOf(procs.get(pid)) * TICK_MS, 0) : 0),
      0,
    );
  const cluster = side === "cluster";
  return {
    instances: sum(cluster ? s.cluster.map((i) => i.proc.pid) : [s.single.proc.pid]),
    postgres: cluster ? sum([s.postgresPid()]) : 0,
    bucket: cluster ? sum([s.motoPid]) : 0,
    bench: ticksOf(procs.get(process.pid)) * TICK_MS,
  };
}

interface Measurement {
  pdfsPerSec: number;
  latencies: number[];
  machineMsPerPdf: number;
  own: Record<Part, number>;
  pages: number;
}

/** c clients print n PDFs between them on one side, each client starting its next PDF when its last one is done. */
async function measure(side: ClusterSide, c: number, n: number, body: string, s: Sides): Promise<Measurement> {
  const target = side === "cluster" ? s.cluster : s.single;
  const latencies: number[] = [];
  let pages = -1;
  let started = 0;
  const own0 = partsCpu(side, s);
  const m0 = machineCpuMs();
  const t0 = now();
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (started < n) {
        started++;
        const p: Printed = await servicePdf(target, body, false);
        latencies.push(p.ms);
        if (pages >= 0 && p.pages !== pages) throw new Error(`${side}: a PDF of ${p.pages} pages after one of ${pages}`);
        pages = p.pages;
      }
    }),
  );
  const wall = now() - t0;
  const m1 = machineCpuMs();
  const own1 = partsCpu(side, s);
  const own = Object.fromEntries(PARTS.map((k) => [k, (own1[k] - own0[k]) / n])) as Record<Part, number>;
  return { pdfsPerSec: (n * 1000) / wall, latencies, machineMsPerPdf: (m1 - m0) / n, own, pages };
}

interface Cell {
  rates: number[];
  latencies: number[];
  machine: number[];
  own: Record<Part, number>[];
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
  const tpls = TEMPLATES.map((t) => ({ t, body: requestBody(t) }));

  // Warm-up: every page of every instance (fonts, caches, JIT, the database's connections).
  const pagesOf = new Map<string, number>();
  for (const { t, body } of tpls) {
    for (const side of SIDES) {
      const m = await measure(side, TOP_C, Math.min(4 * TOP_C, countFor(t, TOP_C)), body, s);
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
    if (!x) cells.set(k, (x = { rates: [], latencies: [], machine: [], own: [] }));
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
  return clusterReport(tpls, cell, startedAt, loads, rendered, s.endpoints);
}

/** Reports an instance rendered and stored since it started (reportgen_reports_succeeded_total). */
async function renderedBy(i: Service): Promise<number> {
  const text = await (await fetch(`${i.base}/metrics`)).text();
  return Number(/^reportgen_reports_succeeded_total (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}

/** What a client sends for a template (the same body as the main bench's service side). */
function requestBody(t: BenchTemplate): string {
  return JSON.stringify({
    html_template: t.html_template,
    engine: t.engine,
    ...(t.engine === "ejs" ? { data: t.data } : {}),
    ...(t.options ? { options: t.options } : {}),
  });
}

const pad = (v: string | number, n: number) => String(v).padStart(n);
const padR = (v: string | number, n: number) => String(v).padEnd(n);

function clusterReport(
  tpls: { t: BenchTemplate }[],
  cell: (t: string, c: number, side: ClusterSide) => Cell,
  startedAt: number,
  loads: number[][],
  rendered: { single: number; cluster: number[] },
  endpoints: Sides["endpoints"],
): number {
  const out: string[] = [];
  const load1 = loads.map((l) => l[0]!);
  const loadText = `load average (1 min) ${fmt(Math.min(...load1), 2)}–${fmt(Math.max(...load1), 2)} over the run`;
  out.push("");
  out.push(
    `reportgen bench --cluster ${new Date(startedAt).toISOString().slice(0, 16)}Z: ${ROUNDS} interleaved round(s)${quick ? " (quick)" : ""}, ` +
      `${availableParallelism()} cores, ${loadText}`,
  );
  out.push(
    "single = one instance on SQLite and its data dir; cluster = two instances on PostgreSQL + S3 (moto_server), requests round-robin;",
  );
  out.push(
    "both with the long poll (?wait=30). PDFs/s = median over rounds; ÷single = the cluster's throughput over the single instance's;",
  );
  out.push("CPU = ms per PDF: machine (/proc/stat, all CPUs) and own (instances / PostgreSQL / moto_server / this bench).");
  out.push("");
  const head = `${padR("template", 12)} ${pad("c", 2)} ${padR("side", 8)} ${pad("PDFs/s", 7)} ${pad("÷single", 7)} ${pad("p50 ms", 7)} ${pad("p95 ms", 7)} ${pad("machine", 7)} ${pad("cpu÷single", 10)}  own: instances/postgres/bucket/bench`;
  out.push(head);
  out.push("-".repeat(head.length));
  const results: unknown[] = [];
  const targets: { name: string; value: number; limit: number; pass: boolean }[] = [];
  const ownMedian = (x: Cell, k: Part) => median(x.own.map((o) => o[k]));
  const ceilings: unknown[] = [];
  for (const { t } of tpls) {
    for (const c of CONCURRENCY) {
      const single = cell(t.name, c, "single");
      const singleRate = median(single.rates);
      const singleMachine = median(single.machine);
      for (const side of SIDES) {
        const x = cell(t.name, c, side);
        const rate = median(x.rates);
        const machine = median(x.machine);
        out.push(
          `${padR(t.name, 12)} ${pad(c, 2)} ${padR(side, 8)} ${pad(fmt(rate, 2), 7)} ${pad(fmt(rate / singleRate, 2), 7)} ${pad(fmt(median(x.latencies)), 7)} ` +
            `${pad(fmt(percentile(x.latencies, 0.95)), 7)} ${pad(fmt(machine), 7)} ${pad(fmt(machine / singleMachine, 2), 10)}  ` +
            PARTS.map((k) => fmt(ownMedian(x, k))).join("/"),
        );
        results.push({
          template: t.name,
          c,
          side,
          pdfs_per_s: rate,
          per_round: x.rates,
          ratio_to_single: rate / singleRate,
          p50_ms: median(x.latencies),
          p95_ms: percentile(x.latencies, 0.95),
          machine_cpu_ms_per_pdf: machine,
          machine_cpu_ratio_to_single: machine / singleMachine,
          own_cpu_ms_per_pdf: Object.fromEntries(PARTS.map((k) => [k, ownMedian(x, k)])),
        });
      }
      // What the CPU alone allows when every core is busy: the single side's own CPU per PDF over the
      // cluster's, with and without moto_server (a deployment's bucket does that work on other machines).
      const ownSum = (x: Cell, parts: Part[]) => parts.reduce((a, k) => a + ownMedian(x, k), 0);
      const clusterCell = cell(t.name, c, "cluster");
      const ceiling = ownSum(single, ["instances", "bench"]) / ownSum(clusterCell, PARTS);
      const ceilingNoBucket = ownSum(single, ["instances", "bench"]) / ownSum(clusterCell, ["instances", "postgres", "bench"]);
      out.push(
        `${padR("", 12)} ${pad(c, 2)} CPU-bound ceiling of the ratio (own CPU per PDF, single ÷ cluster): ${fmt(ceiling, 2)}; without moto_server's: ${fmt(ceilingNoBucket, 2)}`,
      );
      ceilings.push({ template: t.name, c, own_cpu_ratio: ceiling, own_cpu_ratio_without_bucket: ceilingNoBucket });
      if (c === CLUSTER_TARGET.c) {
        const value = median(cell(t.name, c, "cluster").rates) / singleRate;
        targets.push({
          name: `${t.name} c=${c}: cluster (2 instances, PostgreSQL + S3) ÷ one SQLite instance, throughput`,
          value,
          limit: CLUSTER_TARGET.min,
          pass: value >= CLUSTER_TARGET.min,
        });
      }
    }
    out.push("");
  }
  for (const tg of targets) out.push(`${tg.pass ? "PASS" : "FAIL"}  ${tg.name}: ${fmt(tg.value, 2)} >= ${fmt(tg.limit, 2)}`);
  if (!targets.length) out.push(`(no target: the target is at c = ${CLUSTER_TARGET.c}, not measured in this run)`);
  const failed = targets.filter((x) => !x.pass).length;
  out.push(`${targets.length - failed}/${targets.length} targets met (run took ${Math.round((Date.now() - startedAt) / 1000)} s)`);
  console.log(out.join("\n"));
  if (flags.json) {
    const json = {
      mode: "cluster",
      date: new Date(startedAt).toISOString(),
      duration_s: Math.round((Date.now() - startedAt) / 1000),
      cores: availableParallelism(),
      loadavg_per_round: loads,
      rounds: ROUNDS,
      quick,
      binary: flags.binary,
      serve_args: EXTRA_SERVE_ARGS,
      rendered_by_instance: rendered,
      endpoints,
      results,
      cpu_ceilings: ceilings,
      targets,
    };
    writeFileSync(flags.json, `${JSON.stringify(json, null, 2)}\n`);
    log(`figures written to ${flags.json}`);
  }
  return flags.check && failed > 0 ? 1 : 0;
}
