// The bench's output: the figures of every measurement (medians over rounds), the table, the targets
// and issue 48's goals (PASS/FAIL, worded by scripts/bench-targets.ts) and the JSON of --json, which is
// also the results file the docs show (docs/benchmark-results.json, rendered by scripts/gen-docs.ts).
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { median, percentile } from "../src/lib/stats";
import { type Kind, peakPss } from "./bench-cpu-pss";
import {
  CONCURRENCY,
  EXTRA_SERVE_ARGS,
  FLOOR_NICE,
  flags,
  isService,
  POLL_MS,
  quick,
  ROUNDS,
  SERVICE_ROOT,
  SIDES,
  type Side,
  TEMPLATES,
  TOP_C,
} from "./bench-settings";
import { eInvoiceGoals, fmt, goals, judge, type RunFigures, tally, type Verdict, verdictLine } from "./bench-targets";
import type { BenchTemplate } from "./bench-templates";

export { fmt };

// ---------------------------------------------------------------------------------------------
// Output

const pad = (s: string | number, n: number) => String(s).padStart(n);
const padR = (s: string | number, n: number) => String(s).padEnd(n);

export function log(msg: string) {
  process.stderr.write(`${msg}\n`);
}

// ---------------------------------------------------------------------------------------------
// Figures

interface Cell {
  rates: number[];
  latencies: number[];
  machine: number[];
  own: Record<Kind, number>[];
}
const cells = new Map<string, Cell>();
const cellKey = (t: string, c: number, s: Side) => `${t}|${c}|${s}`;
export function cell(t: string, c: number, s: Side): Cell {
  let x = cells.get(cellKey(t, c, s));
  if (!x) cells.set(cellKey(t, c, s), (x = { rates: [], latencies: [], machine: [], own: [] }));
  return x;
}
const ownTotal = (o: Record<Kind, number>) => o.server + o.sandbox + o.chromium + o.bench;
/** The service's process tree alone (server with its children, sandboxes, Chromium): what issue 48's costs compare. */
const treeTotal = (o: Record<Kind, number>) => o.server + o.sandbox + o.chromium;
const medianOwn = (c: Cell, k: Kind | "total" | "tree") =>
  median(c.own.map((o) => (k === "total" ? ownTotal(o) : k === "tree" ? treeTotal(o) : o[k])));
const measured = (t: string, c: number, s: Side) => (cells.get(cellKey(t, c, s))?.rates.length ?? 0) > 0;
/** The faster floor's throughput (median over rounds) of one template at c. */
const fasterFloorRate = (t: string, c: number) => Math.max(median(cell(t, c, "floor/shared").rates), median(cell(t, c, "floor/ctx").rates));

/** An argument as a shell needs it typed: --serve-args="--template-timeout 30s" keeps its quotes. */
const shellWord = (a: string) => (!/\s/.test(a) ? a : /^--[\w-]+=/.test(a) ? a.replace(/=(.*)$/s, '="$1"') : `"${a}"`);

/** The command of this run as a user would type it, and the commit it measured (with "+changes" when the tree differs),
 * taken when the bench starts: the code it measures. */
const PROVENANCE = ((): { command: string; commit: string } => {
  const git = (...a: string[]) => spawnSync("git", ["-C", SERVICE_ROOT, ...a], { encoding: "utf8" }).stdout?.trim() ?? "";
  const commit = git("rev-parse", "--short", "HEAD") || "unknown";
  return {
    command: ["bun scripts/bench.ts", ...process.argv.slice(2).map(shellWord)].join(" "),
    commit: git("status", "--porcelain", "--untracked-files=no") ? `${commit}+changes` : commit,
  };
})();

/** Prints the table, the peak PSS and the targets (PASS/FAIL), writes the JSON of --json; returns the exit code. */
export function report(
  tpls: { name: string; t: BenchTemplate }[],
  startedAt: number,
  loadAtStart: number[],
  idlePss: { service: number; floor: number },
  stopSampler: () => void,
  validate?: { file: string; bytes: number; latencies: number[]; treeCpuMs: number[] },
): number {
  // -------------------------------------------------------------------------------------------
  // Report
  const out: string[] = [];
  const targets: Verdict[] = [];
  const target = (name: string, value: number, op: "<=" | ">=", limit: number) => targets.push(judge(name, value, op, limit));
  const json: Record<string, unknown> = {
    ...PROVENANCE,
    date: new Date(startedAt).toISOString(),
    duration_s: Math.round((Date.now() - startedAt) / 1000),
    cores: availableParallelism(),
    loadavg_start: loadAtStart,
    loadavg_end: loadavg(),
    rounds: ROUNDS,
    quick,
    poll_ms: POLL_MS,
    floor_nice: FLOOR_NICE,
    binary: flags.binary,
    serve_args: EXTRA_SERVE_ARGS,
    templates: TEMPLATES.map((t) => t.name),
    concurrency: CONCURRENCY,
    results: [] as unknown[],
  };

  out.push("");
  out.push(
    `reportgen bench ${new Date(startedAt).toISOString().slice(0, 16)}Z: ${ROUNDS} interleaved round(s)${quick ? " (quick)" : ""}, ${availableParallelism()} cores, ` +
      `load average ${loadAtStart.map((x) => x.toFixed(2)).join(" ")} at start, ${loadavg()
        .map((x) => x.toFixed(2))
        .join(" ")} at end`,
  );
  out.push(
    "PDFs/s = median over rounds; ÷floor and ÷tuned = the service's throughput over theirs (floor = the faster of floor/shared and floor/ctx);",
  );
  out.push(
    "CPU = ms of CPU per PDF: machine (/proc/stat, all CPUs) and own (the side's processes: Chromium, or server + sandboxes + Chromium, plus this bench);",
  );
  out.push("cpu÷floor = machine CPU per PDF over the floor's.");
  out.push("");
  const head = `${padR("template", 12)} ${pad("c", 2)} ${padR("side", 13)} ${pad("PDFs/s", 7)} ${pad("÷floor", 6)} ${pad("÷tuned", 6)} ${pad("p50 ms", 7)} ${pad("p95 ms", 7)} ${pad("machine", 7)} ${pad("cpu÷floor", 9)} ${pad("own", 6)}  own: server/sandbox/chromium/bench`;
  out.push(head);
  out.push("-".repeat(head.length));
  for (const tpl of tpls) {
    for (const c of CONCURRENCY) {
      const rate = (s: Side) => median(cell(tpl.name, c, s).rates);
      const floorSide: Side = rate("floor/shared") >= rate("floor/ctx") ? "floor/shared" : "floor/ctx";
      const floorRate = rate(floorSide);
      const tunedRate = rate("tuned");
      const floorCell = cell(tpl.name, c, floorSide);
      const floorMachine = median(floorCell.machine);
      const floorP50 = median(floorCell.latencies);
      for (const side of SIDES) {
        const x = cell(tpl.name, c, side);
        const r = median(x.rates);
        const machine = median(x.machine);
        const name = side === floorSide ? `${side} *` : side;
        out.push(
          `${padR(tpl.name, 12)} ${pad(c, 2)} ${padR(name, 13)} ${pad(fmt(r, 2), 7)} ${pad(fmt(r / floorRate, 2), 6)} ${pad(fmt(r / tunedRate, 2), 6)} ${pad(fmt(median(x.latencies)), 7)} ${pad(fmt(percentile(x.latencies, 0.95)), 7)} ` +
            `${pad(fmt(machine), 7)} ${pad(fmt(machine / floorMachine, 2), 9)} ${pad(fmt(medianOwn(x, "total")), 6)}  ` +
            (isService(side)
              ? `${fmt(medianOwn(x, "server"))}/${fmt(medianOwn(x, "sandbox"))}/${fmt(medianOwn(x, "chromium"))}/${fmt(medianOwn(x, "bench"))}`
              : `-/-/${fmt(medianOwn(x, "chromium"))}/${fmt(medianOwn(x, "bench"))}`),
        );
        (json.results as unknown[]).push({
          template: tpl.name,
          c,
          side,
          is_floor: side === floorSide,
          pdfs_per_s: r,
          per_round: x.rates,
          ratio_to_floor: r / floorRate,
          ratio_to_tuned: r / tunedRate,
          p50_ms: median(x.latencies),
          p95_ms: percentile(x.latencies, 0.95),
          machine_cpu_ms_per_pdf: machine,
          machine_cpu_ratio_to_floor: machine / floorMachine,
          tree_cpu_ms_per_pdf: medianOwn(x, "tree"),
          own_cpu_ms_per_pdf: Object.fromEntries((["server", "sandbox", "chromium", "bench"] as Kind[]).map((k) => [k, medianOwn(x, k)])),
        });
      }
      const wait = cell(tpl.name, c, "wait");
      target(`${tpl.name} c=${c}: long-poll client ÷ floor throughput`, median(wait.rates) / floorRate, ">=", 0.9);
      if (c >= 4)
        target(
          `${tpl.name} c=${c}: ${POLL_MS} ms polling client ÷ floor throughput`,
          median(cell(tpl.name, c, "poll").rates) / floorRate,
          ">=",
          0.85,
        );
      target(`${tpl.name} c=${c}: service (long poll) ÷ floor machine CPU per PDF`, median(wait.machine) / floorMachine, "<=", 1.1);
      if (c === 1)
        target(`${tpl.name} c=1: long-poll p50 (ms) vs floor p50 ${fmt(floorP50)} + 10`, median(wait.latencies), "<=", floorP50 + 10);
      const base = tpl.t.baseline && TEMPLATES.some((x) => x.name === tpl.t.baseline!.name) ? tpl.t.baseline : undefined;
      if (base)
        target(
          `${tpl.name} c=${c}: machine CPU per PDF ÷ ${base.name}'s (long poll, same run)`,
          median(wait.machine) / median(cell(base.name, c, "wait").machine),
          "<=",
          base.maxRatio,
        );
      // The same ratio over the service's own processes (server with its children, such as qpdf, sandboxes,
      // Chromium): unlike machine CPU, other programs on a shared machine do not move it.
      if (base)
        target(
          `${tpl.name} c=${c}: service tree CPU per PDF ÷ ${base.name}'s (long poll, same run)`,
          medianOwn(wait, "tree") / medianOwn(cell(base.name, c, "wait"), "tree"),
          "<=",
          base.maxRatio,
        );
    }
    out.push("");
  }
  stopSampler();
  const mib = (b: number) => `${Math.round(b / 1024 / 1024)} MiB`;
  out.push(
    `Peak PSS: service ${mib(peakPss.service)} (at start ${mib(idlePss.service)}); headless-shell floor ${mib(peakPss.floor)} (at start ${mib(idlePss.floor)}, ${3 * TOP_C} pages); desktop floor ${mib(peakPss.desktop)} (${TOP_C} pages)`,
  );
  json.peak_pss_bytes = peakPss;
  json.start_pss_bytes = idlePss;
  for (const tg of targets) out.push(verdictLine(tg));
  const failed = targets.filter((x) => x.pass === false).length;
  out.push(
    `targets: ${tally(targets)} (run took ${Math.round((Date.now() - startedAt) / 1000)} s; load average now ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")})`,
  );
  // Issue 48's table: the figures this run measured, judged; the others named as not measured.
  const figures: RunFigures = {
    concurrencies: [...CONCURRENCY].sort((a, b) => a - b),
    serviceOverFloor: (t, c) => (measured(t, c, "wait") ? median(cell(t, c, "wait").rates) / fasterFloorRate(t, c) : undefined),
    treeCpuRatio: (t, base, c) =>
      measured(t, c, "wait") && measured(base, c, "wait")
        ? medianOwn(cell(t, c, "wait"), "tree") / medianOwn(cell(base, c, "wait"), "tree")
        : undefined,
    validateP50: validate && median(validate.latencies),
  };
  const goalVerdicts = goals(figures);
  out.push("", "Goals (issue 48):");
  for (const g of goalVerdicts) out.push(verdictLine(g));
  out.push(`goals: ${tally(goalVerdicts)}`);
  // Issue 43's: the e-invoice check's latency (its own line first: p50, p99, CPU) and the readable print's cost.
  const eInvoice = eInvoiceGoals(figures);
  out.push("", "Goals (issue 43, e-invoices):");
  if (validate) {
    const v = {
      file: validate.file,
      bytes: validate.bytes,
      checks: validate.latencies.length,
      p50_ms: median(validate.latencies),
      p99_ms: percentile(validate.latencies, 0.99),
      tree_cpu_ms_per_check: median(validate.treeCpuMs),
    };
    out.push(
      `einvoice-validate c=1: ${v.checks} checks of ${v.file} (${Math.round(v.bytes / 1024)} KB): p50 ${fmt(v.p50_ms)} ms, ` +
        `p99 ${fmt(v.p99_ms)} ms, service tree CPU ${fmt(v.tree_cpu_ms_per_check)} ms per check`,
    );
    json.einvoice_validate = v;
  }
  for (const g of eInvoice) out.push(verdictLine(g));
  out.push(`goals: ${tally(eInvoice)}`);
  json.targets = targets;
  json.goals = [...goalVerdicts, ...eInvoice];
  console.log(out.join("\n"));
  if (flags.json) {
    writeFileSync(flags.json, `${JSON.stringify(json, null, 2)}\n`);
    log(`figures written to ${flags.json}`);
  }
  return flags.check && failed > 0 ? 1 : 0;
}
