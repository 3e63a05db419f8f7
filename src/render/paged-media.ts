// options.paged_media: CSS Paged Media (@page :first/:left/:right/:blank, the 16 margin boxes,
// counter(page)/counter(pages), string-set, running elements, named pages, target-counter, footnotes)
// through Paged.js, the polyfill that lays the document out into page boxes inside the page itself.
// Chromium then prints those boxes one per sheet, at the size Paged.js gives @page.
//
// Paged.js runs in an isolated world of the page (CDP Page.createIsolatedWorld): its own globals,
// the document's DOM. The template's scripts policy is untouched: a page printed without scripts stays
// without them (Emulation.setScriptExecutionDisabled), and no handler of the template runs when
// Paged.js clones its elements into the pages; a template whose scripts may run cannot reach Paged.js's
// objects either. Chromium lets an isolated world run callbacks (TreeWalker filters, promises) where
// the main world may not, which is what makes this work on a page without scripts.
//
// Paged.js re-reads the document's stylesheets: <style> elements are read from the DOM; a <link>
// stylesheet would be fetched, which the closed network refuses, so such a document fails with
// paged_media_failed saying so, rather than printing without its CSS.
import type { CDPSession } from "playwright-core";
// The browser build of Paged.js, evaluated in the page's isolated world: embedded in the executable.
// @ts-expect-error: a .js file imported as text has no type declarations
import pagedSource from "../../node_modules/pagedjs/dist/paged.min.js" with { type: "text" };
import { RenderError } from "../lib/errors";
import type { PdfOptions } from "../pdf/options";
import type { Deadline } from "./print-page";
import { type PrintParameters, paperInches } from "./print-to-pdf";

const WORLD = "reportgen-paged-media";

/**
 * The page's default @page from the options (paper and margins), placed first so that any @page rule
 * of the template wins, as a CSS @page size wins over options.format without paged_media.
 */
export function defaultPageCss(o: PdfOptions): string {
  const paper = paperInches(o);
  const m = o.margin;
  return `@page{size:${paper.width}in ${paper.height}in;margin:${m.top} ${m.right} ${m.bottom} ${m.left}}`;
}

/** The print parameters under paged_media: Paged.js's page boxes are the sheets, at the @page size it sets. */
export function pagedPrintParameters(p: PrintParameters): PrintParameters {
  return {
    ...p,
    displayHeaderFooter: false,
    headerTemplate: "",
    footerTemplate: "",
    marginTop: 0,
    marginBottom: 0,
    marginLeft: 0,
    marginRight: 0,
    preferCSSPageSize: true,
    landscape: false,
  };
}

const LINKED = "reportgen:linked-stylesheet";

/** The script run in the isolated world: checks, adds the default @page, lays out; answers the page count. */
function layoutScript(o: PdfOptions): string {
  return `${pagedSource};(async () => {
  if (document.querySelector('link[rel~="stylesheet" i]')) throw new Error(${JSON.stringify(LINKED)});
  const style = document.createElement("style");
  style.textContent = ${JSON.stringify(defaultPageCss(o))};
  document.head.prepend(style);
  const flow = await new PagedModule.Previewer().preview();
  return flow.total;
})()`;
}

/** Lays the loaded document out with Paged.js, within the render deadline; returns the page count. */
export async function layOutPages(cdp: CDPSession, frameId: string, o: PdfOptions, deadline: Deadline): Promise<number> {
  const world = await cdp.send("Page.createIsolatedWorld", { frameId, worldName: WORLD, grantUniveralAccess: false });
  // printReport's deadline rejects a layout that runs past it (the page is then replaced); `timeout`
  // also stops a synchronous runaway inside Chromium itself.
  const left = Math.max(1, Math.floor(deadline.at - performance.now()));
  const r = await cdp.send("Runtime.evaluate", {
    contextId: world.executionContextId,
    expression: layoutScript(o),
    awaitPromise: true,
    returnByValue: true,
    timeout: left,
  });
  if (r.exceptionDetails) {
    const text = r.exceptionDetails.exception?.description?.split("\n")[0] ?? r.exceptionDetails.text;
    if (text.includes(LINKED))
      throw new RenderError(
        "paged_media_failed",
        'options.paged_media reads the document\'s stylesheets itself, and a <link rel="stylesheet"> would need the network, which reports never have: put that CSS in a <style> element',
      );
    throw new RenderError("paged_media_failed", `options.paged_media could not lay out the document: ${text}`);
  }
  return Number(r.result.value) || 0;
}
