// The ONLY module that drives Chromium. One BrowserHost owns one Chromium with a fixed set of
// reused pages in ONE browser context: a page is reset between reports instead of being created per
// report, which is what makes printing several times faster than a new page or context per document.
//
// Why one shared context is still isolated: every report is loaded into about:blank, whose origin is
// opaque and unique per document. Chromium refuses localStorage, sessionStorage, IndexedDB, cookies,
// the Cache API (absent), SharedWorker and document.domain to an opaque origin (SecurityError), and a
// BroadcastChannel of one opaque origin reaches no other document; service workers are blocked; window
// state and frames belong to a page; a popup is closed at once. Requests to allow-listed hosts carry
// no state either: they may load subresources only (no frame or navigation of that origin, so no
// document of a real origin ever runs), and third-party cookies (all of them, here) are refused.
// tests/integration/isolation.test.ts renders reports that try every one of these channels at once.
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from "playwright-core";
import { RenderError } from "../lib/errors";
import { writeDurably } from "../lib/durable-write";
import { asStorageRenderError } from "../lib/storage";
import { withTimeout } from "../lib/supervisor";
import { commandLine, findProcesses, processActivity, seemsFrozen } from "../lib/process-tree";
import { blockedUrlPatterns, closedNetworkArgs, isRequestAllowed } from "./network-policy";
import type { PdfOptions } from "./pdf-options";
import { needsScripts } from "./page-scripts";
import { rewritePdfInfo } from "./pdf-metadata";
import { printParameters, printToPdf } from "./print-to-pdf";
import { needsReadinessCheck, userAgentFor, waitUntilReady, withPrintDefaults, type Deadline } from "./print-page";

export interface BrowserOptions {
  executablePath: string;
  pages: number;
  renderTimeoutMs: number;
  maxPages: number;
  maxPdfSize: number;
  javascript: boolean;
  allowHosts: string[];
  /** The checking egress proxy, when allowHosts is not empty. */
  proxyUrl?: string;
  /** fonts.conf for Chromium (FONTCONFIG_FILE; see fonts.ts). */
  fontconfigFile?: string;
  /** Written into every PDF's Creator and Producer. */
  creator: string;
  /** Chromium's environment (its TMPDIR in particular); the current process's when not given. */
  env?: Record<string, string | undefined>;
  /** A string only this host's Chromium has in its command line (its profile folder): finds its process. */
  processTag?: string;
}

export interface RenderJob {
  html: string;
  options: PdfOptions;
  /**
   * Where the PDF goes (the report's own file, which the caller created): written and flushed to the
   * disk (fsync) before render() resolves. It is served only once the caller records the success.
   */
  outFile: string;
}

export interface RenderOutput {
  pages: number;
  bytes: number;
}

interface Slot {
  page: Page;
  cdp: CDPSession;
  /** The page's main frame, whose document each report replaces. */
  frameId: string;
  /** Whether script execution is on in this page right now. */
  scripts: boolean;
  /** Set by the page's crash event (Inspector.targetCrashed): its renderer process is gone. */
  crashed: boolean;
}

const CLOSE_TIMEOUT_MS = 5_000;
/** Bound on any single protocol call outside the print itself: a frozen Chromium never answers. */
const CDP_TIMEOUT_MS = 10_000;
/** Bound on opening a page slot (context, page, CDP session and its set-up calls). */
const SLOT_TIMEOUT_MS = 15_000;
/** The screen a page that runs scripts has (Playwright's default, what templates have always seen). */
export const SCRIPT_VIEWPORT = { width: 1280, height: 720 };
/** The screen of a page that runs no script: see setScripts. */
export const PRINT_ONLY_VIEWPORT = { width: 10, height: 10 };
/** Chromium's switches (scripts/bench.ts launches its floor with the same ones). */
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

/** Messages of the infrastructure codes: the service's fault, never the template's. */
export const INFRA_MESSAGES = {
  renderer_crashed: "Chromium stopped while printing this report; this is a fault of the service, not of the template",
  page_crashed:
    "the Chromium renderer process printing this report crashed; this is a fault of the service (or a page that exhausted Chromium's memory), not a template error",
  renderer_unresponsive: "Chromium stopped responding while printing this report; this is a fault of the service, not of the template",
} as const;

/** What a failed render ran into, as seen once it failed. */
export interface FailureContext {
  /** Chromium's connection is gone (killed, crashed, exited). */
  browserGone: boolean;
  /** The page's renderer process crashed. */
  pageCrashed: boolean;
  pageClosed: boolean;
  /** For a render_timeout: whether Chromium answered a probe right after (false: it is frozen). */
  browserResponsive?: boolean;
}

/**
 * Decides who is to blame for a failed render. Infrastructure faults (Chromium or its renderer
 * gone or frozen) are retryable and say so; the template's own faults keep their codes. Checked in
 * this order because once Chromium is gone every page also reads as closed.
 */
export function classifyRenderFailure(error: unknown, c: FailureContext): RenderError {
  if (c.browserGone) return new RenderError("renderer_crashed", INFRA_MESSAGES.renderer_crashed, true);
  if (c.pageCrashed) return new RenderError("renderer_crashed", INFRA_MESSAGES.page_crashed, true);
  if (error instanceof RenderError) {
    if (error.code === "render_timeout" && c.browserResponsive === false)
      return new RenderError("renderer_unresponsive", INFRA_MESSAGES.renderer_unresponsive, true);
    return error;
  }
  if (c.pageClosed)
    return new RenderError(
      "page_closed",
      "the page closed itself while loading (window.close() or similar); remove that call from the template",
    );
  return new RenderError(
    "render_failed",
    `Chromium failed to print the page: ${cleanDriverMessage((error as Error)?.message ?? String(error))}`,
    true,
  );
}

export class BrowserHost {
  private browser?: Browser;
  /** The one context every page of this Chromium lives in (see the header). */
  private context?: BrowserContext;
  /** Pages this host made (a page event for any other one is a popup, closed at once). */
  private readonly ownPages = new WeakSet<Page>();
  private readonly creatingPages = new Set<Promise<Page>>();
  private idle: Slot[] = [];
  private waiters: ((s: Slot) => void)[] = [];
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

  constructor(private readonly opts: BrowserOptions) {}

  async start(): Promise<void> {
    await this.launch();
  }

  async render(job: RenderJob): Promise<RenderOutput> {
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
    const slot = await this.acquire();
    let healthy = true;
    // A crashed renderer never finishes the load or the print: stop at once instead of at the deadline.
    let onCrash!: () => void;
    const crashed = new Promise<never>((_, reject) => (onCrash = () => reject(new Error("the page's renderer crashed"))));
    crashed.catch(() => {});
    slot.page.on("crash", onCrash);
    try {
      if (slot.crashed) onCrash();
      if (slot.scripts !== scripts) await withTimeout(this.setScripts(slot, scripts), CDP_TIMEOUT_MS);
      return await Promise.race([this.print(slot, job), crashed, this.disconnected]);
    } catch (e) {
      healthy = false;
      throw await this.classify(e, slot);
    } finally {
      slot.page.off("crash", onCrash);
      void this.release(slot, healthy);
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

  private async print(slot: Slot, job: RenderJob): Promise<RenderOutput> {
    const { renderTimeoutMs, maxPages, maxPdfSize } = this.opts;
    const deadlineAt = performance.now() + renderTimeoutMs;
    let timer: Timer | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new RenderError(
              "render_timeout",
              `loading and printing the page took longer than ${renderTimeoutMs} ms (runaway page JavaScript, or a very large document)`,
            ),
          ),
        renderTimeoutMs,
      );
    });
    try {
      const pdf = await Promise.race([this.load(slot, job, { at: deadlineAt, total: renderTimeoutMs }), deadline]);
      if (pdf.length > maxPdfSize) throw new RenderError("pdf_too_large", `the PDF is ${pdf.length} bytes; the limit is ${maxPdfSize}`);
      const pages = countPdfPages(pdf);
      if (pages > maxPages) throw new RenderError("too_many_pages", `the PDF has ${pages} pages; the limit is ${maxPages}`);
      try {
        writeDurably(job.outFile, pdf);
      } catch (e) {
        throw asStorageRenderError(e);
      }
      return { pages, bytes: pdf.length };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Loads the report, waits until it is ready, prints it and sets its document information. */
  private async load(slot: Slot, job: RenderJob, deadline: Deadline): Promise<Uint8Array> {
    const o = job.options;
    await this.setContent(slot, withPrintDefaults(job.html, !slot.scripts));
    const params = printParameters(o);
    // The header's "title" class shows document.title: let options.metadata.title stand in for a missing <title>.
    const titleBeforePrint = params.displayHeaderFooter && !!o.metadata.title;
    // Undefined when nothing can change after the load event: the title is then read from the PDF.
    const title = needsReadinessCheck(job.html, { scripts: slot.scripts, waitFor: o.waitFor, titleBeforePrint })
      ? await waitUntilReady(slot.cdp, o.waitFor, deadline)
      : undefined;
    if (titleBeforePrint && !title?.trim())
      await slot.cdp.send("Runtime.evaluate", { expression: `document.title = ${JSON.stringify(o.metadata.title)}` });
    let pdf: Buffer;
    try {
      pdf = await printToPdf(slot.cdp, params, job.html.length);
    } catch (e) {
      const m = cleanDriverMessage((e as Error).message);
      if (/page range/i.test(m))
        throw new RenderError(
          "invalid_page_ranges",
          `options.page_ranges ${JSON.stringify(o.pageRanges)} asks for pages the document does not have (${m})`,
        );
      throw e;
    }
    const m = o.metadata;
    const info = (documentTitle: string) => ({
      title: m.title ?? (documentTitle.trim() || undefined),
      author: m.author,
      subject: m.subject,
      keywords: m.keywords,
      creator: this.opts.creator,
      producer: this.opts.creator,
    });
    return rewritePdfInfo(pdf, title === undefined ? info : info(title));
  }

  /**
   * Replaces the page's document with the report's HTML and waits for its load event (images, fonts
   * and frames included). Playwright's page.setContent does the same document.open/write/close with a
   * few more protocol round trips: this is 5-7 ms sooner for an invoice. A hung load ends at print()'s
   * deadline, which replaces the page.
   */
  private async setContent(slot: Slot, html: string): Promise<void> {
    // The next load event on this session is this report's: release() made sure none of an earlier
    // document is still on its way.
    let onLoad!: () => void;
    let onCrash!: () => void;
    const loaded = new Promise<void>((resolve, reject) => {
      onLoad = resolve;
      onCrash = () => reject(new Error("the page crashed while loading"));
    });
    loaded.catch(() => {}); // a crash during the send below is reported by the send itself
    slot.cdp.on("Page.loadEventFired", onLoad);
    slot.page.on("crash", onCrash);
    try {
      await slot.cdp.send("Page.setDocumentContent", { frameId: slot.frameId, html });
      await loaded;
    } finally {
      slot.cdp.off("Page.loadEventFired", onLoad);
      slot.page.off("crash", onCrash);
    }
  }

  private acquire(): Promise<Slot> {
    const slot = this.idle.pop();
    if (slot) return Promise.resolve(slot);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * Switches a page between the two ways it prints. With scripts, a desktop-sized screen (scripts
   * measure it: a chart sizes itself to its container). Without, a tiny one: nothing can read the
   * screen size then, printing lays the document out again on the paper, and Chromium only rasters
   * and composites what fits on the screen. Measured on an invoice (playwright-core, one page): a
   * 10x10 screen instead of 1280x720 cut Chromium's CPU per PDF from ~46 to ~30 ms (GPU process 9.5 ->
   * 1.4 ms, renderer 18 -> 11 ms), with PDFs that render to the same pixels
   * (tests/integration/print-viewport.test.ts).
   */
  private async setScripts(slot: Slot, on: boolean): Promise<void> {
    await slot.page.setViewportSize(on ? SCRIPT_VIEWPORT : PRINT_ONLY_VIEWPORT);
    await slot.cdp.send("Emulation.setScriptExecutionDisabled", { value: !on });
    slot.scripts = on;
  }

  /**
   * Readies a page for the next report, or replaces it when it misbehaved.
   * A page where no script ran is reused as it is: the next setContent replaces its whole content.
   */
  private async release(slot: Slot, healthy: boolean): Promise<void> {
    let next: Slot | undefined = slot;
    if (healthy && slot.scripts) {
      try {
        // A fresh about:blank document drops globals, timers and listeners the scripts set;
        // window.name is the one thing that survives navigation, so clear it too.
        await withTimeout(slot.page.goto("about:blank"), CLOSE_TIMEOUT_MS);
        // Through CDP without a user gesture (page.evaluate gives one, which a popup could use).
        await withTimeout(slot.cdp.send("Runtime.evaluate", { expression: 'window.name = ""' }), CLOSE_TIMEOUT_MS);
        // Sent on the page's own CDP session, which delivers its events in order: when this answers,
        // the about:blank document's load event has been delivered too, and cannot be taken by
        // setContent for the next report's.
        await withTimeout(this.setScripts(slot, false), CDP_TIMEOUT_MS);
      } catch {
        healthy = false;
      }
    }
    if (!healthy) {
      // Only this page goes: closing a target ends its renderer even mid-loop, while the other pages
      // of the context keep printing.
      await withTimeout(slot.page.close({ runBeforeUnload: false }), CLOSE_TIMEOUT_MS).catch(() => {});
      next = await this.newSlot().catch(() => undefined);
    }
    if (next) this.handOut(next);
    else if (!this.lost && !this.closed) this.onWornOut?.("a page could not be replaced");
  }

  private handOut(slot: Slot) {
    const w = this.waiters.shift();
    if (w) w(slot);
    else this.idle.push(slot);
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
    this.context = await this.newContext(browser);
    this.browserCdp = undefined;
    let onLost!: (e: Error) => void;
    this.disconnected = new Promise<never>((_, reject) => (onLost = reject));
    this.disconnected.catch(() => {});
    browser.on("disconnected", () => {
      if (this.browser !== browser || this.closed) return;
      // Chromium died under us (killed, crashed): renders in flight fail at once as the service's
      // fault, and the supervisor replaces this whole worker, Chromium's process tree included.
      this.lost = "Chromium exited unexpectedly";
      this.idle = [];
      onLost(new Error(this.lost));
      this.onFatal?.(this.lost);
    });
    const slots = await Promise.all(Array.from({ length: this.opts.pages }, () => this.newSlot()));
    for (const s of slots) this.handOut(s);
  }

  private async newContext(browser: Browser): Promise<BrowserContext> {
    // Scripts are switched per page and report (see page-scripts.ts), off to begin with.
    // Templates see a desktop Chrome user agent: "HeadlessChrome" makes some chart and font libraries
    // change behaviour, and Chromium would write it into the PDF's Creator.
    const context = await browser.newContext({
      serviceWorkers: "block",
      acceptDownloads: false,
      bypassCSP: false,
      viewport: SCRIPT_VIEWPORT,
      userAgent: userAgentFor(browser.version()),
    });
    await context.route("**/*", (route) => {
      const request = route.request();
      if (!isRequestAllowed(request.url(), this.opts.allowHosts)) return route.abort("blockedbyclient");
      // An allowed host serves subresources (images, fonts, stylesheets) only: a frame of its origin
      // would run a document with real storage shared by every page of the context.
      if (request.isNavigationRequest() && !/^(data|about|blob):/i.test(request.url())) return route.abort("blockedbyclient");
      return route.continue();
    });
    // A template's window.close() would end the reused page: make it a no-op that cannot be undone.
    await context.addInitScript(() => Object.defineProperty(window, "close", { value: () => {}, writable: false, configurable: false }));
    context.on("page", (p) => void this.closeIfPopup(p));
    return context;
  }

  /** Closes a page a report opened (window.open, target=_blank); the page event also fires for our own. */
  private async closeIfPopup(p: Page): Promise<void> {
    await Promise.allSettled([...this.creatingPages]);
    if (!this.ownPages.has(p)) await p.close().catch(() => {});
  }

  /** A new page slot, or a rejection within SLOT_TIMEOUT_MS (a frozen Chromium never answers). */
  private newSlot(): Promise<Slot> {
    return withTimeout(this.openSlot(), SLOT_TIMEOUT_MS);
  }

  private async openSlot(): Promise<Slot> {
    const context = this.context;
    if (!context) throw new Error("no browser");
    const creating = context.newPage();
    this.creatingPages.add(creating);
    let page: Page;
    try {
      page = await creating;
    } finally {
      this.creatingPages.delete(creating);
    }
    this.ownPages.add(page);
    page.on("dialog", (d) => void d.dismiss().catch(() => {}));
    const cdp = await context.newCDPSession(page);
    // Blocking applies only while this session has the Network domain on; bodies need no buffer here.
    await cdp.send("Network.enable", { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
    await cdp.send("Network.setBlockedURLs", { urls: blockedUrlPatterns(this.opts.allowHosts) });
    // Every request of an about:blank report is third-party: refusing third-party cookies means an
    // allow-listed host's cookie, set during one report, is never sent for another.
    await cdp.send("Network.setCookieControls", { enableThirdPartyCookieRestriction: true });
    await cdp.send("Page.enable"); // for Page.loadEventFired (see setContent)
    const { frameTree } = await cdp.send("Page.getFrameTree");
    const slot: Slot = { page, cdp, frameId: frameTree.frame.id, scripts: true, crashed: false };
    page.on("crash", () => (slot.crashed = true));
    await this.setScripts(slot, false);
    return slot;
  }
}

/**
 * Counts page objects in a PDF written by Chromium (Skia writes them uncompressed). Stream bodies
 * (binary) and then literal strings are removed first: a title or link is written as text and could
 * otherwise spell "/Type /Page". (Skia escapes parentheses inside strings.)
 */
export function countPdfPages(pdf: Uint8Array): number {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString("latin1");
  return (
    text
      .replace(/\bstream\r?\n[\s\S]*?\bendstream\b/g, "")
      .replace(/\((?:\\[\s\S]|[^\\)])*\)/g, "()")
      .match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0
  );
}

/** Playwright's error text without terminal colours and its call log: what a client can be shown. */
export function cleanDriverMessage(message: string): string {
  return message
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split(/\n\s*Call log:/)[0]!
    .split("\n")[0]!
    .trim()
    .slice(0, 300);
}
