// The bench's report-100k target (issue 33): one service on its defaults prints the 1000-row report
// several times, one after another, then the same report 100 times longer (100,000 rows, or --rows) as a
// chunked report (options.chunk, --chunk-size rows per chunk, 2500 by default; --no-chunk sends it whole, as before
// chunking). For each big report: wall time, the service's own CPU (server, sandboxes, Chromium, qpdf:
// its whole process tree, with reaped children) and the tree's peak PSS, as ratios to (rows / 1000) x the
// 1000-row report's median in the same run; and pages and PDF size. Targets for 100,000 rows: time
// <= 60 x the 1000-row report's (0.6 x linear), CPU <= 1.1 x linear (issue 48), peak PSS of the whole
// service <= 1.5 GiB (issue 33).
import { availableParallelism, loadavg } from "node:os";
import { memoryOf, processTable, TICK_MS, treeOf } from "../src/lib/process-tree";
import { countPdfPages } from "../src/render/pdf-page-count";
import { ticksOf } from "./bench-cpu-pss";
import { fmt, log } from "./bench-report";
import { flags, usage } from "./bench-settings";
import { type Service, sleep, startService } from "./bench-sides";
import { CHUNKED_REPORT_TEMPLATE, LEDGER_TEMPLATE, ledgerData, REPORT_TEMPLATE, reportData } from "./bench-templates";

const GIB = 1024 ** 3;
const TARGET = { time: 0.6, cpu: 1.1, pssBytes: 1.5 * GIB };

/** The service tree's CPU ms so far (with the children it reaped: qpdf, Chromium's utility processes). */
function treeCpuMs(root: number): number {
  const procs = processTable();
  return treeOf(root, procs).reduce((a, pid) => a + ticksOf(procs.get(pid)) * TICK_MS, 0);
}

/** Samples the tree's PSS whenever its resident size passes its highest so far (see bench-cpu-pss.ts). */
function pssPeak(root: number): { stop: () => number } {
  let highestRss = 0;
  let peak = 0;
  const sample = () => {
    const table = processTable();
    const pids = treeOf(root, table);
    const rss = pids.reduce((a, pid) => a + (table.get(pid)?.rssPages ?? 0), 0);
    if (rss <= highestRss) return;
    highestRss = rss;
    peak = Math.max(
      peak,
      pids.reduce((a, pid) => a + (memoryOf(pid)?.pss ?? 0), 0),
    );
  };
  sample();
  const timer = setInterval(sample, 250);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

interface Run {
  ms: number;
  cpuMs: number;
  pss: number;
  pages: number;
  bytes: number;
  error?: string;
}

/** One report through the service: POST, poll its status, then its PDF through the signed link. */
async function oneReport(svc: Service, body: string): Promise<Run> {
  const pid = svc.proc.pid;
  const pss = pssPeak(pid);
  const cpu0 = treeCpuMs(pid);
  const t0 = performance.now();
  const headers = { "x-api-key": svc.key, "content-type": "application/json" };
  const r = await fetch(`${svc.base}/api/v1/generate-pdf-async`, { method: "POST", headers, body });
  const answer = (await r.json()) as { report_id?: string };
  if (r.status !== 202 || !answer.report_id) throw new Error(`POST answered ${r.status}: ${JSON.stringify(answer).slice(0, 500)}`);
  let status: { status: string; error?: { code: string; message: string } };
  for (;;) {
    const g = await fetch(`${svc.base}/api/v1/reports/${answer.report_id}`, { headers });
    status = ((await g.json()) as { data: typeof status }).data;
    if (status.status !== "queued" && status.status !== "processing") break;
    await sleep(50);
  }
  let pages = 0;
  let bytes = 0;
  if (status.status === "succeeded") {
    const d = await fetch(`${svc.base}/api/v1/reports/${answer.report_id}/download`, { headers });
    const link = new URL(((await d.json()) as { data: string }).data, svc.base);
    const pdf = new Uint8Array(await (await fetch(`${svc.base}${link.pathname}${link.search}`)).arrayBuffer());
    pages = countPdfPages(pdf);
    bytes = pdf.length;
  }
  const ms = performance.now() - t0;
  return {
    ms,
    cpuMs: treeCpuMs(pid) - cpu0,
    pss: pss.stop(),
    pages,
    bytes,
    ...(status.error && { error: `${status.error.code}: ${status.error.message}` }),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mib = (b: number) => `${fmt(b / 1024 ** 2, 0)} MiB`;

export async function runBig(): Promise<number> {
  const rowsList = (flags.rows ?? "100000").split(",").map(Number);
  const size = Number(flags["chunk-size"] ?? 2500);
  if (rowsList.some((n) => !Number.isInteger(n) || n < 1000) || !Number.isInteger(size)) usage("bad --rows or --chunk-size");
  const chunked = !flags["no-chunk"];
  log(
    `reportgen bench report-100k: rows ${rowsList.join(", ")}, ${chunked ? `chunks of ${size}` : "NOT chunked"}; ` +
      `${availableParallelism()} cores, load ${loadavg()
        .map((x) => x.toFixed(2))
        .join(" ")}`,
  );
  // --ledger: the outside benchmark's ledger (one template for the small report and every chunk).
  const ledger = Boolean(flags.ledger);
  const svc = await startService();
  const small = JSON.stringify({
    html_template: ledger ? LEDGER_TEMPLATE : REPORT_TEMPLATE,
    engine: "ejs",
    data: (ledger ? ledgerData : reportData)(1000),
  });
  await oneReport(svc, small); // warm-up
  const base: Run[] = [];
  for (let i = 0; i < (flags.quick ? 3 : 7); i++) base.push(await oneReport(svc, small));
  const t1000 = { ms: median(base.map((r) => r.ms)), cpuMs: median(base.map((r) => r.cpuMs)), pss: Math.max(...base.map((r) => r.pss)) };
  log(
    `report-1000: ${fmt(t1000.ms, 0)} ms, CPU ${fmt(t1000.cpuMs, 0)} ms, peak PSS ${mib(t1000.pss)}, ${base[0]!.pages} pages (median of ${base.length})`,
  );
  let ok = true;
  for (const rows of rowsList) {
    const data = (ledger ? ledgerData : reportData)(rows);
    if (!ledger) {
      const lines = data.rows as { qty: number; price: number }[];
      Object.assign(data, { total_rows: rows, grand_total: lines.reduce((a, r) => a + r.qty * r.price, 0) });
    }
    const body = JSON.stringify({
      html_template: ledger ? LEDGER_TEMPLATE : chunked ? CHUNKED_REPORT_TEMPLATE : REPORT_TEMPLATE,
      engine: "ejs",
      data,
      // Numbered across the whole (options.page_numbers, a pass over the joined PDF): part of what a big report costs.
      ...(chunked && { options: { chunk: { array: "rows", size }, page_numbers: {} } }),
    });
    const r = await oneReport(svc, body);
    const linear = rows / 1000;
    const line =
      `report-${rows / 1000}k${chunked ? "" : " (whole)"}: ${r.error ? `FAILED ${r.error.slice(0, 160)}, ` : ""}` +
      `${fmt(r.ms / 1000, 1)} s = ${fmt(r.ms / (linear * t1000.ms), 2)} x linear; CPU ${fmt(r.cpuMs / 1000, 1)} s = ${fmt(r.cpuMs / (linear * t1000.cpuMs), 2)} x linear; ` +
      `peak PSS ${mib(r.pss)} (${fmt(r.pss / t1000.pss, 1)} x the 1000-row report's); ${r.pages} pages, ${mib(r.bytes)}; load ${loadavg()[0]!.toFixed(2)}`;
    log(line);
    if (rows === 100_000) {
      const checks: [boolean, string][] = [
        [
          !r.error && r.ms <= TARGET.time * linear * t1000.ms,
          `time <= ${TARGET.time * linear} x report-1000 (${fmt(r.ms / t1000.ms, 0)} x)`,
        ],
        [
          !r.error && r.cpuMs <= TARGET.cpu * linear * t1000.cpuMs,
          `CPU <= ${TARGET.cpu} x linear (${fmt(r.cpuMs / (linear * t1000.cpuMs), 2)} x)`,
        ],
        [r.pss <= TARGET.pssBytes, `peak PSS <= 1.5 GiB (${mib(r.pss)})`],
      ];
      for (const [pass, what] of checks) log(`${pass ? "PASS" : "FAIL"} report-100k: ${what}`);
      ok &&= checks.every(([pass]) => pass);
    }
  }
  return ok || !flags.check ? 0 : 1;
}
