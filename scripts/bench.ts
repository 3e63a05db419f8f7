#!/usr/bin/env bun
// reportgen benchmark: the service against Chromium's own floor and a naive baseline, in ONE run.
//
// Usage:  bun run bench [flags]          (= bun scripts/bench.ts [flags])
//
//   --quick            fewer PDFs, 2 rounds, 3 s wrk runs (about 2-3 minutes on 2 cores)
//   --rounds N         rounds (default 3; --quick: 2)
//   --json FILE        also write every figure (per round and pooled) as JSON
//   --binary           run the compiled dist/reportgen instead of `bun src/main.ts`
//   --check            exit 1 when a target fails (otherwise always exit 0: it is a measurement)
//   --templates LIST   comma list of invoice-ejs, invoice-raw, report-1000 (default: all; --quick: no invoice-raw)
//   --concurrency LIST service client concurrencies (default 1,2,8,32)
//   --poll-ms N        short polling: GET .../download every N ms instead of long polling (?wait=30)
//   --wrk-seconds N    length of each wrk run (default 5; --quick: 3)
//   --no-naive         skip the launch-per-request baseline
//   --no-wrk           skip the API (wrk) measurement
//   --verbose          forward the service's log (warn and above) and print each measurement
//   --serve-args="..." extra flags for `serve`, e.g. --serve-args="--render-pages 1 --sandboxes 1"
//   --service-root DIR run DIR/src/main.ts (a patched checkout, for A/B runs) instead of this one
//   --as-user USER     (as root) run the service as USER, e.g. nobody: as in production, where Chromium
//                      keeps its sandbox and its lower CPU priority (--render-nice); as root it resets both
//
// What one round does, for each template in turn (rounds interleave so machine noise hits all sides):
//   floor    playwright-core driving ONE warm, reused page: page.setContent(html) + page.pdf(A4,
//            printBackground, margin 0, preferCSSPageSize; the service's defaults) with the service's
//            launch flags (closedNetworkArgs from src/render/network-policy.ts + the same extras).
//            It prints the exact final HTML the service prints (EJS rendered here with the `ejs`
//            package: the same library the sandbox runs). Half of its PDFs are printed before the
//            service runs and half after, so the floor brackets them in time.
//   service  end to end through the HTTP API at each concurrency c: c clients, each looping
//            POST /api/v1/generate-pdf-async -> GET .../download?wait=30 (long polling: the answer
//            comes when the report is finished; repeated on 202) -> GET the signed link, reading
//            every PDF byte. Latency = POST start -> last byte. With --poll-ms N the clients short-poll
//            GET .../download every N ms instead (also the fallback if the server answers a wait
//            request early, i.e. has no long polling).
//            PDFs per run: max(count, 2c), so every client also submits while the others keep the
//            renderer busy. Throughput = PDFs / wall time of the run. Meanwhile a probe sends
//            GET /healthz every 50 ms: its latency is the floor any request sees on this machine.
//   naive    launch Chromium, new page, setContent, pdf, close - per PDF, sequentially.
// and at the end of each round, wrk against GET /healthz and authenticated GET /api/v1/reports.
//
// Figures: throughput is the median over rounds; latency percentiles pool every sample of every
// round. Peak memory is the sum of RSS over the service's process tree (server, EJS sandboxes,
// Chromium and its helpers) read from /proc every 100 ms; PSS (shared pages split between the
// processes) is read every second and printed alongside, since summed RSS counts Chromium's shared
// pages once per process. Diagnostics per service run: median stage times (POST; queued =
// started_at - created_at; render = finished_at - started_at, i.e. EJS sandbox + print; notice =
// finished_at -> download answered 200; fetch = link -> last byte) and CPU milliseconds per PDF of
// the server process, the sandboxes, Chromium and this client, against the floor's Chromium + its
// driver. CPU per PDF barely moves when other programs load the machine, wall-clock ratios do: on a
// shared box read the "floor/svc" work ratio next to the throughput ratio.
//
// Targets (PASS/FAIL lines): service/floor throughput >= 0.90 for every template at c >= 2;
// p50 latency at c=1 <= floor per-PDF p50 + 15 ms; POST p99 < 20 ms at c=32 (each client's first
// POST, sent in one burst before the renderer has work, is excluded here and in the table's POST
// column; the all-POST p99 is printed too);
// authenticated GET /api/v1/reports >= 0.5 x GET /healthz requests/s (wrk -t2 -c16).
//
// The service runs as a child process on 127.0.0.1 with a fresh temporary data dir, rate limits
// and queue limits off, log level warn; it is stopped (SIGTERM, SIGKILL after 10 s) and the data
// dir removed at the end, also on Ctrl-C.
import { chromium, type Browser, type Page } from "playwright-core";
import ejs from "ejs";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Subprocess } from "bun";
import { closedNetworkArgs } from "../src/render/network-policy";
import { benchTemplates, type BenchTemplate } from "./bench-templates";

// ---------------------------------------------------------------------------------------------
// Settings

const ROOT = resolve(import.meta.dir, "..");
const CHROMIUM = process.env.REPORTGEN_CHROMIUM_PATH || "/usr/lib/chromium/chromium";
/** Exactly the service's launch flags (src/render/browser.ts, BrowserHost.launch). */
const LAUNCH_ARGS = [...closedNetworkArgs(), "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio", "--font-render-hinting=none"];
/** The service's default print options (src/render/pdf-options.ts) as BrowserHost passes them. */
const PDF_OPTIONS = { format: "A4", landscape: false, printBackground: true, scale: 1, margin: { top: "0", right: "0", bottom: "0", left: "0" }, preferCSSPageSize: true } as const;

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    quick: { type: "boolean", default: false },
    rounds: { type: "string" },
    json: { type: "string" },
    binary: { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    templates: { type: "string" },
    concurrency: { type: "string", default: "1,2,8,32" },
    "poll-ms": { type: "string" },
    "wrk-seconds": { type: "string" },
    "no-naive": { type: "boolean", default: false },
    "no-wrk": { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    "serve-args": { type: "string" },
    "service-root": { type: "string" },
    "as-user": { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});

if (flags.help) {
  const lines = readFileSync(import.meta.path, "utf8").split("\n").slice(1);
  console.log(lines.slice(0, lines.findIndex((l) => !l.startsWith("//"))).map((l) => l.slice(3)).join("\n"));
  process.exit(0);
}

const quick = flags.quick!;
const SERVICE_ROOT = resolve(flags["service-root"] ?? ROOT);
const EXTRA_SERVE_ARGS = flags["serve-args"]?.split(/\s+/).filter(Boolean) ?? [];
const ROUNDS = Number(flags.rounds ?? (quick ? 2 : 3));
const CONCURRENCY = flags.concurrency!.split(",").map(Number);
/** Short polling interval; undefined: long polling (?wait=30). */
const SHORT_POLL = flags["poll-ms"] !== undefined;
const POLL_MS = Number(flags["poll-ms"] ?? 10);
const WAIT_S = 30;
const WRK_SECONDS = Number(flags["wrk-seconds"] ?? (quick ? 3 : 5));
const WARMUP = 3;
for (const [name, v] of [["rounds", ROUNDS], ["poll-ms", POLL_MS], ["wrk-seconds", WRK_SECONDS], ...CONCURRENCY.map((c) => ["concurrency", c] as const)] as const) {
  if (!Number.isFinite(v) || v < (name === "poll-ms" ? 0 : 1)) usage(`bad --${name} value`);
}
const allTemplates = benchTemplates();
const TEMPLATES = flags.templates
  ? flags.templates.split(",").map((n) => allTemplates.find((t) => t.name === n) ?? usage(`unknown template ${n}; use ${allTemplates.map((t) => t.name).join(", ")}`))
  : allTemplates.filter((t) => !quick || t.name !== "invoice-raw");
/** PDFs per service run: enough that every client submits again while the others keep the renderer busy. */
const serviceTotal = (n: number, c: number) => Math.max(n, 2 * c);
const countOf = (t: BenchTemplate) => (quick ? t.quickCount : t.count);
const naiveCountOf = (t: BenchTemplate) => (flags["no-naive"] ? 0 : quick ? t.quickNaiveCount : t.naiveCount);

function usage(msg: string): never {
  console.error(`bench: ${msg} (bun scripts/bench.ts --help)`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// Small helpers

const now = () => performance.now();
const epochNow = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * p;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return s[lo]! + (s[hi]! - s[lo]!) * (i - lo);
}
const median = (xs: number[]) => percentile(xs, 0.5);

function countPdfPages(pdf: Uint8Array): number {
  return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString("latin1").match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
}

function checkPdf(bytes: Uint8Array, what: string): number {
  if (bytes.length < 5 || Buffer.from(bytes.subarray(0, 5)).toString("latin1") !== "%PDF-") throw new Error(`${what}: not a PDF (${bytes.length} bytes)`);
  return countPdfPages(bytes);
}

const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");
const pad = (s: string | number, n: number) => String(s).padStart(n);
const padR = (s: string | number, n: number) => String(s).padEnd(n);

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Process-tree sampling (/proc): peak RSS of the service tree, CPU by kind of process

const PAGE_SIZE = 4096;
const CLK_TCK = 100;

interface ProcInfo {
  ppid: number;
  rssBytes: number;
  cpuTicks: number;
}
type Kind = "server" | "sandbox" | "chromium" | "other";

function readProcs(): Map<number, ProcInfo> {
  const out = new Map<number, ProcInfo>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    } catch {
      continue;
    }
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out.set(pid, { ppid: Number(f[1]), cpuTicks: Number(f[11]) + Number(f[12]), rssBytes: Number(f[21]) * PAGE_SIZE });
  }
  return out;
}

function treeOf(root: number, procs: Map<number, ProcInfo>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, p] of procs) {
    const list = children.get(p.ppid);
    if (list) list.push(pid);
    else children.set(p.ppid, [pid]);
  }
  const out: number[] = [];
  const stack = procs.has(root) ? [root] : [];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push(pid);
    for (const c of children.get(pid) ?? []) stack.push(c);
  }
  return out;
}

/**
 * The periodic sampling runs in a worker thread: reading /proc (smaps_rollup of big Chromium
 * processes above all) on this thread would stall the clients' event loop and show up in the very
 * latencies being measured. It keeps the peak RSS (every 100 ms) and PSS (every 1 s) per phase.
 */
const SAMPLER_WORKER = String.raw`
import { readdirSync, readFileSync } from "node:fs";
let root = 0, phase = "start", timer, n = 0;
const peak = {}, peakPss = {};
function procs() {
  const out = new Map();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const s = readFileSync("/proc/" + pid + "/stat", "latin1");
      const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
      out.set(pid, { ppid: Number(f[1]), rss: Number(f[21]) * 4096 });
    } catch {}
  }
  return out;
}
function tree(all) {
  const kids = new Map();
  for (const [pid, p] of all) { const l = kids.get(p.ppid); if (l) l.push(pid); else kids.set(p.ppid, [pid]); }
  const out = [], stack = all.has(root) ? [root] : [];
  while (stack.length) { const pid = stack.pop(); out.push(pid); for (const c of kids.get(pid) ?? []) stack.push(c); }
  return out;
}
function sample() {
  const all = procs(), pids = tree(all);
  let rss = 0;
  for (const pid of pids) rss += all.get(pid).rss;
  if (rss > (peak[phase] ?? 0)) peak[phase] = rss;
  if (n++ % 10 === 0) {
    let pss = 0;
    for (const pid of pids) {
      try { pss += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync("/proc/" + pid + "/smaps_rollup", "latin1"))?.[1] ?? 0) * 1024; } catch {}
    }
    if (pss > (peakPss[phase] ?? 0)) peakPss[phase] = pss;
  }
}
self.onmessage = (e) => {
  const m = e.data;
  if (m.type === "start") { root = m.root; sample(); timer = setInterval(sample, 100); }
  else if (m.type === "phase") phase = m.phase;
  else if (m.type === "stop") { clearInterval(timer); postMessage({ peak, peakPss }); }
};
`;

class TreeSampler {
  private currentPhase = "start";
  peakBytes = 0;
  readonly phasePeak = new Map<string, number>();
  peakPss = 0;
  readonly phasePeakPss = new Map<string, number>();
  private readonly kinds = new Map<number, Kind>();
  private worker?: Worker;

  constructor(private readonly root: number) {}

  get phase() {
    return this.currentPhase;
  }
  set phase(p: string) {
    this.currentPhase = p;
    this.worker?.postMessage({ type: "phase", phase: p });
  }

  start() {
    this.worker = new Worker(URL.createObjectURL(new Blob([SAMPLER_WORKER], { type: "application/javascript" })));
    this.worker.postMessage({ type: "start", root: this.root });
  }

  /** Stops the sampling and collects its peaks (idempotent). */
  async stop(): Promise<void> {
    const w = this.worker;
    if (!w) return;
    this.worker = undefined;
    const answer = new Promise<{ peak: Record<string, number>; peakPss: Record<string, number> }>((r) => (w.onmessage = (e) => r(e.data)));
    w.postMessage({ type: "stop" });
    const got = await Promise.race([answer, sleep(5_000).then(() => undefined)]);
    w.terminate();
    if (!got) return;
    for (const [k, v] of Object.entries(got.peak)) this.note(this.phasePeak, k, v, "rss");
    for (const [k, v] of Object.entries(got.peakPss)) this.note(this.phasePeakPss, k, v, "pss");
  }

  private note(m: Map<string, number>, phase: string, v: number, what: "rss" | "pss") {
    if (v > (m.get(phase) ?? 0)) m.set(phase, v);
    if (what === "rss" && v > this.peakBytes) this.peakBytes = v;
    if (what === "pss" && v > this.peakPss) this.peakPss = v;
  }

  private kindOf(pid: number): Kind {
    let k = this.kinds.get(pid);
    if (k) return k;
    let cmd = "";
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, "latin1");
    } catch {}
    k = pid === this.root ? "server" : /chrom/i.test(cmd) ? "chromium" : /sandbox/i.test(cmd) ? "sandbox" : "other";
    this.kinds.set(pid, k);
    return k;
  }

  /** The tree's RSS now (on this thread: only between measurements). */
  sample(): number {
    const procs = readProcs();
    let rss = 0;
    for (const pid of treeOf(this.root, procs)) rss += procs.get(pid)!.rssBytes;
    this.note(this.phasePeak, this.currentPhase, rss, "rss");
    return rss;
  }

  /** Proportional set size of the tree (or of the given pids). */
  pss(tree = treeOf(this.root, readProcs())): number {
    let pss = 0;
    for (const pid of tree) {
      try {
        pss += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "latin1"))?.[1] ?? 0) * 1024;
      } catch {}
    }
    return pss;
  }

  /** CPU ticks per process of the tree now, for differences over a measurement. */
  cpuSnapshot(): Map<number, { kind: Kind; ticks: number }> {
    const procs = readProcs();
    return new Map(treeOf(this.root, procs).map((pid) => [pid, { kind: this.kindOf(pid), ticks: procs.get(pid)!.cpuTicks }]));
  }

  /** CPU ticks of this bench's own Chromiums (the floor's, the naive baseline's): our tree minus the service's. */
  benchChromiumSnapshot(): Map<number, { kind: Kind; ticks: number }> {
    const procs = readProcs();
    const service = new Set(treeOf(this.root, procs));
    return new Map(
      treeOf(process.pid, procs)
        .filter((pid) => pid !== process.pid && !service.has(pid))
        .map((pid) => [pid, { kind: "chromium" as Kind, ticks: procs.get(pid)!.cpuTicks }]),
    );
  }

  static cpuDelta(a: Map<number, { kind: Kind; ticks: number }>, b: Map<number, { kind: Kind; ticks: number }>): Record<Kind, number> {
    const ms: Record<Kind, number> = { server: 0, sandbox: 0, chromium: 0, other: 0 };
    for (const [pid, v] of b) ms[v.kind] += ((v.ticks - (a.get(pid)?.ticks ?? 0)) * 1000) / CLK_TCK;
    return ms;
  }
}

// ---------------------------------------------------------------------------------------------
// The service as a child process

interface Service {
  proc: Subprocess;
  base: string;
  key: string;
  dataDir: string;
}

function serviceCommand(): string[] {
  if (flags.binary) {
    const bin = join(ROOT, "dist", "reportgen");
    if (!existsSync(bin)) usage(`--binary: ${bin} does not exist (run bun run build first)`);
    return [bin];
  }
  return [process.execPath, join(SERVICE_ROOT, "src", "main.ts")];
}

/** Runs a command as --as-user (via setpriv), with HOME and TMPDIR in the data dir it can write. */
function asServiceUser(cmd: string[], dataDir: string): string[] {
  const user = flags["as-user"];
  if (!user) return cmd;
  const id = (opt: string) => Bun.spawnSync(["id", opt, user]).stdout.toString().trim();
  chmodSync(dataDir, 0o777);
  return ["setpriv", `--reuid=${id("-u")}`, `--regid=${id("-g")}`, "--clear-groups", "env", `HOME=${dataDir}`, `TMPDIR=${dataDir}`, ...cmd];
}

async function startService(): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), "reportgen-bench-"));
  cleanupTasks.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const cmd = asServiceUser(serviceCommand(), dataDir);
  const keyProc = Bun.spawnSync([...cmd, "admin", "create-key", "--name", "bench", "--data-dir", dataDir, "--log-level", "warn"], { cwd: SERVICE_ROOT, stderr: "pipe" });
  const key = keyProc.stdout.toString().trim();
  if (keyProc.exitCode !== 0 || !key) throw new Error(`admin create-key failed (${keyProc.exitCode}): ${keyProc.stderr.toString()}`);

  const port = await freePort();
  const args = ["serve", "--data-dir", dataDir, "--port", String(port), "--host", "127.0.0.1", "--rate-limit", "0", "--account-queue-limit", "100000", "--queue-limit", "100000", "--log-level", "warn", ...EXTRA_SERVE_ARGS];
  const proc = Bun.spawn([...cmd, ...args], { cwd: SERVICE_ROOT, stdin: "ignore", stdout: "ignore", stderr: "pipe", env: process.env });
  cleanupTasks.push(() => stopService(proc));
  // Keep the last lines of the service's log for error messages; forward them with --verbose.
  void (async () => {
    const dec = new TextDecoder();
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) {
      const text = dec.decode(chunk, { stream: true });
      serviceLog = (serviceLog + text).slice(-4000);
      if (flags.verbose) process.stderr.write(text.replace(/^(?=.)/gm, "[service] "));
    }
  })();

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the service exited with ${proc.exitCode} during start-up:\n${serviceLog}`);
    try {
      const r = await fetch(`${base}/healthz`);
      await r.arrayBuffer();
      if (r.status === 200) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`the service did not become healthy within 60 s:\n${serviceLog}`);
    await sleep(100);
  }
  return { proc, base, key, dataDir };
}
let serviceLog = "";

async function stopService(proc: Subprocess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill("SIGTERM");
  const exited = await Promise.race([proc.exited.then(() => true), sleep(10_000).then(() => false)]);
  if (!exited) {
    proc.kill("SIGKILL");
    await proc.exited;
  }
}

// ---------------------------------------------------------------------------------------------
// Measurements

interface ServiceSample {
  id: string;
  latency: number;
  post: number;
  polls: number;
  firstOfClient: boolean;
  submitEpoch: number;
  readyEpoch: number;
  doneEpoch: number;
  pages: number;
  bytes: number;
}

let noLongPolling = false;

async function submitOne(svc: Service, body: string, firstOfClient: boolean): Promise<ServiceSample> {
  const headers = { "x-api-key": svc.key, "content-type": "application/json" };
  const submitEpoch = epochNow();
  const t0 = now();
  const r = await fetch(`${svc.base}/api/v1/generate-pdf-async`, { method: "POST", headers, body });
  const answer = (await r.json()) as { report_id?: string };
  const post = now() - t0;
  if (r.status !== 202 || !answer.report_id) throw new Error(`POST generate-pdf-async answered ${r.status}: ${JSON.stringify(answer)}`);
  const id = answer.report_id;
  let polls = 0;
  let link: string;
  let longPoll = !SHORT_POLL;
  for (;;) {
    if (!longPoll) await sleep(POLL_MS);
    const asked = now();
    const d = await fetch(`${svc.base}/api/v1/reports/${id}/download${longPoll ? `?wait=${WAIT_S}` : ""}`, { headers: { "x-api-key": svc.key } });
    polls++;
    if (d.status === 202) {
      await d.arrayBuffer();
      // A server without long polling answers at once: fall back to short polling.
      if (longPoll && now() - asked < 1000) {
        longPoll = false;
        if (!noLongPolling) log(`note: the server answered ?wait=${WAIT_S} at once (no long polling): clients short-poll every ${POLL_MS} ms instead`);
        noLongPolling = true;
      }
      continue;
    }
    const j = (await d.json()) as { data?: string };
    if (d.status !== 200 || typeof j.data !== "string") throw new Error(`download of ${id} answered ${d.status}: ${JSON.stringify(j)}`);
    link = j.data;
    break;
  }
  const readyEpoch = epochNow();
  const f = await fetch(link);
  const bytes = new Uint8Array(await f.arrayBuffer());
  const latency = now() - t0;
  if (f.status !== 200) throw new Error(`GET ${link} answered ${f.status}`);
  const pages = checkPdf(bytes, `report ${id}`);
  return { id, latency, post, polls, firstOfClient, submitEpoch, readyEpoch, doneEpoch: epochNow(), pages, bytes: bytes.length };
}

async function serviceRun(svc: Service, body: string, concurrency: number, total: number): Promise<{ wallMs: number; samples: ServiceSample[]; probes: number[]; lag: number[] }> {
  let next = 0;
  let running = true;
  const samples: ServiceSample[] = [];
  const probes: number[] = [];
  const probe = (async () => {
    while (running) {
      await sleep(50);
      const t = now();
      await (await fetch(`${svc.base}/healthz`)).arrayBuffer();
      if (running) probes.push(now() - t);
    }
  })();
  // How late this process's own timers fire: client-side delay folded into every latency above.
  const lag: number[] = [];
  let expected = now() + 10;
  const lagTimer = setInterval(() => {
    const t = now();
    lag.push(Math.max(0, t - expected));
    expected = t + 10;
  }, 10);
  const t0 = now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      let first = true;
      while (next < total) {
        next++;
        samples.push(await submitOne(svc, body, first));
        first = false;
      }
    }),
  );
  const wallMs = now() - t0;
  running = false;
  clearInterval(lagTimer);
  await probe;
  return { wallMs, samples, probes, lag };
}

interface Stages {
  post: number;
  queued: number;
  render: number;
  notice: number;
  fetch: number;
}

/** Reads each report's server-side timestamps (outside the timed window) and splits latency into stages. */
async function stagesOf(svc: Service, samples: ServiceSample[]): Promise<Stages[]> {
  const out: Stages[] = [];
  for (const s of samples) {
    const r = await fetch(`${svc.base}/api/v1/reports/${s.id}`, { headers: { "x-api-key": svc.key } });
    const { data } = (await r.json()) as { data: { created_at: string; started_at: string; finished_at: string } };
    const created = Date.parse(data.created_at);
    const started = Date.parse(data.started_at);
    const finished = Date.parse(data.finished_at);
    out.push({ post: s.post, queued: started - created, render: finished - started, notice: s.readyEpoch - finished, fetch: s.doneEpoch - s.readyEpoch });
  }
  return out;
}

async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS, timeout: 30_000 });
}

async function newFloorPage(browser: Browser): Promise<Page> {
  // The service's context options, minus its request interception (a cost the service pays).
  const context = await browser.newContext({ javaScriptEnabled: true, serviceWorkers: "block", acceptDownloads: false });
  return context.newPage();
}

async function floorRun(page: Page, html: string, n: number): Promise<{ wallMs: number; times: number[]; pages: number; bytes: number }> {
  const times: number[] = [];
  let pages = 0;
  let bytes = 0;
  const t0 = now();
  for (let i = 0; i < n; i++) {
    const t = now();
    await page.setContent(html, { waitUntil: "load" });
    const pdf = await page.pdf(PDF_OPTIONS);
    times.push(now() - t);
    pages = countPdfPages(pdf);
    bytes = pdf.length;
  }
  return { wallMs: now() - t0, times, pages, bytes };
}

async function naiveRun(html: string, n: number): Promise<{ wallMs: number; times: number[] }> {
  const times: number[] = [];
  const t0 = now();
  for (let i = 0; i < n; i++) {
    const t = now();
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.setContent(html, { waitUntil: "load" });
      checkPdf(await page.pdf(PDF_OPTIONS), "naive");
    } finally {
      await browser.close();
    }
    times.push(now() - t);
  }
  return { wallMs: now() - t0, times };
}

async function wrkRps(url: string, headers: Record<string, string>): Promise<{ rps: number; non2xx: number; p50: string; p99: string }> {
  const args = ["wrk", "-t2", "-c16", `-d${WRK_SECONDS}s`, "--latency", ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]), url];
  const p = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  if ((await p.exited) !== 0) throw new Error(`wrk failed: ${err}${out}`);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  if (!Number.isFinite(rps)) throw new Error(`cannot read wrk output:\n${out}`);
  return {
    rps,
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
    p50: /^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? "?",
    p99: /^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? "?",
  };
}

// ---------------------------------------------------------------------------------------------
// Collected figures

interface ServiceCell {
  rounds: { pdfsPerSec: number; ratio: number }[];
  samples: ServiceSample[];
  /** GET /healthz latencies probed during the runs. */
  probes: number[];
  /** Lateness of this process's 10 ms timer during the runs. */
  lag: number[];
  stages: Stages[];
  cpuMs: Record<Kind | "client", number>;
  pdfs: number;
}
interface TemplateFigures {
  html: string;
  body: string;
  floor: { rounds: number[]; times: number[]; pages: number; bytes: number; cpuMs: { chromium: number; client: number } };
  naive: { rounds: number[]; times: number[] };
  service: Map<number, ServiceCell>;
}

const cleanupTasks: (() => unknown)[] = [];
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

function log(msg: string) {
  process.stderr.write(msg + "\n");
}

async function main(): Promise<number> {
  const startedAt = Date.now();
  const loadAtStart = loadavg();
  log(`reportgen bench: ${ROUNDS} round(s), templates ${TEMPLATES.map((t) => t.name).join(", ")}, concurrency ${CONCURRENCY.join(",")}, ${SHORT_POLL ? `short polling every ${POLL_MS} ms` : `long polling (?wait=${WAIT_S})`}${quick ? ", quick" : ""}; ${availableParallelism()} cores, load ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);

  const svc = await startService();
  log(`service up at ${svc.base} (pid ${svc.proc.pid}${flags.binary ? ", compiled binary" : SERVICE_ROOT !== ROOT ? `, from ${SERVICE_ROOT}` : ""}${EXTRA_SERVE_ARGS.length ? `, serve ${EXTRA_SERVE_ARGS.join(" ")}` : ""})`);
  const sampler = new TreeSampler(svc.proc.pid);
  sampler.start();
  cleanupTasks.push(() => sampler.stop());

  const floorBrowser = await launchBrowser();
  cleanupTasks.push(() => floorBrowser.close());
  const floorPage = await newFloorPage(floorBrowser);

  const figs = new Map<string, TemplateFigures>();
  for (const t of TEMPLATES) {
    const html = t.engine === "ejs" ? ejs.render(t.html_template, t.data!, {}) : t.html_template;
    const body = JSON.stringify({ html_template: t.html_template, engine: t.engine, ...(t.engine === "ejs" ? { data: t.data } : {}) });
    figs.set(t.name, { html, body, floor: { rounds: [], times: [], pages: 0, bytes: 0, cpuMs: { chromium: 0, client: 0 } }, naive: { rounds: [], times: [] }, service: new Map() });
  }

  // Warm-up: fonts, caches and JIT on both sides; the service's first reports also spin up its lanes.
  sampler.phase = "warmup";
  for (const t of TEMPLATES) {
    const f = figs.get(t.name)!;
    const fl = await floorRun(floorPage, f.html, WARMUP);
    const sv = await serviceRun(svc, f.body, 2, WARMUP);
    f.floor.pages = fl.pages;
    f.floor.bytes = fl.bytes;
    const svcPages = sv.samples[0]!.pages;
    log(`warm-up ${t.name}: floor ${fl.pages} page(s) ${(fl.bytes / 1024).toFixed(0)} KiB, service ${svcPages} page(s) ${(sv.samples[0]!.bytes / 1024).toFixed(0)} KiB${svcPages !== fl.pages ? "  (PAGE COUNTS DIFFER: not the same document)" : ""}`);
  }
  // Fairness check: the floor must run Chromium with the service's flags.
  const serviceChromium = treeOf(svc.proc.pid, readProcs())
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "latin1").replace(/\0/g, " ");
      } catch {
        return "";
      }
    })
    .find((cmd) => /chrom/i.test(cmd) && !cmd.includes("--type="));
  const missing = serviceChromium ? LAUNCH_ARGS.filter((a) => !serviceChromium.includes(a)) : [];
  if (missing.length) log(`WARNING: the service's Chromium runs without ${missing.join(" ")}: the floor's flags no longer match src/render/browser.ts`);
  await sleep(300);
  const idleBytes = sampler.sample();
  const idlePss = sampler.pss();
  sampler.phase = "idle";
  log(`service tree after warm-up: RSS sum ${(idleBytes / 2 ** 20).toFixed(0)} MiB, PSS ${(idlePss / 2 ** 20).toFixed(0)} MiB`);

  const wrk = { healthz: [] as number[], reports: [] as number[], detail: [] as unknown[] };

  for (let round = 1; round <= ROUNDS; round++) {
    log(`\n-- round ${round}/${ROUNDS}`);
    for (const t of TEMPLATES) {
      const f = figs.get(t.name)!;
      const n = countOf(t);
      // Floor, first half.
      sampler.phase = `${t.name}/floor`;
      const floorMeasured = async (count: number) => {
        const cpu0 = sampler.benchChromiumSnapshot();
        const client0 = process.cpuUsage();
        const r = await floorRun(floorPage, f.html, count);
        const clientUs = process.cpuUsage(client0);
        f.floor.cpuMs.chromium += TreeSampler.cpuDelta(cpu0, sampler.benchChromiumSnapshot()).chromium;
        f.floor.cpuMs.client += (clientUs.user + clientUs.system) / 1000;
        return r;
      };
      const fa = await floorMeasured(Math.ceil(n / 2));
      // Service at each concurrency.
      const roundRates = new Map<number, { wallMs: number; samples: ServiceSample[]; probes: number[]; lag: number[]; cpu: Record<Kind | "client", number> }>();
      for (const c of CONCURRENCY) {
        sampler.phase = `${t.name}/service`;
        const cpu0 = sampler.cpuSnapshot();
        const client0 = process.cpuUsage();
        const run = await serviceRun(svc, f.body, c, serviceTotal(n, c));
        const clientUs = process.cpuUsage(client0);
        const cpu = { ...TreeSampler.cpuDelta(cpu0, sampler.cpuSnapshot()), client: (clientUs.user + clientUs.system) / 1000 };
        roundRates.set(c, { ...run, cpu });
        if (flags.verbose) log(`  ${t.name} service c=${c}: ${((run.samples.length * 1000) / run.wallMs).toFixed(2)} PDFs/s`);
      }
      // Floor, second half.
      sampler.phase = `${t.name}/floor`;
      const fb = await floorMeasured(Math.floor(n / 2));
      const floorRate = ((fa.times.length + fb.times.length) * 1000) / (fa.wallMs + fb.wallMs);
      f.floor.rounds.push(floorRate);
      f.floor.times.push(...fa.times, ...fb.times);

      for (const [c, run] of roundRates) {
        const rate = (run.samples.length * 1000) / run.wallMs;
        let cell = f.service.get(c);
        if (!cell) f.service.set(c, (cell = { rounds: [], samples: [], probes: [], lag: [], stages: [], cpuMs: { server: 0, sandbox: 0, chromium: 0, other: 0, client: 0 }, pdfs: 0 }));
        cell.probes.push(...run.probes);
        cell.lag.push(...run.lag);
        cell.rounds.push({ pdfsPerSec: rate, ratio: rate / floorRate });
        cell.samples.push(...run.samples);
        cell.stages.push(...(await stagesOf(svc, run.samples)));
        for (const k of Object.keys(cell.cpuMs) as (Kind | "client")[]) cell.cpuMs[k] += run.cpu[k];
        cell.pdfs += run.samples.length;
        for (const s of run.samples) {
          if (s.pages !== f.floor.pages) throw new Error(`${t.name}: the service's PDF has ${s.pages} pages, the floor's ${f.floor.pages}`);
        }
      }
      // Naive baseline.
      const nn = naiveCountOf(t);
      if (nn > 0) {
        sampler.phase = `${t.name}/naive`;
        const nv = await naiveRun(f.html, nn);
        f.naive.rounds.push((nv.times.length * 1000) / nv.wallMs);
        f.naive.times.push(...nv.times);
      }
      sampler.phase = "idle";
      const c1 = roundRates.get(CONCURRENCY[0]!)!;
      log(
        `  ${padR(t.name, 12)} floor ${fmt(floorRate, 2)}/s | service ` +
          [...roundRates].map(([c, r]) => `c${c} ${fmt((r.samples.length * 1000) / r.wallMs, 2)}/s`).join(" ") +
          ` | c${CONCURRENCY[0]} p50 ${fmt(median(c1.samples.map((s) => s.latency)))} ms` +
          (nn > 0 ? ` | naive ${fmt(f.naive.rounds.at(-1)!, 2)}/s` : ""),
      );
    }
    if (!flags["no-wrk"]) {
      // Alternate the order each round so neither side always runs first.
      const order = round % 2 === 1 ? (["healthz", "reports"] as const) : (["reports", "healthz"] as const);
      const line: string[] = [];
      for (const which of order) {
        sampler.phase = `wrk/${which}`;
        const r = which === "healthz" ? await wrkRps(`${svc.base}/healthz`, {}) : await wrkRps(`${svc.base}/api/v1/reports`, { "X-API-Key": svc.key });
        if (r.non2xx > 0) throw new Error(`wrk ${which}: ${r.non2xx} responses were not 2xx`);
        wrk[which].push(r.rps);
        wrk.detail.push({ round, which, ...r });
        line.push(`${which} ${fmt(r.rps, 0)} req/s (p50 ${r.p50}, p99 ${r.p99})`);
      }
      sampler.phase = "idle";
      log(`  wrk: ${line.join(" | ")}`);
    }
  }
  await sampler.stop();

  // -------------------------------------------------------------------------------------------
  // Report
  const MiB = 2 ** 20;
  const out: string[] = [];
  const json: Record<string, unknown> = {
    date: new Date(startedAt).toISOString(),
    duration_s: Math.round((Date.now() - startedAt) / 1000),
    cores: availableParallelism(),
    loadavg_start: loadAtStart,
    loadavg_end: loadavg(),
    rounds: ROUNDS,
    quick,
    waiting: SHORT_POLL || noLongPolling ? { mode: "short-poll", poll_ms: POLL_MS, server_has_long_polling: !noLongPolling } : { mode: "long-poll", wait_s: WAIT_S },
    binary: flags.binary,
    service_root: SERVICE_ROOT,
    serve_args: EXTRA_SERVE_ARGS,
    concurrency: CONCURRENCY,
    templates: {} as Record<string, unknown>,
  };
  const targets: { name: string; value: number; limit: number; op: "<=" | ">=" | "<"; pass: boolean }[] = [];
  const target = (name: string, value: number, op: "<=" | ">=" | "<", limit: number) =>
    targets.push({ name, value, limit, op, pass: op === "<=" ? value <= limit : op === ">=" ? value >= limit : value < limit });

  out.push("");
  out.push(`reportgen bench: ${ROUNDS} round(s)${quick ? " (quick)" : ""}, ${availableParallelism()} cores, ${SHORT_POLL ? `short polling every ${POLL_MS} ms` : noLongPolling ? `short polling every ${POLL_MS} ms (the server has no long polling)` : `long polling`}; throughput = median over rounds, latency percentiles pooled`);
  out.push("");
  const head = `${padR("template", 12)} ${padR("side", 8)} ${pad("c", 3)} ${pad("PDFs", 5)} ${pad("PDFs/s", 7)} ${pad("/floor", 6)} ${pad("p50 ms", 7)} ${pad("p95 ms", 7)} ${pad("p99 ms", 7)} ${pad("POST p50/p99", 13)} ${pad("polls", 5)} ${pad("peak MiB", 8)}`;
  out.push(head);
  out.push("-".repeat(head.length));
  const allSaturatedPosts: number[] = [];
  const allPostsTop: number[] = [];
  const probesTop: number[] = [];
  const lagTop: number[] = [];
  const topC = Math.max(...CONCURRENCY);
  for (const t of TEMPLATES) {
    const f = figs.get(t.name)!;
    const floorRate = median(f.floor.rounds);
    const floorP50 = median(f.floor.times);
    const tj: Record<string, unknown> = {
      engine: t.engine,
      pdf_pages: f.floor.pages,
      pdf_bytes_floor: f.floor.bytes,
      floor: { pdfs_per_s: floorRate, per_round: f.floor.rounds, p50_ms: floorP50, p95_ms: percentile(f.floor.times, 0.95), p99_ms: percentile(f.floor.times, 0.99), pdfs: f.floor.times.length },
      service: {} as Record<string, unknown>,
    };
    out.push(
      `${padR(t.name, 12)} ${padR("floor", 8)} ${pad(1, 3)} ${pad(f.floor.times.length, 5)} ${pad(fmt(floorRate, 2), 7)} ${pad("1.00", 6)} ${pad(fmt(floorP50), 7)} ${pad(fmt(percentile(f.floor.times, 0.95)), 7)} ${pad(fmt(percentile(f.floor.times, 0.99)), 7)} ${pad("", 13)} ${pad("", 5)} ${pad("", 8)}`,
    );
    const peakSvc = (sampler.phasePeak.get(`${t.name}/service`) ?? 0) / MiB;
    for (const [c, cell] of f.service) {
      const lat = cell.samples.map((s) => s.latency);
      const posts = cell.samples.map((s) => s.post);
      // Each client's first POST goes out in one burst with all the others, before any rendering:
      // the column shows the POSTs sent while other reports were in flight.
      const steady = cell.samples.filter((s) => !s.firstOfClient).map((s) => s.post);
      const rate = median(cell.rounds.map((r) => r.pdfsPerSec));
      const ratio = median(cell.rounds.map((r) => r.ratio));
      const polls = cell.samples.reduce((a, s) => a + s.polls, 0) / cell.samples.length;
      out.push(
        `${padR(t.name, 12)} ${padR("service", 8)} ${pad(c, 3)} ${pad(cell.samples.length, 5)} ${pad(fmt(rate, 2), 7)} ${pad(fmt(ratio, 2), 6)} ${pad(fmt(median(lat)), 7)} ${pad(fmt(percentile(lat, 0.95)), 7)} ${pad(fmt(percentile(lat, 0.99)), 7)} ${pad(`${fmt(median(steady))}/${fmt(percentile(steady, 0.99))}`, 13)} ${pad(fmt(polls), 5)} ${pad(fmt(peakSvc, 0), 8)}`,
      );
      const saturated = steady;
      if (c === topC) {
        allSaturatedPosts.push(...saturated);
        allPostsTop.push(...posts);
        probesTop.push(...cell.probes);
        lagTop.push(...cell.lag);
      }
      const st = (k: keyof Stages) => median(cell.stages.map((s) => s[k]));
      (tj.service as Record<string, unknown>)[String(c)] = {
        pdfs_per_s: rate,
        ratio_to_floor: ratio,
        per_round: cell.rounds,
        p50_ms: median(lat),
        p95_ms: percentile(lat, 0.95),
        p99_ms: percentile(lat, 0.99),
        post_p50_ms: median(posts),
        post_p99_ms: percentile(posts, 0.99),
        post_p50_steady_ms: median(steady),
        post_p99_steady_ms: percentile(steady, 0.99),
        healthz_probe_p50_ms: median(cell.probes),
        healthz_probe_p99_ms: percentile(cell.probes, 0.99),
        polls_per_pdf: polls,
        pdfs: cell.samples.length,
        stages_median_ms: { post: st("post"), queued: st("queued"), render: st("render"), notice: st("notice"), fetch: st("fetch") },
        cpu_ms_per_pdf: Object.fromEntries(Object.entries(cell.cpuMs).map(([k, v]) => [k, v / cell.pdfs])),
      };
      if (c >= 2) target(`${t.name}: service/floor throughput at c=${c}`, ratio, ">=", 0.9);
      if (c === 1) target(`${t.name}: p50 latency at c=1 (ms) vs floor p50 ${fmt(floorP50)} + 15`, median(lat), "<=", floorP50 + 15);
    }
    tj.service_peak_rss_mib = peakSvc;
    if (f.naive.times.length) {
      const nr = median(f.naive.rounds);
      out.push(
        `${padR(t.name, 12)} ${padR("naive", 8)} ${pad(1, 3)} ${pad(f.naive.times.length, 5)} ${pad(fmt(nr, 2), 7)} ${pad(fmt(nr / floorRate, 2), 6)} ${pad(fmt(median(f.naive.times)), 7)} ${pad(fmt(percentile(f.naive.times, 0.95)), 7)} ${pad(fmt(percentile(f.naive.times, 0.99)), 7)} ${pad("", 13)} ${pad("", 5)} ${pad("", 8)}`,
      );
      tj.naive = { pdfs_per_s: nr, ratio_to_floor: nr / floorRate, per_round: f.naive.rounds, p50_ms: median(f.naive.times), p95_ms: percentile(f.naive.times, 0.95), pdfs: f.naive.times.length };
    }
    (json.templates as Record<string, unknown>)[t.name] = tj;
  }
  if (allSaturatedPosts.length) target(`POST p99 at c=${topC} while the renderer is saturated (ms)`, percentile(allSaturatedPosts, 0.99), "<", 20);

  // Diagnostics: where the time and the CPU go.
  out.push("");
  out.push("where the time goes: median ms per PDF by stage (POST; queued = started_at - created_at; render = finished_at - started_at, EJS + print;");
  out.push("notice = finished -> download answered 200; fetch = link -> last byte) and CPU ms per PDF (service tree by process kind, floor = its Chromium +");
  out.push("this process driving it; 'work' = server + sandbox + chrome for the service, chrome + driver for the floor; floor/svc = work ratio; client = this bench's HTTP client):");
  const dh = `${padR("template", 12)} ${padR("side", 8)} ${pad("c", 3)} ${pad("POST", 6)} ${pad("queued", 7)} ${pad("render", 7)} ${pad("notice", 7)} ${pad("fetch", 6)} | ${pad("server", 7)} ${pad("sandbox", 7)} ${pad("chrome", 7)} ${pad("work", 7)} ${pad("floor/svc", 9)} ${pad("client", 7)}`;
  out.push(dh);
  const cpuJson: Record<string, unknown> = {};
  for (const t of TEMPLATES) {
    const f = figs.get(t.name)!;
    const nFloor = f.floor.times.length;
    const floorWork = (f.floor.cpuMs.chromium + f.floor.cpuMs.client) / nFloor;
    out.push(
      `${padR(t.name, 12)} ${padR("floor", 8)} ${pad(1, 3)} ${pad("", 6)} ${pad("", 7)} ${pad(fmt(median(f.floor.times)), 7)} ${pad("", 7)} ${pad("", 6)} | ${pad(fmt(f.floor.cpuMs.client / nFloor), 7)} ${pad("", 7)} ${pad(fmt(f.floor.cpuMs.chromium / nFloor), 7)} ${pad(fmt(floorWork), 7)} ${pad("1.00", 9)} ${pad("", 7)}`,
    );
    cpuJson[t.name] = { floor: { chromium: f.floor.cpuMs.chromium / nFloor, driver: f.floor.cpuMs.client / nFloor, work: floorWork } };
    for (const [c, cell] of f.service) {
      const st = (k: keyof Stages) => fmt(median(cell.stages.map((s) => s[k])));
      const per = (k: Kind | "client") => cell.cpuMs[k] / cell.pdfs;
      const work = per("server") + per("sandbox") + per("chromium") + per("other");
      out.push(
        `${padR(t.name, 12)} ${padR("service", 8)} ${pad(c, 3)} ${pad(st("post"), 6)} ${pad(st("queued"), 7)} ${pad(st("render"), 7)} ${pad(st("notice"), 7)} ${pad(st("fetch"), 6)} | ${pad(fmt(per("server")), 7)} ${pad(fmt(per("sandbox")), 7)} ${pad(fmt(per("chromium")), 7)} ${pad(fmt(work), 7)} ${pad(fmt(floorWork / work, 2), 9)} ${pad(fmt(per("client")), 7)}`,
      );
      (cpuJson[t.name] as Record<string, unknown>)[`service_c${c}`] = { server: per("server"), sandbox: per("sandbox"), chromium: per("chromium"), other: per("other"), work, floor_over_service: floorWork / work, client: per("client") };
    }
  }
  json.cpu_ms_per_pdf = cpuJson;

  out.push("");
  const serviceRunsPeak = (m: Map<string, number>) => Math.max(0, ...[...m].filter(([k]) => k.endsWith("/service")).map(([, v]) => v)) / MiB;
  const peakAll = serviceRunsPeak(sampler.phasePeak);
  const peakAllPss = serviceRunsPeak(sampler.phasePeakPss);
  out.push(
    `memory of the service tree (server + EJS sandboxes + Chromium), sum of RSS every 100 ms: idle after warm-up ${fmt(idleBytes / MiB, 0)} MiB, peak during service runs ${fmt(peakAll, 0)} MiB, peak over the run ${fmt(sampler.peakBytes / MiB, 0)} MiB` +
      `\n  (RSS counts Chromium's shared pages once per process; PSS, every 1 s: idle ${fmt(idlePss / MiB, 0)} MiB, peak during service runs ${fmt(peakAllPss, 0)} MiB)`,
  );
  json.memory = {
    rss_idle_mib: idleBytes / MiB,
    rss_peak_service_runs_mib: peakAll,
    rss_peak_run_mib: sampler.peakBytes / MiB,
    rss_per_phase_mib: Object.fromEntries([...sampler.phasePeak].map(([k, v]) => [k, v / MiB])),
    pss_idle_mib: idlePss / MiB,
    pss_peak_service_runs_mib: peakAllPss,
    pss_per_phase_mib: Object.fromEntries([...sampler.phasePeakPss].map(([k, v]) => [k, v / MiB])),
  };
  if (allPostsTop.length) {
    out.push(
      `submit: POST at c=${topC}: p50 ${fmt(median(allPostsTop))} ms, p99 ${fmt(percentile(allPostsTop, 0.99))} ms over all ${allPostsTop.length} POSTs; p50 ${fmt(median(allSaturatedPosts))} ms, p99 ${fmt(percentile(allSaturatedPosts, 0.99))} ms over the ${allSaturatedPosts.length} sent while the renderer was busy;` +
        `\n  GET /healthz probed every 50 ms during the same runs: p50 ${fmt(median(probesTop))} ms, p99 ${fmt(percentile(probesTop, 0.99))} ms (${probesTop.length} probes; what any request waits on this machine then);` +
        `\n  this bench's own event-loop lag then: p50 ${fmt(median(lagTop))} ms, p99 ${fmt(percentile(lagTop, 0.99))} ms (client-side share of those latencies)`,
    );
    json.submit = {
      concurrency: topC,
      p50_ms: median(allPostsTop),
      p99_ms_all: percentile(allPostsTop, 0.99),
      p50_ms_saturated: median(allSaturatedPosts),
      p99_ms_saturated: percentile(allSaturatedPosts, 0.99),
      n_all: allPostsTop.length,
      n_saturated: allSaturatedPosts.length,
      healthz_probe_p50_ms: median(probesTop),
      healthz_probe_p99_ms: percentile(probesTop, 0.99),
      bench_event_loop_lag_p50_ms: median(lagTop),
      bench_event_loop_lag_p99_ms: percentile(lagTop, 0.99),
    };
  }
  if (wrk.healthz.length) {
    const h = median(wrk.healthz);
    const r = median(wrk.reports);
    out.push(`api (wrk -t2 -c16 -d${WRK_SECONDS}s, median of ${wrk.healthz.length}): GET /healthz ${fmt(h, 0)} req/s, authenticated GET /api/v1/reports ${fmt(r, 0)} req/s, ratio ${fmt(r / h, 2)}`);
    json.api = { healthz_rps: h, reports_rps: r, ratio: r / h, runs: wrk.detail };
    target("authenticated GET /api/v1/reports / GET /healthz requests/s", r / h, ">=", 0.5);
  }

  out.push("");
  for (const tg of targets) out.push(`${tg.pass ? "PASS" : "FAIL"}  ${tg.name}: ${fmt(tg.value, 2)} ${tg.op} ${fmt(tg.limit, 2)}`);
  const failed = targets.filter((t) => !t.pass).length;
  out.push(`${targets.length - failed}/${targets.length} targets met (run took ${Math.round((Date.now() - startedAt) / 1000)} s; load average now ${loadavg().map((x) => x.toFixed(2)).join(" ")})`);
  json.targets = targets;
  console.log(out.join("\n"));

  if (flags.json) {
    writeFileSync(flags.json, JSON.stringify(json, null, 2) + "\n");
    log(`figures written to ${flags.json}`);
  }
  return flags.check && failed > 0 ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (e) {
  console.error(`bench: ${(e as Error).stack ?? e}`);
  if (serviceLog) console.error(`last service log lines:\n${serviceLog}`);
} finally {
  await cleanup();
}
process.exit(code);
