// What a failed browser test leaves in the log, for the e2e flake (docs/development.md, "The e2e
// flake"): a locator that finds nothing of a page Chromium received waits on something inside
// playwright-core, and Playwright's error names only the selector. For every open page this prints
// Playwright's own view (the main frame's document, the execution contexts its locators wait for, the
// DevTools calls still unanswered) beside Chromium's (frame tree, the contexts it has, the document's
// URL and text, asked over a DevTools session of its own), and the navigation and context events
// Playwright's page session received. Reading playwright-core's server objects works because the
// driver runs in this process (its in-process connection's toImpl); a field that a new version renames
// prints as "?", never fails the dump.
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";

/** Events kept per page: a failing step is the last few navigations. */
const KEPT = 80;
const traces = new WeakMap<object, string[]>();
const live = new Set<Browser>();
const t0 = performance.now();

// playwright-core's server objects have no public types.
type Impl = any;

function serverSide(x: Page | BrowserContext): Impl | undefined {
  try {
    return (x as Impl)._connection?.toImpl?.(x);
  } catch {
    return undefined;
  }
}

const stamp = () => `${((performance.now() - t0) / 1000).toFixed(3)}s`;

/** Records what Playwright's own DevTools session of the page receives about navigations and contexts. */
function tracePage(page: Page): void {
  const impl = serverSide(page);
  const client = impl?.delegate?._mainFrameSession?._client;
  if (!client || traces.has(impl)) return;
  const log: string[] = [];
  traces.set(impl, log);
  const note = (line: string) => {
    log.push(`${stamp()} ${line}`);
    if (log.length > KEPT) log.shift();
  };
  const on = (event: string, describe: (e: Impl) => string | undefined) =>
    client.on(event, (e: Impl) => {
      const text = describe(e);
      if (text !== undefined) note(`${event} ${text}`);
    });
  on("Page.frameRequestedNavigation", (e) => `${e.frameId} ${e.reason} ${e.disposition} ${e.url}`);
  on("Page.frameStartedNavigating", (e) => `${e.frameId} ${e.navigationType} loader=${e.loaderId} ${e.url}`);
  on("Page.frameNavigated", (e) => `${e.frame.id} loader=${e.frame.loaderId} ${e.type ?? ""} ${e.frame.url}`);
  on("Page.navigatedWithinDocument", (e) => `${e.frameId} ${e.url}`);
  // The paint events only crowd out the ones that matter.
  on("Page.lifecycleEvent", (e) => (/paint/i.test(e.name) ? undefined : `${e.frameId} ${e.name} loader=${e.loaderId}`));
  on("Runtime.executionContextCreated", (e) => `id=${e.context.id} ${e.context.name || "(main)"} frame=${e.context.auxData?.frameId}`);
  on("Runtime.executionContextDestroyed", (e) => `id=${e.executionContextId}`);
  on("Runtime.executionContextsCleared", () => "");
  on("Inspector.targetCrashed", () => "");
  on("Inspector.detached", (e) => e.reason);
}

/**
 * Watches every page of the browser's contexts from its first navigation on. Wraps newContext (the
 * tests create contexts in many ways, Watched.open or directly) rather than asking each test to call it.
 */
export function traceBrowser(browser: Browser): void {
  live.add(browser);
  browser.on("disconnected", () => live.delete(browser));
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser["newContext"]>) => {
    const context = await newContext(...args);
    context.on("page", tracePage);
    return context;
  };
}

export function untraceBrowser(browser: Browser): void {
  live.delete(browser);
}

function within<T>(ms: number, p: Promise<T>): Promise<T | string> {
  return Promise.race([p, Bun.sleep(ms).then(() => `no answer within ${ms} ms`)]).catch(
    (e: Error) => `failed: ${e.message.split("\n")[0]}`,
  );
}

function playwrightView(page: Page): string[] {
  const impl = serverSide(page);
  if (!impl) return ["playwright: server objects not reachable"];
  try {
    const frame = impl.mainFrame();
    const session = impl.delegate?._mainFrameSession;
    const world = (name: string) => {
      const data = frame._contextData?.get(name);
      if (!data) return "?";
      return data.context ? `context ${data.context.delegate?._contextId ?? "?"}` : "NONE (a locator waits for one)";
    };
    const pending = [...(session?._client?._callbacks?.entries() ?? [])].map(([id, cb]: [number, Impl]) => `${id}:${cb.error?.method}`);
    return [
      `playwright: main frame ${frame._id} url=${frame._url} document=${frame._currentDocument?.documentId ?? "-"} pending document=${
        frame._pendingDocument?.documentId ?? "-"
      } lifecycle=[${[...(frame._firedLifecycleEvents ?? [])].join(",")}]`,
      `playwright: main world ${world("main")}; utility world ${world("utility")}; contexts it knows: [${[
        ...(session?._contextIdToContext?.keys() ?? []),
      ].join(",")}]`,
      `playwright: DevTools calls of the page session unanswered: [${pending.join(", ")}] (last id sent on the connection: ${
        session?._client?._connection?._lastId ?? "?"
      })`,
      ...(traces.get(impl) ?? ["(no trace of this page)"]).map((l) => `  event ${l}`),
    ];
  } catch (e) {
    return [`playwright: reading its state failed: ${(e as Error).message}`];
  }
}

async function chromiumView(page: Page): Promise<string[]> {
  let cdp: CDPSession | undefined;
  const lines: string[] = [];
  try {
    cdp = await page.context().newCDPSession(page);
    const session = cdp;
    const contexts: string[] = [];
    session.on("Runtime.executionContextCreated", (e) =>
      contexts.push(`id=${e.context.id} ${e.context.name || "(main)"} frame=${(e.context.auxData as Impl)?.frameId}`),
    );
    const enabled = await within(5000, session.send("Runtime.enable"));
    lines.push(`chromium: contexts ${typeof enabled === "string" ? enabled : `[${contexts.join("; ")}]`}`);
    const tree = await within(5000, session.send("Page.getFrameTree"));
    lines.push(
      `chromium: main frame ${typeof tree === "string" ? tree : `${tree.frameTree.frame.id} loader=${tree.frameTree.frame.loaderId} ${tree.frameTree.frame.url}`}`,
    );
    const history = await within(5000, session.send("Page.getNavigationHistory"));
    if (typeof history !== "string") {
      lines.push(`chromium: history ${history.entries.map((h, i) => `${i === history.currentIndex ? "*" : ""}${h.url}`).join(" ")}`);
    }
    // The DOM domain answers even when the context runs no scripts (javaScriptEnabled: false).
    const doc = await within(5000, session.send("DOM.getDocument", { depth: 0 }));
    if (typeof doc === "string") lines.push(`chromium: document ${doc}`);
    else {
      const html = await within(5000, session.send("DOM.getOuterHTML", { nodeId: doc.root.nodeId }));
      const text = typeof html === "string" ? html : html.outerHTML.replace(/\s+/g, " ");
      lines.push(`chromium: document ${doc.root.documentURL} (${text.length} chars) ${text.slice(0, 1500)}`);
    }
  } catch (e) {
    lines.push(`chromium: asking failed: ${(e as Error).message.split("\n")[0]}`);
  } finally {
    await cdp?.detach().catch(() => {});
  }
  return lines;
}

/** Prints both views of every open page of every browser the harness started. Never throws. */
export async function dumpBrowsers(why: string): Promise<void> {
  const out: string[] = [`--- e2e diagnosis (${why}) at ${stamp()} ---`];
  for (const browser of live) {
    for (const [c, context] of browser.contexts().entries()) {
      for (const [p, page] of context.pages().entries()) {
        out.push(`context ${c} page ${p}: ${page.url()} (closed: ${page.isClosed()}; frames: ${page.frames().length})`);
        out.push(...playwrightView(page));
        if (!page.isClosed()) out.push(...(await chromiumView(page)));
      }
    }
  }
  out.push("--- end of e2e diagnosis ---");
  console.error(out.join("\n"));
}
