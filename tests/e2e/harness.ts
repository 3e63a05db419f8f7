// The e2e harness: the compiled executable on real HTTP and SQLite, and Debian's Chromium driven by
// playwright-core. Every dashboard page it opens is checked for the CSP header, console errors and
// requests to any other origin.

import { test as bunTest, expect, type TestOptions } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { repoRoot, runCli, type ServerProcess, startServer } from "../helpers/process";
import { dumpBrowsers, traceBrowser, untraceBrowser } from "./diagnose";

export const screenshots = join(import.meta.dir, "screenshots");

/**
 * `test` for the browser tests: each is tried once more before it counts as failed. Three CI runs of
 * the whole suite in one bun process saw a read right after a form's 4xx page time out on a page
 * Chromium had received: it was awaited through bun's expect(promise).resolves, which delays what
 * playwright-core's pipe delivers (docs/development.md, "The e2e flake"; tests/unit/browser-test-waits
 * .test.ts now forbids it). The retry stays until CI shows that cause was the only one. A failed try
 * prints what Playwright and Chromium each hold of every open page (diagnose.ts).
 */
export function test(name: string, fn: () => Promise<void>, options?: number | TestOptions): void {
  const diagnosed = async () => {
    try {
      await fn();
    } catch (e) {
      await dumpBrowsers(`${name}: ${(e as Error).message?.split("\n")[0]}`);
      throw e;
    }
  };
  bunTest(name, diagnosed, { retry: 1, ...(typeof options === "number" ? { timeout: options } : options) });
}
export const viewports = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } };

export interface Harness {
  binary: string;
  dataDir: string;
  server: ServerProcess;
  browser: Browser;
  /** The first key, minted with the CLI, as an operator does. */
  adminKey: string;
  cleanup: () => Promise<void>;
}

export async function startHarness(extraArgs: string[] = []): Promise<Harness> {
  const work = mkdtempSync(join(tmpdir(), "reportgen-e2e-"));
  const binary = join(work, "reportgen");
  const build = Bun.spawnSync([process.execPath, join(repoRoot, "scripts", "build.ts"), binary], { cwd: repoRoot });
  expect(build.exitCode, build.stderr.toString()).toBe(0);
  console.error(`e2e binary: ${(statSync(binary).size / 1024 / 1024).toFixed(1)} MB`);
  const dataDir = join(work, "data");
  const minted = runCli([binary], ["admin", "create-key", "--name", "operator", "--account", "acme", "--data-dir", dataDir], work);
  expect(minted.code, minted.stderr).toBe(0);
  const server = await startServer([binary], dataDir, { cwd: work, extraArgs });
  const browser = await chromium.launch({
    executablePath: "/usr/lib/chromium/chromium",
    chromiumSandbox: process.getuid?.() !== 0,
    args: ["--disable-dev-shm-usage", "--disable-gpu"],
  });
  traceBrowser(browser);
  mkdirSync(screenshots, { recursive: true });
  return {
    binary,
    dataDir,
    server,
    browser,
    adminKey: minted.stdout.trim(),
    cleanup: async () => {
      untraceBrowser(browser);
      await browser.close().catch(() => {});
      if (server.proc.exitCode === null) {
        server.proc.kill("SIGTERM");
        await server.proc.exited;
      }
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** A response as the browser saw it (from the DevTools protocol). */
export interface Seen {
  url: string;
  status: number;
  mimeType: string;
  /** Resource type: Document, Script, Stylesheet, Fetch, … */
  type: string;
  headers: Record<string, string>;
}

/**
 * Records a page's network through its own DevTools session rather than Playwright's request and
 * response events: those events, under Bun, once in a few runs failed inside playwright-core
 * ("Cannot find parent object request@… to create response@…") and took the rest of the file down.
 */
export async function networkLog(context: BrowserContext, page: Page, base: string) {
  const log = { responses: [] as Seen[], foreign: [] as string[] };
  const cdp = await context.newCDPSession(page);
  cdp.on("Network.requestWillBeSent", (e) => {
    const url = e.request.url;
    if (/^https?:/.test(url) && new URL(url).origin !== base) log.foreign.push(url);
  });
  cdp.on("Network.responseReceived", (e) => {
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    log.responses.push({ url: e.response.url, status: e.response.status, mimeType: e.response.mimeType, type: e.type, headers });
  });
  await cdp.send("Network.enable");
  return log;
}

/** A browser context whose page is watched; `check()` fails on what was seen. */
export class Watched {
  readonly consoleErrors: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly base: string,
    private readonly net: Awaited<ReturnType<typeof networkLog>>,
  ) {
    page.on("console", (m) => m.type() === "error" && this.consoleErrors.push(`${page.url()}: ${m.text()}`));
    page.on("pageerror", (e) => this.consoleErrors.push(`${page.url()}: ${e.message}`));
  }

  static async open(h: Harness, viewport = viewports.desktop): Promise<Watched> {
    const context = await h.browser.newContext({ viewport, baseURL: h.server.baseUrl });
    const page = await context.newPage();
    return new Watched(context, page, h.server.baseUrl, await networkLog(context, page, h.server.baseUrl));
  }

  /** Every response the page received, in order. */
  get responses(): Seen[] {
    return this.net.responses;
  }

  /** The documents (pages) of the dashboard that were shown. */
  get documents(): Seen[] {
    return this.net.responses.filter((r) => r.type === "Document" && r.url.startsWith(`${this.base}/dashboard`));
  }

  /** Every dashboard page shown so far had the CSP and companions; no console error; no foreign request. */
  check(): void {
    expect(this.documents.length).toBeGreaterThan(0);
    for (const r of this.documents) {
      const csp = r.headers["content-security-policy"] ?? "";
      expect(csp, r.url).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).not.toContain("unsafe-eval");
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
      expect(r.headers["referrer-policy"]).toBeTruthy();
    }
    expect(this.consoleErrors).toEqual([]);
    expect(this.net.foreign).toEqual([]);
  }

  /**
   * Drops Chromium's own log line for an HTTP error status the test provoked on purpose (a refused
   * sign-in, a 404 page); any other console error still fails check().
   */
  async forgiveStatus(...codes: number[]): Promise<void> {
    const forgiven = (m: string) => codes.some((c) => m.includes(`Failed to load resource: the server responded with a status of ${c}`));
    // The console event can trail the page's load on a busy machine.
    for (let i = 0; i < 50 && !this.consoleErrors.some(forgiven); i++) await Bun.sleep(100);
    const kept = this.consoleErrors.filter((m) => !forgiven(m));
    expect(kept.length).toBeLessThan(this.consoleErrors.length);
    this.consoleErrors.splice(0, this.consoleErrors.length, ...kept);
  }

  /**
   * Screenshots of the current page at desktop and phone width, for people to look at: they assert
   * nothing, so a screenshot that does not come (Playwright waits for fonts first, and on a fresh,
   * busy CI machine that wait once ran past its 30 s) is reported and skipped, not a failed test.
   */
  async shoot(name: string): Promise<void> {
    const size = this.page.viewportSize();
    for (const [label, vp] of Object.entries(viewports)) {
      await this.page.setViewportSize(vp);
      const path = join(screenshots, `${name}-${label}.png`);
      // Whole pages, cut at 2400 px so a long list stays a small file.
      const height = Math.min(2400, await this.page.evaluate(() => document.documentElement.scrollHeight));
      await this.page
        .screenshot({ path, fullPage: true, clip: { x: 0, y: 0, width: vp.width, height }, timeout: 10_000 })
        .catch((e: Error) => console.error(`screenshot ${name}-${label} skipped: ${e.message.split("\n")[0]}`));
    }
    if (size) {
      await this.page.setViewportSize(size);
      // The page must be laid out at its own size again before the test clicks anything: a click sent
      // right after the resize can be aimed at the phone layout's coordinates.
      await this.page.waitForFunction((w) => window.innerWidth === w, size.width);
      await this.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    }
  }

  async signIn(key: string): Promise<void> {
    await this.page.goto("/dashboard");
    await this.page.getByLabel("Access key").fill(key);
    await this.page.getByRole("button", { name: "Sign in" }).click();
    await this.page.waitForURL(`${this.base}/dashboard`);
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}

/** The Cookie header that carries the watched context's dashboard session, for requests made outside the browser. */
export async function sessionCookie(w: Watched): Promise<string> {
  const c = (await w.context.cookies()).find((c) => c.name === "rg_session")!;
  return `rg_session=${c.value}`;
}
