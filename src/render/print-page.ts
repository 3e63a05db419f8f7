// What happens to a report's page between loading and printing: default print CSS, the user agent
// templates see, and readiness (options.wait_for, web fonts).
import type { CDPSession } from "playwright-core";
import { RenderError } from "../lib/errors";
import type { WaitFor } from "../pdf/options";

/**
 * Print defaults every report gets. `:where()` gives them no specificity and they come first in the
 * document, so any rule of the template's own wins (e.g. `tr { break-inside: auto }`).
 * - Table headers and footers repeat on every page, and a table row is never split across two pages.
 * - No synthetic bold: where the font of a script has no bold face (CJK, and the fallback fonts Chromium
 *   picks for Arabic, Hebrew, Devanagari, Thai), Skia prints emboldened glyphs as Type 3 fonts. Such text
 *   prints in the regular weight instead; `font-synthesis: weight` in a template brings it back.
 */
export const PRINT_DEFAULTS_CSS =
  ":where(:root){font-synthesis-weight:none}:where(thead){display:table-header-group}:where(tfoot){display:table-footer-group}:where(tr){break-inside:avoid}";

const styleTag = (css: string) => `<style data-reportgen-print-defaults>${css}</style>`;
const STYLE = styleTag(PRINT_DEFAULTS_CSS);

/**
 * For a page that only prints (no script runs in it): the document has no boxes on the screen, only on
 * paper. Loading a document ends in a layout for the screen (Blink lays out after the load event) that
 * printing throws away and redoes at the paper's size: for the 1000-row bench report that layout cost
 * ~170 ms of the renderer's ~700, and without it the report loads and prints in ~600 ms instead of ~690
 * (Chromium 156, 2 cores: load 200 -> 30 ms, print 490 -> 570 ms; reproduce with
 * `bun scripts/bench.ts --templates report-1000` against 03af5a4^ as --service-root); an invoice
 * does not change. Styles are still computed, so background images, list images, border images, masks
 * and web fonts load before the load event as they did; only the print media is laid out, and nothing
 * can read the screen. <object>, <embed>, <video> and <audio> load only once they have a box, so a
 * document with one of them keeps its screen layout. tests/integration/print-viewport.test.ts holds the
 * PDFs to the same pixels as plain playwright-core's.
 */
const SCREEN_HIDDEN = styleTag(`${PRINT_DEFAULTS_CSS}@media screen{:root{display:none!important}}`);
const NEEDS_A_SCREEN_BOX = /<(?:object|embed|video|audio|frameset)\b/i;

// A doctype (after optional BOM, whitespace and comments) must stay the first thing in the document:
// anything before it switches the page to quirks mode.
const DOCTYPE = /^(\uFEFF?(?:\s|<!--[\s\S]*?-->)*<!doctype[^>]*>)/i;

/**
 * The HTML with the print defaults inserted right after its doctype, or at its very start. The HTML
 * parser puts a leading <style> into <head> and still applies the template's own <html> attributes
 * (lang, dir), so the document is the same apart from this first stylesheet. printOnly: the page runs no
 * script, and the document needs no screen (see SCREEN_HIDDEN).
 */
export function withPrintDefaults(html: string, printOnly = false): string {
  const style = printOnly && !NEEDS_A_SCREEN_BOX.test(html) ? SCREEN_HIDDEN : STYLE;
  const m = DOCTYPE.exec(html);
  return m ? m[1]! + style + html.slice(m[1]!.length) : style + html;
}

/** The user agent of a desktop Chrome of this version: "Chrome/156.0.0.0", not "HeadlessChrome". */
export function userAgentFor(browserVersion: string): string {
  const major = /^\d+/.exec(browserVersion)?.[0] ?? "0";
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

/** When the render deadline falls (performance.now() ms), and the whole render timeout. */
export interface Deadline {
  at: number;
  total: number;
}

/**
 * Something on the page may still change between its load event and the print: a web font (an
 * @font-face, a stylesheet it links or imports, or a CSS escape in an at-rule that could spell one),
 * or a title Chromium would write like a missing one ("about:blank", see readPdfTitle).
 */
const MAY_CHANGE_AFTER_LOAD = /font-face|@import|<link\b|@[\w-]*\\|about:blank/i;

/**
 * Whether to ask the page before printing (waitUntilReady: wait_for, document.fonts.ready and the
 * title, one more CDP round trip after the load event, about a millisecond of an invoice's latency at
 * c=1 (`bun scripts/bench.ts --templates invoice-ejs --concurrency 1` shows it). Not needed
 * when no script runs, nothing waits for a condition, the header does not need the title first, and
 * no web font can start loading after the load event: document.fonts.ready then has nothing to wait
 * for, and the title is the one Chromium writes into the PDF. tests/integration/pdf-options.test.ts
 * holds fonts and titles to what the page shows.
 */
export function needsReadinessCheck(html: string, o: { scripts: boolean; waitFor?: WaitFor; titleBeforePrint: boolean }): boolean {
  return o.scripts || o.waitFor !== undefined || o.titleBeforePrint || MAY_CHANGE_AFTER_LOAD.test(html);
}

/** Share of the render timeout kept for printing: readiness may not use it. */
const PRINT_SHARE = 0.2;
const POLL_MS = 50;

/**
 * Waits until the page is ready to print: options.wait_for if any, then web fonts (document.fonts.ready,
 * always). Returns the document's title. CDP evaluation runs whether or not the page's own scripts may.
 * Fails with readiness_timeout when wait_for does not hold before the render deadline (less the time
 * kept for printing).
 */
export async function waitUntilReady(cdp: CDPSession, waitFor: WaitFor | undefined, deadline: Deadline): Promise<string> {
  const until = deadline.at - deadline.total * PRINT_SHARE;
  if (waitFor) await waitForCondition(cdp, waitFor, until);
  const r = await cdp.send("Runtime.evaluate", {
    expression: "document.fonts.ready.then(() => document.title)",
    awaitPromise: true,
    returnByValue: true,
  });
  return typeof r.result.value === "string" ? r.result.value : "";
}

async function waitForCondition(cdp: CDPSession, w: WaitFor, until: number): Promise<void> {
  if ("delayMs" in w) {
    if (performance.now() + w.delayMs > until) {
      throw new RenderError(
        "readiness_timeout",
        `options.wait_for.delay_ms (${w.delayMs} ms) does not fit in the render deadline (--render-timeout, less a fifth kept for printing); wait less`,
      );
    }
    return Bun.sleep(w.delayMs);
  }
  const [what, expression] =
    "selector" in w
      ? [
          `no element matches options.wait_for.selector ${JSON.stringify(w.selector)}`,
          `!!document.querySelector(${JSON.stringify(w.selector)})`,
        ]
      : [`options.wait_for.expression ${JSON.stringify(w.expression)} never became true`, `!!(${w.expression})`];
  let lastError = "";
  for (;;) {
    const left = until - performance.now();
    // A runaway expression is stopped by Chromium after the time left.
    const r = await cdp.send("Runtime.evaluate", { expression, returnByValue: true, timeout: Math.max(1, Math.floor(left)) });
    if (r.exceptionDetails) {
      lastError = r.exceptionDetails.exception?.description?.split("\n")[0] ?? r.exceptionDetails.text;
      // A selector or expression that cannot even be parsed will never hold: fail now.
      if (/SyntaxError|is not a valid selector/.test(lastError)) throw new RenderError("readiness_timeout", `${what}: ${lastError}`);
    } else if (r.result.value === true) return;
    if (performance.now() + POLL_MS > until) {
      throw new RenderError(
        "readiness_timeout",
        `${what} before the render deadline (--render-timeout, less a fifth kept for printing)${lastError ? `; last error: ${lastError}` : ""}. Make the page reach that state sooner, or fix the condition`,
      );
    }
    await Bun.sleep(POLL_MS);
  }
}
