// The reused pages of one Chromium ("slots"): one browser context and its pages, each with its own CDP
// session, handed out one report at a time and readied (or replaced) after each report. A page is reset
// between reports instead of being created per report, which is what makes printing several times
// faster than a new page or context per document.
//
// The pages are elastic: `idlePages` stay open while the service is idle, one more opens (up to
// `pages`) whenever a report finds none free, and after `idleTrimMs` without a report the extra ones
// close. Each page is a renderer process: on the headless shell an idle one costs ~7 MiB of its own
// (USS) and ~23 MiB PSS, one that printed invoices ~40 MiB USS (`bun scripts/memory.ts`), and
// opening one adds ~30-60 ms to the report that waits for it (at a load average of ~8 on 2 cores: two
// small reports at once with one page open took 44-108 ms, one alone 11-40 ms).
//
// Why one shared context is still isolated: every report is loaded into about:blank, whose origin is
// opaque and unique per document. Chromium refuses localStorage, sessionStorage, IndexedDB, cookies,
// the Cache API (absent), SharedWorker and document.domain to an opaque origin (SecurityError), and a
// BroadcastChannel of one opaque origin reaches no other document; service workers are blocked; window
// state and frames belong to a page; a popup is closed at once. Requests to allow-listed hosts carry
// no state either: they may load subresources only (no frame or navigation of that origin, so no
// document of a real origin ever runs), and third-party cookies (all of them, here) are refused.
// tests/integration/isolation.test.ts renders reports that try every one of these channels at once.
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { withTimeout } from "../lib/supervisor";
import { blockedUrlPatterns, isRequestAllowed } from "./network-policy";
import { userAgentFor } from "./print-page";

export interface Slot {
  page: Page;
  cdp: CDPSession;
  /** The page's main frame, whose document each report replaces. */
  frameId: string;
  /** Whether script execution is on in this page right now. */
  scripts: boolean;
  /** Set by the page's crash event (Inspector.targetCrashed): its renderer process is gone. */
  crashed: boolean;
}

export const CLOSE_TIMEOUT_MS = 5_000;
/** Bound on any single protocol call outside the print itself: a frozen Chromium never answers. */
export const CDP_TIMEOUT_MS = 10_000;
/** Bound on opening a page slot (context, page, CDP session and its set-up calls). */
const SLOT_TIMEOUT_MS = 15_000;
/** The screen a page that runs scripts has (Playwright's default, what templates have always seen). */
export const SCRIPT_VIEWPORT = { width: 1280, height: 720 };
/** The screen of a page that runs no script: see setScripts. */
export const PRINT_ONLY_VIEWPORT = { width: 10, height: 10 };
/** Without a report for this long, the pages beyond `idlePages` close. */
export const PAGES_IDLE_TRIM_MS = 20_000;
export interface PageSlotsOptions {
  /** Most pages open at once (concurrent prints). */
  pages: number;
  /** Pages kept open while idle (at most `pages`). */
  idlePages: number;
  /** Quiet time after which the pages beyond idlePages close (PAGES_IDLE_TRIM_MS; tests shorten it). */
  idleTrimMs?: number;
  allowHosts: string[];
  /** True once this Chromium is gone or closing: a page that fails to open then is no news. */
  gone: () => boolean;
  /** This Chromium works on with fewer pages than it should: its owner replaces it as planned. */
  onWornOut: (reason: string) => void;
  /** This Chromium never opened a page: it has not really started (its owner treats it as failed). */
  onBroken: (reason: string) => void;
}

export class PageSlots {
  /** The one context every page of this Chromium lives in (see the header). */
  private context?: BrowserContext;
  /** Pages made here (a page event for any other one is a popup, closed at once). */
  private readonly ownPages = new WeakSet<Page>();
  private readonly creatingPages = new Set<Promise<Page>>();
  private idle: Slot[] = [];
  private waiters: ((s: Slot) => void)[] = [];
  /** Pages open or opening (handed out, idle, or being replaced). */
  private count = 0;
  /** Whether a page ever opened here. */
  private opened = false;
  /** Pages grow() is opening now, not yet handed out. */
  private opening = 0;
  private trimTimer?: Timer;

  constructor(private readonly opts: PageSlotsOptions) {}

  /**
   * Opens the context and, with `firstPage`, the first page, then returns: the other pages (a renderer
   * process each, ~350 ms for the first) open meanwhile and are handed out as they come. A report that
   * comes before any page is open waits for one (acquire).
   */
  async open(browser: Browser, firstPage: boolean): Promise<void> {
    this.context = await this.newContext(browser);
    if (firstPage) {
      // Awaited: a Chromium that cannot open a page has not started.
      const first = await this.newSlot();
      this.count = 1;
      this.opened = true;
      this.handOut(first);
    }
    for (let i = this.count; i < this.warmCount; i++) this.grow();
  }

  /** Pages open or opening right now. */
  get size(): number {
    return this.count;
  }

  private get warmCount(): number {
    return Math.max(1, Math.min(this.opts.idlePages, this.opts.pages));
  }

  /** Forgets the idle pages (their Chromium is gone). */
  clear(): void {
    this.idle = [];
    clearTimeout(this.trimTimer);
  }

  acquire(): Promise<Slot> {
    this.scheduleTrim();
    const slot = this.idle.pop();
    if (slot) return Promise.resolve(slot);
    // Every page is busy: open one more if allowed (unless one opening now is not spoken for yet: at the
    // start the idle pages are still opening); the report takes whichever page is free first.
    if (this.waiters.length >= this.opening && this.count < this.opts.pages) this.grow();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Opens one more page in the background and hands it out once ready. */
  private grow(): void {
    this.count++;
    this.opening++;
    void this.newSlot().then(
      (s) => {
        this.opening--;
        this.opened = true;
        this.handOut(s);
      },
      () => {
        this.opening--;
        this.count--;
        if (this.opts.gone()) return;
        // A Chromium that never opened a page has not started: a failure (with the supervisor's backoff),
        // not a planned replacement.
        if (this.opened) this.opts.onWornOut("a page could not be opened");
        else this.opts.onBroken("Chromium could not open a page");
      },
    );
  }

  /** (Re)starts the quiet-period timer: it fires only after idleTrimMs without a report. */
  private scheduleTrim(): void {
    clearTimeout(this.trimTimer);
    this.trimTimer = setTimeout(() => void this.trim(), this.opts.idleTrimMs ?? PAGES_IDLE_TRIM_MS);
    this.trimTimer.unref?.();
  }

  /** Closes idle pages beyond the warm count (a page in use is left alone; the next quiet period gets it). */
  private async trim(): Promise<void> {
    const extra = Math.min(this.idle.length, this.count - this.warmCount);
    if (extra <= 0 || this.opts.gone()) return;
    const closing = this.idle.splice(0, extra);
    this.count -= closing.length;
    await Promise.all(closing.map((s) => withTimeout(s.page.close({ runBeforeUnload: false }), CLOSE_TIMEOUT_MS).catch(() => {})));
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
  async setScripts(slot: Slot, on: boolean): Promise<void> {
    await slot.page.setViewportSize(on ? SCRIPT_VIEWPORT : PRINT_ONLY_VIEWPORT);
    await slot.cdp.send("Emulation.setScriptExecutionDisabled", { value: !on });
    slot.scripts = on;
  }

  /**
   * Readies a page for the next report, or replaces it when it misbehaved.
   * A page where no script ran is reused as it is: the next setContent replaces its whole content.
   */
  async release(slot: Slot, healthy: boolean): Promise<void> {
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
    else {
      this.count--;
      if (!this.opts.gone()) this.opts.onWornOut("a page could not be replaced");
    }
  }

  private handOut(slot: Slot) {
    const w = this.waiters.shift();
    if (w) w(slot);
    else this.idle.push(slot);
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
