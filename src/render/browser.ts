// Launch and health of one Chromium, the ONLY place that starts one: BrowserHost launches it with the
// service's switches, prints each report on one of its reused pages (page-slots.ts) through the print
// pipeline (print-pipeline.ts), tells a crash or a hang from the template's own faults
// (render-failure.ts), and reports when it should be replaced (the pool recycles it through the
// supervisor, src/render/pool.ts).
//
// Why one shared context is still isolated: every report is loaded into about:blank, whose origin is
// opaque and unique per document. Chromium refuses localStorage, sessionStorage, IndexedDB, cookies,
// the Cache API (absent), SharedWorker and document.domain to an opaque origin (SecurityError), and a
// BroadcastChannel of one opaque origin reaches no other document; service workers are blocked; window
// state and frames belong to a page; a popup is closed at once. Requests to allow-listed hosts carry
// no state either: they may load subresources only (no frame or navigation of that origin, so no
// document of a real origin ever runs), and third-party cookies (all of them, here) are refused.
// tests/integration/isolation.test.ts renders reports that try every one of these channels at once.
import { type Browser, type CDPSession, chromium } from "playwright-core";
import { RenderError } from "../lib/errors";
import { commandLine, findProcesses, processActivity, seemsFrozen } from "../lib/process-tree";
import { withTimeout } from "../lib/supervisor";
import { closedNetworkArgs } from "./network-policy";
import { needsScripts } from "./page-scripts";
import { CDP_TIMEOUT_MS, CLOSE_TIMEOUT_MS, PageSlots, type Slot } from "./page-slots";
import { printReport, type RenderJob } from "./print-pipeline";
import { classifyRenderFailure, type FailureContext } from "./render-failure";

export type { RenderJob } from "./print-pipeline";

/**
 * After a document of this many characters the page is closed and a new one opened. Blink keeps what a
 * big layout took: a page reused for every part of a chunked report grows by each part's layout, while a
 * page replaced after each big part stays at one part's size (commit a429d77 has the figures).
 * Small documents (an invoice, the 1000-row report) keep their page: a new one costs a renderer start.
 */
const REPLACE_PAGE_AFTER_HTML = 256 * 1024;

export interface BrowserOptions {
  executablePath: string;
  /** Most pages (concurrent prints) of this Chromium. */
  pages: number;
  /** Pages kept open while idle; more open under load (page-slots.ts). */
  idlePages: number;
  /** Quiet time after which the pages beyond idlePages close (tests shorten it). */
  pagesIdleTrimMs?: number;
  renderTimeoutMs: number;
  javascript: boolean;
  allowHosts: string[];
  /** The checking egress proxy, when allowHosts is not empty. */
  proxyUrl?: string;
  /**
   * Ready once Chromium is up, while its pages open (~350 ms for the first): the service's start, where
   * /readyz should not wait for them. Otherwise ready once a page is open: a replacement (a recycle, a
   * crash) takes reports at once, and they must not wait for its first page.
   */
  readyBeforePages?: boolean;
  /** fonts.conf for Chromium (FONTCONFIG_FILE; see fonts.ts). */
  fontconfigFile?: string;
  /** Written into every PDF's Creator and Producer. */
  creator: string;
  /** Chromium's environment (its TMPDIR in particular); the current process's when not given. */
  env?: Record<string, string | undefined>;
  /** A string only this host's Chromium has in its command line (its profile folder): finds its process. */
  processTag?: string;
}

/**
 * Chromium's switches (scripts/bench.ts launches its floor with the same ones). Its zygote stays even as
 * root, where there is no sandbox for it to set up: --no-zygote took 11-13 MiB off the idle tree (325-333 ->
 * 313-316 MiB) but renderers not forked from it hold ~10 MiB more each (peak of 240 invoices at c = 16:
 * 594-612 -> 601-634 MiB), and desktop Chromium, which starts a PrintCompositor process per print, then
 * exec'ed it instead of forking it (bench --quick: 115-120 -> 152-159 ms of CPU per invoice). Measured
 * 2026-12-07 with scripts/memory.ts, back to back.
 */
export function launchArgs(proxyUrl?: string): string[] {
  return [
    ...closedNetworkArgs(proxyUrl),
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--mute-audio",
    "--font-render-hinting=none",
    // The headless shell has no popup blocker (that lives in desktop Chromium's browser UI): this makes
    // window.open and target=_blank create no window and return null. Desktop Chromium ignores it.
    "--block-new-web-contents",
    // The GPU process (with --disable-gpu it only composites in software) and the network service (every
    // request of a report is intercepted anyway: network-policy.ts) run inside the browser process: two
    // processes fewer, 13 MiB less PSS idle (353 -> 340), and 4 % less service CPU per invoice in the
    // same bench run. A crash of either is then the browser's: the pool replaces the whole Chromium.
    // (Chromium keeps the last --enable-features: Playwright's two, for screenshots and a Google sign-in
    // request, are dropped; the service takes no screenshots and its Chromium has no network of its own.)
    "--in-process-gpu",
    "--enable-features=NetworkServiceInProcess2",
  ];
}

/**
 * Playwright's default switches left out. Chromium's own popup blocker stays on (Playwright turns it
 * off): a report's scripts never have a user gesture, so window.open returns null and target=_blank
 * opens nothing. With it off, four reports opening three popups each stalled every page of the
 * Chromium for 15-60 s while the driver attached to each popup before closeIfPopup could close it.
 */
export const IGNORED_DEFAULT_ARGS = ["--disable-popup-blocking"];
/** How long a render that hit its deadline waits for Chromium to answer a probe before blaming Chromium. */
const DEADLINE_PROBE_MS = 3_000;

export class BrowserHost {
  private browser?: Browser;
  private readonly slots: PageSlots;
  private closed = false;
  /** Why the current Chromium is gone, once its connection dropped without us closing it. */
  private lost?: string;
  /** Rejects when the current Chromium disconnects unexpectedly: renders in flight stop at once. */
  private disconnected: Promise<never> = new Promise<never>(() => {});
  private browserCdp?: CDPSession;
  /** Chromium's browser process, once found (see browserPid). */
  private knownPid?: { browser: Browser; pid: number };

  /** Called when this host cannot recover by itself; its owner should end the worker thread. */
  onFatal?: (reason: string) => void;
  /**
   * Called when this Chromium works on with fewer pages (one could not be replaced): its owner should
   * replace it as planned (the pool starts a new one before this one retires).
   */
  onWornOut?: (reason: string) => void;

  constructor(private readonly opts: BrowserOptions) {
    this.slots = new PageSlots({
      pages: opts.pages,
      idlePages: opts.idlePages,
      idleTrimMs: opts.pagesIdleTrimMs,
      allowHosts: opts.allowHosts,
      gone: () => !!this.lost || this.closed,
      onWornOut: (reason) => this.onWornOut?.(reason),
      onBroken: (reason) => this.onFatal?.(reason),
    });
  }

  async start(): Promise<void> {
    await this.launch();
  }

  /** Pages open or opening now (each one a renderer process). */
  get openPages(): number {
    return this.slots.size;
  }

  /** Prints one report; resolves with the PDF's bytes (the caller checks its limits and stores it). */
  async render(job: RenderJob): Promise<Uint8Array> {
    // A wait_for expression is the client's JavaScript run in the page: it needs JavaScript allowed, and
    // the page is then reset after the report like any page that ran scripts (globals it sets must not
    // reach the next report).
    const expression = job.options.waitFor !== undefined && "expression" in job.options.waitFor;
    if (expression && !this.opts.javascript) {
      throw new RenderError(
        "readiness_timeout",
        "options.wait_for.expression needs JavaScript, which this service has turned off (--javascript=false); wait for a selector or a delay instead",
      );
    }
    const scripts = this.opts.javascript && (expression || needsScripts(job.html));
    // Checked before a page is taken: a refusal must not keep a page busy forever.
    const slot = await this.slots.acquire();
    let healthy = true;
    // A crashed renderer never finishes the load or the print: stop at once instead of at the deadline.
    let onCrash!: () => void;
    const crashed = new Promise<never>((_, reject) => (onCrash = () => reject(new Error("the page's renderer crashed"))));
    crashed.catch(() => {});
    slot.page.on("crash", onCrash);
    try {
      if (slot.crashed) onCrash();
      if (slot.scripts !== scripts) await withTimeout(this.slots.setScripts(slot, scripts), CDP_TIMEOUT_MS);
      return await Promise.race([printReport(slot, job, this.opts), crashed, this.disconnected]);
    } catch (e) {
      healthy = false;
      throw await this.classify(e, slot);
    } finally {
      slot.page.off("crash", onCrash);
      // A big document leaves its renderer's heap grown for good: the page is replaced, not reused.
      void this.slots.release(slot, healthy && job.html.length < REPLACE_PAGE_AFTER_HTML);
    }
  }

  /**
   * Answers whether Chromium itself responds (CDP Browser.getVersion on the browser session, handled
   * by the browser process even while a page runs away).
   */
  async probe(timeoutMs: number): Promise<boolean> {
    const browser = this.browser;
    if (!browser?.isConnected() || this.lost) return false;
    this.browserCdp ??= await withTimeout(browser.newBrowserCDPSession(), timeoutMs);
    await withTimeout(this.browserCdp.send("Browser.getVersion"), timeoutMs);
    return true;
  }

  /**
   * probe(), but a Chromium that is slow to answer because the machine is saturated (it is runnable,
   * or used CPU time meanwhile) counts as responsive: only a stopped, gone or idle-but-silent Chromium
   * is declared frozen. Under a load average of ~40 on 2 cores, Browser.getVersion took over 3 s.
   */
  async responsive(timeoutMs: number): Promise<boolean> {
    const pid = this.browserPid();
    const before = pid ? processActivity(pid) : undefined;
    if (await this.probe(timeoutMs).catch(() => false)) return true;
    if (this.lost || !this.browser?.isConnected()) return false;
    return !seemsFrozen(before, pid ? processActivity(pid) : undefined);
  }

  /**
   * Chromium's browser process: the one with this host's tag and no --type= (its children have one).
   * Found once per launch: looking it up reads every process's command line in /proc (~1-2 ms of CPU
   * with ~60 processes, more with Chromium's), and the health probe asks every second.
   */
  private browserPid(): number | undefined {
    const tag = this.opts.processTag;
    const browser = this.browser;
    if (!tag || !browser) return undefined;
    if (this.knownPid?.browser === browser) return this.knownPid.pid;
    const pid = findProcesses(tag).find((p) => !commandLine(p).includes("--type="));
    if (pid) this.knownPid = { browser, pid };
    return pid;
  }

  private async classify(e: unknown, slot: Slot): Promise<RenderError> {
    if (!(e instanceof RenderError) && !this.lost) {
      // Playwright rejects pending calls as the pipe closes, possibly just before "disconnected" fires.
      await Promise.race([this.disconnected.catch(() => {}), Bun.sleep(200)]);
    }
    const ctx: FailureContext = {
      browserGone: !!this.lost || !this.browser?.isConnected(),
      pageCrashed: slot.crashed,
      pageClosed: slot.page.isClosed(),
    };
    if (e instanceof RenderError && e.code === "render_timeout" && !ctx.browserGone) {
      ctx.browserResponsive = await this.responsive(DEADLINE_PROBE_MS);
      if (!ctx.browserResponsive)
        this.onFatal?.("Chromium stopped responding (a render hit its deadline and Chromium did not answer a probe)");
    }
    return classifyRenderFailure(e, ctx);
  }

  async close(): Promise<void> {
    this.closed = true;
    // If Chromium does not close in time the caller ends this worker thread, and Chromium,
    // whose only link is a pipe to this thread, exits with it.
    await withTimeout(this.browser?.close() ?? Promise.resolve(), CLOSE_TIMEOUT_MS);
  }

  private async launch(): Promise<void> {
    const browser = await chromium.launch({
      executablePath: this.opts.executablePath,
      args: launchArgs(this.opts.proxyUrl),
      // Chromium's fonts come from our fontconfig file: no CFF face, TrueType CJK (fonts.ts).
      env: { ...(this.opts.env ?? process.env), ...(this.opts.fontconfigFile ? { FONTCONFIG_FILE: this.opts.fontconfigFile } : {}) },
      // Chromium's own sandbox whenever it can work: it refuses to run as root with it.
      chromiumSandbox: process.getuid?.() !== 0,
      ignoreDefaultArgs: IGNORED_DEFAULT_ARGS,
      timeout: 30_000,
    });
    this.browser = browser;
    this.browserCdp = undefined;
    let onLost!: (e: Error) => void;
    this.disconnected = new Promise<never>((_, reject) => (onLost = reject));
    this.disconnected.catch(() => {});
    browser.on("disconnected", () => {
      if (this.browser !== browser || this.closed) return;
      // Chromium died under us (killed, crashed): renders in flight fail at once as the service's
      // fault, and the supervisor replaces this whole worker, Chromium's process tree included.
      this.lost = "Chromium exited unexpectedly";
      this.slots.clear();
      onLost(new Error(this.lost));
      this.onFatal?.(this.lost);
    });
    await this.slots.open(browser, !this.opts.readyBeforePages);
  }
}
