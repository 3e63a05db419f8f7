#!/usr/bin/env bun
// reportgen benchmark: the service against Chromium's honest floor, in ONE interleaved run.
//
// Usage:  bun run bench [flags]          (= bun scripts/bench.ts [flags])
//
//   --quick            2 rounds of fewer PDFs (about 4 minutes on 2 cores)
//   --rounds N         rounds (default 5; --quick: 2)
//   --concurrency LIST client concurrencies (default 1,2,4,8)
//   --templates LIST   comma list of invoice-ejs, invoice-raw, invoice-protected, report-1000 (default invoice-ejs,report-1000)
//   --poll-ms N        interval of the polling client (default 50)
//   --floor-nice N     nice value of the floor's Chromium (default 10, the service's --render-nice default)
//   --binary           run the compiled dist/reportgen instead of `bun src/main.ts`
//   --service-root DIR run DIR/src/main.ts (another checkout, for A/B runs) instead of this one
//   --serve-args="..." extra flags for `serve`, e.g. --serve-args="--render-pages 4"
//   --json FILE        also write every figure as JSON
//   --check            exit 1 when a target fails (otherwise exit 0: it is a measurement)
//   --verbose          print every measurement as it is taken
//
// Every measurement: c clients print N PDFs of one template between them, each client starting its next
// PDF when its last one is done; throughput = N / wall time; latency = one PDF, start to last byte.
// Machine CPU per PDF is read from /proc/stat over the same window (all CPUs: user + nice + system +
// irq + softirq + steal) and divided by N; "own" CPU per PDF counts only the processes of the side
// measured (its Chromium or the service's process tree, plus this bench process, with the children they
// reaped, such as Chromium's PrintCompositor process of each print), which other programs on the machine
// do not disturb.
//
// Sides, at each concurrency c:
//   floor/shared  playwright-core on ONE warm Chromium (the service's default binary, Debian's
//                 chromium-headless-shell, or $REPORTGEN_CHROMIUM_PATH; the service's launch flags, fontconfig
//                 file and user agent), c reused
//                 pages in ONE browser context: page.setContent(html, load) + page.pdf with the
//                 service's default print options. The HTML is the service's final HTML (with its print
//                 defaults stylesheet), rendered here with the `ejs` package before the clock starts (the
//                 sandbox runs that same library).
//   floor/ctx     the same with one browser context per page.
//   floor         whichever of the two prints faster (median over rounds): the honest floor.
//   floor/desktop floor/shared on desktop Chromium (/usr/lib/chromium/chromium, or $BENCH_DESKTOP_CHROMIUM),
//                 for comparison: it starts a PrintCompositor process for every print.
//   tuned         every trick the service uses, on c pages of one context: the document is loaded with
//                 CDP Page.setDocumentContent + the page's load event, script execution is off, the
//                 page's screen is 10x10 (nothing is rastered for display), the document has no
//                 screen layout (withPrintDefaults(html, true)), and the PDF comes back inline in the
//                 answer to Page.printToPDF (printToPdf). The real limit of this Chromium.
//   wait          the service end to end over HTTP, each client looping POST /api/v1/generate-pdf-async
//                 -> GET /api/v1/reports/{id}/download?wait=30 (the documented long poll) -> GET the
//                 signed link, reading every byte.
//   poll          the same, but the client polls GET .../download every --poll-ms ms.
// The floors run on one Chromium of their own, reniced like the service's (--render-nice), so other load
// on the machine slows both sides alike. Rounds interleave every side for every template and c, in an
// order that rotates from round to round; figures are medians over rounds (latency: pooled samples).
//
// The service runs as a child process on default settings except --port and --data-dir (its request
// rate limits are off by default); its log goes to a file in its temporary data dir.
//
// Peak PSS (/proc/PID/smaps_rollup, sampled every 250 ms over the whole run) is reported for the service's
// process tree and for each floor Chromium's (the headless-shell floor holds 3 x max c pages: shared,
// per-context and tuned; the desktop floor max c).
//
// Targets (PASS/FAIL lines): wait/floor >= 0.90 at every c; poll/floor >= 0.85 at c >= 4; the service's
// machine CPU per PDF <= 1.10 x the floor's (wait client); wait p50 at c=1 <= floor p50 + 10 ms.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, setPriority, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Subprocess } from "bun";
import ejs from "ejs";
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from "playwright-core";
import { settings } from "../src/config/settings";
import { freePort } from "../src/lib/ports";
import { commandLine, machineCpuMs, memoryOf, type ProcInfo, processTable, TICK_MS, threadIds, treeOf } from "../src/lib/process-tree";
import { median, percentile } from "../src/lib/stats";
import { IGNORED_DEFAULT_ARGS, launchArgs } from "../src/render/browser";
import { writeFontconfig } from "../src/render/fonts";
import { PRINT_ONLY_VIEWPORT } from "../src/render/page-slots";
import { defaultPdfOptions } from "../src/render/pdf-options";
import { userAgentFor, withPrintDefaults } from "../src/render/print-page";
import { countPdfPages } from "../src/render/print-pipeline";
import { printParameters, printToPdf } from "../src/render/print-to-pdf";
import { type BenchTemplate, benchTemplates } from "./bench-templates";

// ---------------------------------------------------------------------------------------------
// Settings

const ROOT = resolve(import.meta.dir, "..");
const CHROMIUM = process.env.REPORTGEN_CHROMIUM_PATH || settings.chromiumPath.default;
const DESKTOP_CHROMIUM = process.env.BENCH_DESKTOP_CHROMIUM || "/usr/lib/chromium/chromium";
/** Exactly the service's launch flags (src/render/browser.ts). */
const LAUNCH_ARGS = launchArgs();
/** The service's default print options (src/render/pdf-options.ts) in page.pdf()'s terms, for the floors. */
const PDF_OPTIONS = {
  format: "A4",
  landscape: false,
  printBackground: true,
  scale: 1,
  margin: { top: "0", right: "0", bottom: "0", left: "0" },
  preferCSSPageSize: true,
} as const;

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    quick: { type: "boolean", default: false },
    rounds: { type: "string" },
    concurrency: { type: "string", default: "1,2,4,8" },
    templates: { type: "string" },
    "poll-ms": { type: "string", default: "50" },
    "floor-nice": { type: "string", default: "10" },
    binary: { type: "boolean", default: false },
    "service-root": { type: "string" },
    "serve-args": { type: "string" },
    json: { type: "string" },
    check: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});

if (flags.help) {
  const lines = readFileSync(import.meta.path, "utf8")
    .split("\n")
    .slice(1);
  console.log(
    lines
      .slice(
        0,
        lines.findIndex((l) => !l.startsWith("//")),
      )
      .map((l) => l.slice(3))
      .join("\n"),
  );
  process.exit(0);
}

const quick = flags.quick!;
const SERVICE_ROOT = resolve(flags["service-root"] ?? ROOT);
const EXTRA_SERVE_ARGS = flags["serve-args"]?.split(/\s+/).filter(Boolean) ?? [];
const ROUNDS = Number(flags.rounds ?? (quick ? 2 : 5));
const CONCURRENCY = flags.concurrency!.split(",").map(Number);
const POLL_MS = Number(flags["poll-ms"]);
const FLOOR_NICE = Number(flags["floor-nice"]);
const WAIT_S = 30;
const TOP_C = Math.max(...CONCURRENCY);
for (const [name, v, min] of [
  ["rounds", ROUNDS, 1],
  ["poll-ms", POLL_MS, 1],
  ["floor-nice", FLOOR_NICE, 0],
  ...CONCURRENCY.map((c) => ["concurrency", c, 1] as const),
] as const) {
  if (!Number.isInteger(v) || v < min) usage(`bad --${name} value`);
}
const allTemplates = benchTemplates();
const TEMPLATES = flags.templates
  ? flags.templates
      .split(",")
      .map(
        (n) => allTemplates.find((t) => t.name === n) ?? usage(`unknown template ${n}; use ${allTemplates.map((t) => t.name).join(", ")}`),
      )
  : allTemplates.filter((t) => t.byDefault);
/** PDFs per measurement: at least 2 per client, so every client starts a PDF while the others print. */
const countFor = (t: BenchTemplate, c: number) => Math.max(quick ? t.quickCount : t.count, 2 * c);

type Side = "floor/shared" | "floor/ctx" | "floor/desktop" | "tuned" | "wait" | "poll";
const SIDES: Side[] = ["floor/shared", "floor/ctx", "floor/desktop", "tuned", "wait", "poll"];
const isService = (s: Side) => s === "wait" || s === "poll";

function usage(msg: string): never {
  console.error(`bench: ${msg} (bun scripts/bench.ts --help)`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// Small helpers

const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Pages of a PDF the bench received, counted as the service counts them; refuses what is not a PDF. */
function pdfPages(bytes: Uint8Array, what: string): number {
  if (Buffer.from(bytes.subarray(0, 5)).toString("latin1") !== "%PDF-") throw new Error(`${what}: not a PDF (${bytes.length} bytes)`);
  return countPdfPages(bytes);
}

const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");
const pad = (s: string | number, n: number) => String(s).padStart(n);
const padR = (s: string | number, n: number) => String(s).padEnd(n);

function log(msg: string) {
  process.stderr.write(`${msg}\n`);
}

// ---------------------------------------------------------------------------------------------
// CPU accounting from /proc

/**
 * A process's CPU so far, in ticks: its own (utime + stime) plus that of children that exited and were
 * waited for. Chromium starts a PrintCompositor utility process for every print (forked by its zygote,
 * gone ~0.1 s later): ~75 ms of CPU per invoice on this machine, more than the rest of Chromium, and
 * counted only in its parent's children's time.
 */
const ticksOf = (p: ProcInfo | undefined) => (p ? p.cpu + p.childrenCpu : 0);

type Kind = "server" | "sandbox" | "chromium" | "bench";
const kindCache = new Map<number, Kind>();
function kindOf(pid: number, serverPid: number, procs: Map<number, ProcInfo>): Kind {
  if (pid === process.pid) return "bench";
  if (pid === serverPid) return "server";
  let k = kindCache.get(pid);
  if (k) return k;
  const cmd = commandLine(pid);
  // A process that has just exited (a print's PrintCompositor) has no command line left: it is of its
  // parent's kind. Counted as a sandbox, its CPU would move to Chromium when reaped, and the sandbox
  // column would go negative.
  if (!cmd) {
    const ppid = procs.get(pid)?.ppid;
    return ppid && procs.has(ppid) ? kindOf(ppid, serverPid, procs) : "sandbox";
  }
  k = /chrom/i.test(cmd) ? "chromium" : "sandbox";
  kindCache.set(pid, k);
  return k;
}

/** CPU ms so far of the processes one side uses, by kind: the service's tree or the floor's Chromium, plus this process. */
function ownCpu(side: Side, serverPid: number): Record<Kind, number> {
  const procs = processTable();
  const service = new Set(treeOf(serverPid, procs));
  const pids = isService(side) ? [...service, process.pid] : treeOf(process.pid, procs).filter((p) => !service.has(p));
  const out: Record<Kind, number> = { server: 0, sandbox: 0, chromium: 0, bench: 0 };
  for (const pid of pids) out[kindOf(pid, serverPid, procs)] += ticksOf(procs.get(pid)) * TICK_MS;
  return out;
}

/** Gives every thread of every process under `root` the nice value `nice` (children forked later inherit it). */
function renice(root: number, nice: number, exclude: Set<number>) {
  for (const pid of treeOf(root)) {
    if (pid === process.pid || exclude.has(pid)) continue;
    for (const tid of threadIds(pid)) {
      try {
        setPriority(tid, nice);
      } catch {}
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The service as a child process

interface Service {
  proc: Subprocess;
  base: string;
  key: string;
}

const cleanupTasks: (() => unknown)[] = [];

function serviceCommand(): string[] {
  if (flags.binary) {
    const bin = join(ROOT, "dist", "reportgen");
    if (!existsSync(bin)) usage(`--binary: ${bin} does not exist (run bun run build first)`);
    return [bin];
  }
  return [process.execPath, join(SERVICE_ROOT, "src", "main.ts")];
}

async function startService(): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), "reportgen-bench-"));
  cleanupTasks.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const cmd = serviceCommand();
  const keyProc = Bun.spawnSync([...cmd, "admin", "create-key", "--name", "bench", "--data-dir", dataDir], {
    cwd: SERVICE_ROOT,
    stderr: "pipe",
  });
  const key = keyProc.stdout.toString().trim();
  if (keyProc.exitCode !== 0 || !key) throw new Error(`admin create-key failed (${keyProc.exitCode}): ${keyProc.stderr.toString()}`);
  const port = await freePort();
  const logFile = join(dataDir, "service.log");
  const proc = Bun.spawn([...cmd, "serve", "--data-dir", dataDir, "--port", String(port), "--host", "127.0.0.1", ...EXTRA_SERVE_ARGS], {
    cwd: SERVICE_ROOT,
    stdin: "ignore",
    stdout: Bun.file(logFile),
    stderr: Bun.file(logFile),
  });
  cleanupTasks.push(() => stopService(proc));
  // However this process ends, the service does not outlive it.
  process.on("exit", () => proc.exitCode === null && proc.kill("SIGKILL"));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  const lastLog = () => (existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-3000) : "");
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the service exited with ${proc.exitCode} during start-up:\n${lastLog()}`);
    try {
      const r = await fetch(`${base}/healthz`);
      await r.arrayBuffer();
      if (r.status === 200) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`the service did not become healthy within 60 s:\n${lastLog()}`);
    await sleep(100);
  }
  return { proc, base, key };
}

async function stopService(proc: Subprocess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill("SIGTERM");
  if (!(await Promise.race([proc.exited.then(() => true), sleep(10_000).then(() => false)]))) {
    proc.kill("SIGKILL");
    await proc.exited;
  }
}

// ---------------------------------------------------------------------------------------------
// One PDF, per side

interface Printed {
  ms: number;
  pages: number;
}

async function servicePdf(svc: Service, body: string, poll: boolean): Promise<Printed> {
  const t0 = now();
  const r = await fetch(`${svc.base}/api/v1/generate-pdf-async`, {
    method: "POST",
    headers: { "x-api-key": svc.key, "content-type": "application/json" },
    body,
  });
  const answer = (await r.json()) as { report_id?: string };
  if (r.status !== 202 || !answer.report_id) throw new Error(`POST generate-pdf-async answered ${r.status}: ${JSON.stringify(answer)}`);
  const url = `${svc.base}/api/v1/reports/${answer.report_id}/download${poll ? "" : `?wait=${WAIT_S}`}`;
  let link: string;
  for (;;) {
    if (poll) await sleep(POLL_MS);
    const d = await fetch(url, { headers: { "x-api-key": svc.key } });
    if (d.status === 202) {
      await d.arrayBuffer();
      continue;
    }
    const j = (await d.json()) as { data?: string };
    if (d.status !== 200 || typeof j.data !== "string")
      throw new Error(`download of ${answer.report_id} answered ${d.status}: ${JSON.stringify(j)}`);
    link = j.data;
    break;
  }
  const f = await fetch(link);
  const bytes = new Uint8Array(await f.arrayBuffer());
  if (f.status !== 200) throw new Error(`GET ${link} answered ${f.status}`);
  return { ms: now() - t0, pages: pdfPages(bytes, `report ${answer.report_id}`) };
}

async function playwrightPdf(page: Page, html: string): Promise<Printed> {
  const t0 = now();
  await page.setContent(html, { waitUntil: "load" });
  const pdf = await page.pdf(PDF_OPTIONS);
  return { ms: now() - t0, pages: pdfPages(pdf, "floor") };
}

interface TunedPage {
  page: Page;
  cdp: CDPSession;
  frameId: string;
}

/** The service's default print options as BrowserHost sends them to Chromium itself. */
const TUNED_PRINT = printParameters(defaultPdfOptions);

/** What BrowserHost does for a page that runs no script: one CDP call to replace the document, then its load event. */
async function tunedPdf(p: TunedPage, html: string): Promise<Printed> {
  const t0 = now();
  const loaded = new Promise<void>((resolve) => p.cdp.once("Page.loadEventFired", () => resolve()));
  await p.cdp.send("Page.setDocumentContent", { frameId: p.frameId, html });
  await loaded;
  const pdf = await printToPdf(p.cdp, TUNED_PRINT, html.length);
  return { ms: now() - t0, pages: pdfPages(pdf, "tuned") };
}

// ---------------------------------------------------------------------------------------------
// The floors' Chromium

interface Floors {
  browser: Browser;
  desktop: Page[];
  shared: Page[];
  perContext: Page[];
  tuned: TunedPage[];
}

async function startFloors(n: number, servicePid: number): Promise<Floors> {
  // The service's fontconfig file (its fonts and font cache), written into a temporary dir of our own.
  const fontDir = mkdtempSync(join(tmpdir(), "reportgen-bench-fonts-"));
  cleanupTasks.push(() => rmSync(fontDir, { recursive: true, force: true }));
  const env = { ...process.env, FONTCONFIG_FILE: writeFontconfig(fontDir) };
  const launch = async (executablePath: string) => {
    const b = await chromium.launch({
      executablePath,
      args: LAUNCH_ARGS,
      ignoreDefaultArgs: IGNORED_DEFAULT_ARGS,
      env,
      chromiumSandbox: process.getuid?.() !== 0,
      timeout: 30_000,
    });
    cleanupTasks.push(() => b.close());
    return b;
  };
  const browser = await launch(CHROMIUM);
  const desktopBrowser = await launch(DESKTOP_CHROMIUM);
  const contextOptions = { userAgent: userAgentFor(browser.version()) };
  const exclude = new Set(treeOf(servicePid));
  // Reniced before any page exists: renderers are forked by Chromium's zygote and inherit its value.
  renice(process.pid, FLOOR_NICE, exclude);
  const sharedCtx = await browser.newContext(contextOptions);
  const shared = await Promise.all(Array.from({ length: n }, () => sharedCtx.newPage()));
  const desktopCtx = await desktopBrowser.newContext({ userAgent: userAgentFor(desktopBrowser.version()) });
  const desktop = await Promise.all(Array.from({ length: n }, () => desktopCtx.newPage()));
  const perContext = await Promise.all(Array.from({ length: n }, async () => (await browser.newContext(contextOptions)).newPage()));
  // The service's screen for a page without scripts: 10x10 (src/render/browser.ts, setScripts).
  const tunedCtx: BrowserContext = await browser.newContext({ ...contextOptions, viewport: PRINT_ONLY_VIEWPORT });
  const tuned = await Promise.all(
    Array.from({ length: n }, async () => {
      const page = await tunedCtx.newPage();
      const cdp = await tunedCtx.newCDPSession(page);
      await cdp.send("Page.enable");
      await cdp.send("Emulation.setScriptExecutionDisabled", { value: true });
      const { frameTree } = await cdp.send("Page.getFrameTree");
      return { page, cdp, frameId: frameTree.frame.id };
    }),
  );
  renice(process.pid, FLOOR_NICE, exclude);
  return { browser, desktop, shared, perContext, tuned };
}

// ---------------------------------------------------------------------------------------------
// One measurement: c clients, n PDFs

interface Measurement {
  pdfsPerSec: number;
  latencies: number[];
  machineMsPerPdf: number;
  own: Record<Kind, number>;
  pages: number;
}

async function measure(
  side: Side,
  c: number,
  n: number,
  tpl: { html: string; tunedHtml: string; body: string },
  svc: Service,
  floors: Floors,
): Promise<Measurement> {
  const one = (client: number): Promise<Printed> => {
    switch (side) {
      case "floor/shared":
        return playwrightPdf(floors.shared[client]!, tpl.html);
      case "floor/ctx":
        return playwrightPdf(floors.perContext[client]!, tpl.html);
      case "floor/desktop":
        return playwrightPdf(floors.desktop[client]!, tpl.html);
      case "tuned":
        return tunedPdf(floors.tuned[client]!, tpl.tunedHtml);
      case "wait":
      case "poll":
        return servicePdf(svc, tpl.body, side === "poll");
    }
  };
  const latencies: number[] = [];
  let pages = -1;
  let started = 0;
  const own0 = ownCpu(side, svc.proc.pid);
  const m0 = machineCpuMs();
  const t0 = now();
  await Promise.all(
    Array.from({ length: c }, async (_, client) => {
      while (started < n) {
        started++;
        const p = await one(client);
        latencies.push(p.ms);
        if (pages >= 0 && p.pages !== pages) throw new Error(`${side}: a PDF of ${p.pages} pages after one of ${pages}`);
        pages = p.pages;
      }
    }),
  );
  const wall = now() - t0;
  const m1 = machineCpuMs();
  const own1 = ownCpu(side, svc.proc.pid);
  const own = Object.fromEntries((Object.keys(own0) as Kind[]).map((k) => [k, (own1[k] - own0[k]) / n])) as Record<Kind, number>;
  return { pdfsPerSec: (n * 1000) / wall, latencies, machineMsPerPdf: (m1 - m0) / n, own, pages };
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
function cell(t: string, c: number, s: Side): Cell {
  let x = cells.get(cellKey(t, c, s));
  if (!x) cells.set(cellKey(t, c, s), (x = { rates: [], latencies: [], machine: [], own: [] }));
  return x;
}
const ownTotal = (o: Record<Kind, number>) => o.server + o.sandbox + o.chromium + o.bench;
const medianOwn = (c: Cell, k: Kind | "total") => median(c.own.map((o) => (k === "total" ? ownTotal(o) : o[k])));

/** Peak PSS (bytes) of each side's process tree, sampled over the whole run. */
const peakPss = { service: 0, floor: 0, desktop: 0 };
function treePss(root: number | undefined): number {
  return root ? treeOf(root).reduce((a, pid) => a + (memoryOf(pid)?.pss ?? 0), 0) : 0;
}
/** A floor's browser process: a child of this process running `executable`, without --type=. */
function floorBrowser(executable: string): number | undefined {
  return treeOf(process.pid).find((pid) => {
    const cmd = commandLine(pid);
    return cmd.startsWith(`${executable} `) && !cmd.includes("--type=");
  });
}
function startPssSampler(servicePid: number): () => void {
  const floorPid = floorBrowser(CHROMIUM);
  const desktopPid = floorBrowser(DESKTOP_CHROMIUM);
  const sample = () => {
    peakPss.service = Math.max(peakPss.service, treePss(servicePid));
    peakPss.floor = Math.max(peakPss.floor, treePss(floorPid));
    peakPss.desktop = Math.max(peakPss.desktop, treePss(desktopPid));
  };
  const timer = setInterval(sample, 250);
  return () => clearInterval(timer);
}

let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const task of cleanupTasks.reverse()) {
      try {
        await task();
      } catch (e) {
        console.error(`bench: cleanup step failed: ${(e as Error).message}`);
      }
    }
  })();
  return cleaning;
}
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    console.error(`\nbench: ${sig}, cleaning up`);
    void cleanup().then(() => process.exit(130));
  });
}

async function main(): Promise<number> {
  const startedAt = Date.now();
  const loadAtStart = loadavg();
  log(
    `reportgen bench: ${ROUNDS} round(s)${quick ? " (quick)" : ""}, templates ${TEMPLATES.map((t) => t.name).join(", ")}, c = ${CONCURRENCY.join(", ")}, ` +
      `polling client every ${POLL_MS} ms; ${availableParallelism()} cores, load ${loadAtStart.map((x) => x.toFixed(2)).join(" ")}`,
  );
  const svc = await startService();
  log(
    `service up at ${svc.base} (pid ${svc.proc.pid}${flags.binary ? ", compiled binary" : SERVICE_ROOT !== ROOT ? `, from ${SERVICE_ROOT}` : ""}${EXTRA_SERVE_ARGS.length ? `, serve ${EXTRA_SERVE_ARGS.join(" ")}` : ""})`,
  );
  const floors = await startFloors(TOP_C, svc.proc.pid);
  const idlePss = { service: treePss(svc.proc.pid), floor: treePss(floorBrowser(CHROMIUM)) };
  const stopSampler = startPssSampler(svc.proc.pid);

  const tpls = TEMPLATES.map((t) => {
    const rendered = t.engine === "ejs" ? ejs.render(t.html_template, t.data!, {}) : t.html_template;
    return {
      name: t.name,
      // The document the service prints: the rendered template with the print defaults stylesheet.
      html: withPrintDefaults(rendered),
      // What the service's script-less page receives: the same, kept off the screen.
      tunedHtml: withPrintDefaults(rendered, true),
      body: JSON.stringify({
        html_template: t.html_template,
        engine: t.engine,
        ...(t.engine === "ejs" ? { data: t.data } : {}),
        ...(t.options ? { options: t.options } : {}),
      }),
      t,
    };
  });

  // Warm-up: fonts, caches and JIT on every side and page (one PDF per client); the service's pages too.
  const pagesOf = new Map<string, number>();
  for (const tpl of tpls) {
    for (const side of SIDES) {
      const m = await measure(side, TOP_C, TOP_C, tpl, svc, floors);
      const want = pagesOf.get(tpl.name);
      if (want !== undefined && want !== m.pages)
        throw new Error(`${tpl.name}: ${side} printed ${m.pages} pages, another side ${want}: not the same document`);
      pagesOf.set(tpl.name, m.pages);
    }
    log(`warm-up ${tpl.name}: ${pagesOf.get(tpl.name)} page(s) on every side`);
  }
  // Fairness check: the floor's flags must be the service's.
  const serviceChromium = treeOf(svc.proc.pid)
    .map(commandLine)
    .find((cmd) => /chrom/i.test(cmd) && !cmd.includes("--type="));
  const missing = serviceChromium ? LAUNCH_ARGS.filter((a) => !serviceChromium.includes(a)) : ["(no Chromium found in the service's tree)"];
  if (missing.length)
    log(`WARNING: the service's Chromium runs without ${missing.join(" ")}: the floor's flags no longer match src/render/browser.ts`);

  let turn = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    log(`-- round ${round}/${ROUNDS} (${Math.round((Date.now() - startedAt) / 1000)} s, load ${loadavg()[0]!.toFixed(2)})`);
    for (const tpl of tpls) {
      for (const c of CONCURRENCY) {
        // Rotate the order so that no side always runs first, or right after the same other side.
        const order = SIDES.map((_, i) => SIDES[(i + turn) % SIDES.length]!);
        if (turn % 2 === 1) order.reverse();
        turn++;
        const line: string[] = [];
        for (const side of order) {
          const m = await measure(side, c, countFor(tpl.t, c), tpl, svc, floors);
          if (m.pages !== pagesOf.get(tpl.name))
            throw new Error(`${tpl.name}: ${side} printed ${m.pages} pages, expected ${pagesOf.get(tpl.name)}`);
          const x = cell(tpl.name, c, side);
          x.rates.push(m.pdfsPerSec);
          x.latencies.push(...m.latencies);
          x.machine.push(m.machineMsPerPdf);
          x.own.push(m.own);
          line.push(`${side} ${fmt(m.pdfsPerSec, 2)}/s`);
        }
        if (flags.verbose) log(`  ${tpl.name} c=${c}: ${line.join(" | ")}`);
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Report
  const out: string[] = [];
  const targets: { name: string; value: number; op: "<=" | ">="; limit: number; pass: boolean }[] = [];
  const target = (name: string, value: number, op: "<=" | ">=", limit: number) =>
    targets.push({ name, value, op, limit, pass: op === "<=" ? value <= limit : value >= limit });
  const json: Record<string, unknown> = {
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
          `${tpl.name} c=${c}: own CPU per PDF ÷ ${base.name}'s (long poll, same run)`,
          medianOwn(wait, "total") / medianOwn(cell(base.name, c, "wait"), "total"),
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
  for (const tg of targets) out.push(`${tg.pass ? "PASS" : "FAIL"}  ${tg.name}: ${fmt(tg.value, 2)} ${tg.op} ${fmt(tg.limit, 2)}`);
  const failed = targets.filter((x) => !x.pass).length;
  out.push(
    `${targets.length - failed}/${targets.length} targets met (run took ${Math.round((Date.now() - startedAt) / 1000)} s; load average now ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")})`,
  );
  json.targets = targets;
  console.log(out.join("\n"));
  if (flags.json) {
    writeFileSync(flags.json, `${JSON.stringify(json, null, 2)}\n`);
    log(`figures written to ${flags.json}`);
  }
  return flags.check && failed > 0 ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (e) {
  console.error(`bench: ${(e as Error).stack ?? e}`);
} finally {
  await cleanup();
}
process.exit(code);
