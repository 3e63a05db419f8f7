// The sides of the bench: the service as a child process and its HTTP clients (wait, poll), the floors' and
// tuned pages on Chromium of their own, one PDF on each, one measurement (c clients, n PDFs) of a side, and
// the cleanup of everything they started.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from "playwright-core";
import { freePort } from "../src/lib/ports";
import { machineCpuMs, treeOf } from "../src/lib/process-tree";
import { defaultPdfOptions } from "../src/pdf/options";
import { IGNORED_DEFAULT_ARGS } from "../src/render/browser";
import { writeFontconfig } from "../src/render/fonts";
import { PRINT_ONLY_VIEWPORT } from "../src/render/page-slots";
import { countPdfPages } from "../src/render/pdf-page-count";
import { userAgentFor } from "../src/render/print-page";
import { printParameters, printToPdf } from "../src/render/print-to-pdf";
import { type Kind, ownCpu, renice } from "./bench-cpu-pss";
import {
  CHROMIUM,
  DESKTOP_CHROMIUM,
  EXTRA_SERVE_ARGS,
  FLOOR_NICE,
  flags,
  LAUNCH_ARGS,
  POLL_MS,
  ROOT,
  SERVICE_ROOT,
  type Side,
  usage,
  WAIT_S,
} from "./bench-settings";
import type { Submission } from "./bench-templates";

// ---------------------------------------------------------------------------------------------
// Small helpers

export const now = () => performance.now();
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A PNG's signature: an image report (options.image, the invoice-png side) of one page. */
const PNG_SIGNATURE = "\x89PNG\r\n\x1a\n";

/**
 * Pages of a PDF the bench received, counted as the service counts them; refuses what is not a PDF.
 * Only up to the first %%EOF: a signed PDF's incremental update holds a second copy of the signed page.
 * A PNG (an image report of one page) is one page.
 */
function pdfPages(bytes: Uint8Array, what: string): number {
  if (Buffer.from(bytes.subarray(0, 8)).toString("latin1") === PNG_SIGNATURE) return 1;
  if (Buffer.from(bytes.subarray(0, 5)).toString("latin1") !== "%PDF-") throw new Error(`${what}: not a PDF (${bytes.length} bytes)`);
  const end = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf("%%EOF");
  return countPdfPages(end > 0 ? bytes.subarray(0, end) : bytes);
}

// ---------------------------------------------------------------------------------------------
// The service as a child process

export interface Service {
  proc: Subprocess;
  base: string;
  key: string;
  /** Its --data-dir (the delivery mode reads its SQLite file). */
  dataDir: string;
}

const cleanupTasks: (() => unknown)[] = [];
/** Runs `task` when the bench ends, however it ends (tasks run newest first). */
export const onCleanup = (task: () => unknown) => cleanupTasks.push(task);

function serviceCommand(): string[] {
  if (flags.binary) {
    const bin = join(ROOT, "dist", "reportgen");
    if (!existsSync(bin)) usage(`--binary: ${bin} does not exist (run bun run build first)`);
    return [bin];
  }
  return [process.execPath, join(SERVICE_ROOT, "src", "main.ts")];
}

/**
 * One instance of the service, on default settings but for its port, its own data dir and `args` (the
 * cluster's --database-url and --storage-url), with `env` added to this process's environment (the
 * bucket's AWS_*). A key is minted with `admin create-key` (on the instance's settings) unless one is given.
 */
export async function startService(opts: { args?: string[]; env?: Record<string, string>; key?: string } = {}): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), "reportgen-bench-"));
  cleanupTasks.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const cmd = serviceCommand();
  const args = opts.args ?? [];
  const env = { ...process.env, ...opts.env };
  let key = opts.key;
  if (key === undefined) {
    const keyProc = Bun.spawnSync([...cmd, "admin", "create-key", "--name", "bench", "--data-dir", dataDir, ...args], {
      cwd: SERVICE_ROOT,
      env,
      stderr: "pipe",
    });
    key = keyProc.stdout.toString().trim();
    if (keyProc.exitCode !== 0 || !key) throw new Error(`admin create-key failed (${keyProc.exitCode}): ${keyProc.stderr.toString()}`);
  }
  const port = await freePort();
  const logFile = join(dataDir, "service.log");
  const serve = ["serve", "--data-dir", dataDir, "--port", String(port), "--host", "127.0.0.1", ...args, ...EXTRA_SERVE_ARGS];
  const proc = Bun.spawn([...cmd, ...serve], {
    cwd: SERVICE_ROOT,
    env,
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
  return { proc, base, key, dataDir };
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

/** The service's default print options (src/pdf/options.ts) in page.pdf()'s terms, for the floors. */
const PDF_OPTIONS = {
  format: "A4",
  landscape: false,
  printBackground: true,
  scale: 1,
  margin: { top: "0", right: "0", bottom: "0", left: "0" },
  preferCSSPageSize: true,
} as const;

export interface Printed {
  ms: number;
  pages: number;
}

let nextInstance = 0;
/** The instance for the next request: a load balancer's round-robin over the cluster's instances, request by request. */
const pick = (svc: Service | Service[]): Service => (Array.isArray(svc) ? svc[nextInstance++ % svc.length]! : svc);

/**
 * One PDF through the service: POST (generate-pdf-async, or the template's own request), then the long poll (or polling), then the PDF through its link, each
 * request to the next instance when `svc` is a cluster (so the report is mostly waited for and downloaded
 * on another instance than the one it was submitted to, and rendered by whichever claimed it).
 */
export async function servicePdf(svc: Service | Service[], submit: Submission, poll: boolean): Promise<Printed> {
  const t0 = now();
  const first = pick(svc);
  const r = await fetch(`${first.base}${submit.path}`, {
    method: "POST",
    headers: { "x-api-key": first.key, "content-type": submit.contentType },
    body: submit.body,
  });
  const answer = (await r.json()) as { report_id?: string };
  if (r.status !== 202 || !answer.report_id) throw new Error(`POST ${submit.path} answered ${r.status}: ${JSON.stringify(answer)}`);
  const path = `/api/v1/reports/${answer.report_id}/download${poll ? "" : `?wait=${WAIT_S}`}`;
  let link: URL;
  for (;;) {
    if (poll) await sleep(POLL_MS);
    const to = pick(svc);
    const d = await fetch(`${to.base}${path}`, { headers: { "x-api-key": to.key } });
    if (d.status === 202) {
      await d.arrayBuffer();
      continue;
    }
    const j = (await d.json()) as { data?: string };
    if (d.status !== 200 || typeof j.data !== "string")
      throw new Error(`download of ${answer.report_id} answered ${d.status}: ${JSON.stringify(j)}`);
    link = new URL(j.data, to.base);
    break;
  }
  // The link is signed, not bound to the instance that minted it: any instance serves it.
  const f = await fetch(`${pick(svc).base}${link.pathname}${link.search}`);
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

export async function startFloors(n: number, servicePid: number): Promise<Floors> {
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

/** c clients make n calls of `one` between them, each client starting its next when its last is done. */
export async function driveClients(c: number, n: number, one: (client: number) => Promise<void>): Promise<void> {
  let started = 0;
  await Promise.all(
    Array.from({ length: c }, async (_, client) => {
      while (started < n) {
        started++;
        await one(client);
      }
    }),
  );
}

export async function measure(
  side: Side,
  c: number,
  n: number,
  tpl: { html: string; tunedHtml: string; body: Submission },
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
  const own0 = ownCpu(side, svc.proc.pid);
  const m0 = machineCpuMs();
  const t0 = now();
  await driveClients(c, n, async (client) => {
    const p = await one(client);
    latencies.push(p.ms);
    if (pages >= 0 && p.pages !== pages) throw new Error(`${side}: a PDF of ${p.pages} pages after one of ${pages}`);
    pages = p.pages;
  });
  const wall = now() - t0;
  const m1 = machineCpuMs();
  const own1 = ownCpu(side, svc.proc.pid);
  const own = Object.fromEntries((Object.keys(own0) as Kind[]).map((k) => [k, (own1[k] - own0[k]) / n])) as Record<Kind, number>;
  return { pdfsPerSec: (n * 1000) / wall, latencies, machineMsPerPdf: (m1 - m0) / n, own, pages };
}

// ---------------------------------------------------------------------------------------------
// Cleanup: what the sides started, stopped when the bench ends

let cleaning: Promise<void> | undefined;
export function cleanup(): Promise<void> {
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
