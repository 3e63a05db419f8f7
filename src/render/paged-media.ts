// options.paged_media: CSS Paged Media (@page :first/:left/:right/:blank, the 16 margin boxes,
// counter(page)/counter(pages), string-set, running elements, named pages, target-counter, footnotes)
// through Paged.js, the polyfill that lays the document out into page boxes inside the page itself.
// Chromium then prints those boxes one per sheet, each sheet at the size of its own page box (a named
// page's `size` included).
//
// Paged.js runs in an isolated world of the page (CDP Page.createIsolatedWorld): its own globals,
// the document's DOM. The template's scripts policy is untouched: a page printed without scripts stays
// without them (Emulation.setScriptExecutionDisabled), and no handler of the template runs when
// Paged.js clones its elements into the pages; a template whose scripts may run cannot reach Paged.js's
// objects either. Chromium lets an isolated world run callbacks (TreeWalker filters, promises) where
// the main world may not, which is what makes this work on a page without scripts.
//
// Paged.js re-reads the document's stylesheets: <style> elements are read from the DOM; a <link>
// stylesheet or an @import would be fetched, which the closed network refuses, so such a document fails
// with paged_media_failed saying so, rather than printing without its CSS.
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

/**
 * Every sheet the size of its own page box. Paged.js sizes each page box from its @page rules (a named
 * page's `size` included) but every sheet, which clips its box, from the document's first @page: a
 * landscape named page was cut to a portrait sheet, losing its right-hand margin boxes and content. The
 * bleeds are Paged.js's own variables (0 without `bleed`), as in its sheet size of the document.
 */
const SHEET_CSS =
  ".pagedjs_page{--pagedjs-width:calc(var(--pagedjs-pagebox-width) + var(--pagedjs-bleed-left) + var(--pagedjs-bleed-right));" +
  "--pagedjs-height:calc(var(--pagedjs-pagebox-height) + var(--pagedjs-bleed-top) + var(--pagedjs-bleed-bottom));" +
  ["right", "left"]
    .map(
      (side) =>
        `--pagedjs-width-${side}:calc(var(--pagedjs-pagebox-width) + var(--pagedjs-bleed-${side}-left) + var(--pagedjs-bleed-${side}-right));` +
        `--pagedjs-height-${side}:calc(var(--pagedjs-pagebox-height) + var(--pagedjs-bleed-${side}-top) + var(--pagedjs-bleed-${side}-bottom));`,
    )
    .join("") +
  "}";

/**
 * Run in the page after the layout: prints each sheet at its own size. Paged.js gives Chromium one
 * @page, the document's; Chromium honours a named page's size (CSS `page`), so each distinct sheet size
 * becomes a named @page of Chromium's, and each sheet is in the one of its size (Paged.js's print CSS
 * gives a sheet 100% of the height of the page it is printed on). The sizes are the sheets' computed
 * ones, which a template's transform or zoom of the screen layout does not change.
 */
const PRINT_SIZES = `(() => {
  const names = new Map();
  for (const page of document.querySelectorAll(".pagedjs_pages > .pagedjs_page")) {
    const sheet = page.querySelector(".pagedjs_sheet");
    const r = getComputedStyle(sheet);
    const size = r.width + " " + r.height;
    if (!names.has(size)) names.set(size, "reportgen-sheet-" + names.size);
    page.style.setProperty("page", names.get(size));
  }
  const style = document.createElement("style");
  style.textContent = Array.from(names, ([size, name]) => "@page " + name + "{size:" + size + ";margin:0}").join("");
  document.head.append(style);
})()`;

/**
 * The CSS of a table of contents laid out with the document: each entry's page number is
 * target-counter() of its heading, right-aligned after a dotted leader.
 */
const TOC_CSS =
  "nav.reportgen-toc{break-before:page;break-after:page}nav.reportgen-toc ol{list-style:none;margin:0;padding:0}" +
  "nav.reportgen-toc li{margin:0 0 2.2mm;break-inside:avoid}nav.reportgen-toc a{display:flex;align-items:baseline;color:inherit;text-decoration:none}" +
  "nav.reportgen-toc .d{flex:1 1 auto;border-bottom:1px dotted #888;margin:0 2mm;min-width:8mm}" +
  "nav.reportgen-toc a::after{content:target-counter(attr(href), page);flex:0 0 auto}nav.reportgen-toc .l1{font-weight:bold}" +
  [2, 3, 4, 5, 6].map((l) => `nav.reportgen-toc .l${l}{padding-left:${(l - 1) * 6}mm}`).join("");

/**
 * Paged.js reads page breaks and named pages from stylesheets only, so `style="break-before: page"` or
 * `style="page-break-after: always"` on an element was silently ignored: the content ran on. And an
 * element on a named page that had any `style` attribute turned the page before it to that named page
 * too. So these declarations of an element's `style` become a rule keyed by a class (which also survives
 * the table of contents' second layout) in a <style> of the document's; an element on a named page
 * gives up its whole `style` that way, the other declarations `!important` so that they still win as
 * inline ones do.
 */
const INLINE_RULES = `(() => {
    const paging = new Set(["break-before", "break-after", "break-inside", "page-break-before", "page-break-after", "page-break-inside", "page"]);
    const rules = [];
    for (const e of document.body.querySelectorAll("[style]")) {
      const named = getComputedStyle(e).page !== "auto";
      const moved = Array.from(e.style).filter((p) => named || paging.has(p));
      if (moved.length === 0) continue;
      const decls = moved.map((p) => p + ":" + e.style.getPropertyValue(p) + (paging.has(p) ? "" : " !important"));
      for (const p of moved) e.style.removeProperty(p);
      if (e.style.length === 0) e.removeAttribute("style");
      e.classList.add("reportgen-inline-" + rules.length);
      rules.push(".reportgen-inline-" + rules.length + "{" + decls.join(";") + "}");
    }
    const inline = document.createElement("style");
    inline.textContent = rules.join("");
    document.head.append(inline);
  })()`;

/**
 * The script run in the isolated world: checks, adds the default @page, lays out; answers the page
 * count. With a table of contents, the document is laid out twice: once to learn which element is the
 * first to start after page 1, then again with the TOC (a <nav> of links whose numbers are
 * target-counter()) inserted before it, so that every counter (the TOC's own pages included) is Paged.js's.
 */
function layoutScript(o: PdfOptions): string {
  const toc = o.toc ? { ...o.toc, css: TOC_CSS } : null;
  return `${pagedSource};(async () => {
  if (document.querySelector('link[rel~="stylesheet" i]') || Array.from(document.querySelectorAll("style")).some((s) => /@import/i.test(s.textContent)))
    throw new Error(${JSON.stringify(LINKED)});
  const toc = ${JSON.stringify(toc)};
  const style = document.createElement("style");
  style.textContent = ${JSON.stringify(defaultPageCss(o))};
  document.head.prepend(style);
  ${INLINE_RULES};
  const sheets = [...new PagedModule.Previewer().removeStyles(), { "reportgen-sheets": ${JSON.stringify(SHEET_CSS)} }];
  let entries = [];
  if (toc) {
    const selector = Array.from({ length: toc.levels }, (_, i) => "h" + (i + 1)).join(",");
    entries = Array.from(document.body.querySelectorAll(selector)).map((h, i) => {
      if (!h.id) h.id = "reportgen-toc-" + i;
      return { id: h.id, level: Number(h.tagName[1]), title: h.textContent.replace(/\\s+/g, " ").trim() };
    });
    document.body.querySelectorAll("*").forEach((e, i) => e.setAttribute("data-rg-n", String(i)));
  }
  const source = document.body.innerHTML;
  const first = await new PagedModule.Previewer().preview(undefined, sheets);
  if (!toc) {
    ${PRINT_SIZES};
    return first.total;
  }
  const pages = document.querySelectorAll(".pagedjs_page");
  const onFirst = new Set(Array.from(pages[0] ? pages[0].querySelectorAll("[data-rg-n]") : [], (e) => e.getAttribute("data-rg-n")));
  const fresh = document.createElement("template");
  fresh.innerHTML = source;
  // The first element outside page 1, not inside a table (a TOC cannot sit between rows), as high up as
  // it starts after page 1: the TOC goes before it, or at the end of a document that fits on one page.
  let at = null;
  for (const e of fresh.content.querySelectorAll("[data-rg-n]")) {
    if (onFirst.has(e.getAttribute("data-rg-n")) || e.parentElement?.closest("table")) continue;
    at = e;
    while (at.parentElement && !onFirst.has(at.parentElement.getAttribute("data-rg-n")) && at.parentElement.hasAttribute("data-rg-n")) at = at.parentElement;
    break;
  }
  const nav = document.createElement("nav");
  nav.className = "reportgen-toc";
  const h = document.createElement("h1");
  h.textContent = toc.title;
  h.className = "reportgen-toc-title";
  const list = document.createElement("ol");
  for (const entry of entries) {
    const li = document.createElement("li");
    li.className = "l" + entry.level;
    const a = document.createElement("a");
    a.href = "#" + entry.id;
    const t = document.createElement("span");
    t.textContent = entry.title || "(untitled)";
    const d = document.createElement("span");
    d.className = "d";
    a.append(t, d);
    li.append(a);
    list.append(li);
  }
  nav.append(h, list);
  if (at) at.before(nav);
  else fresh.content.append(nav);
  for (const s of document.querySelectorAll("style")) s.remove();
  document.body.replaceChildren(fresh.content);
  const second = await new PagedModule.Previewer().preview(undefined, [...sheets, { "reportgen-toc": toc.css }]);
  ${PRINT_SIZES};
  return second.total;
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
        'options.paged_media reads the document\'s stylesheets itself, and a <link rel="stylesheet"> or an @import would need the network, which reports never have: put that CSS in a <style> element',
      );
    throw new RenderError("paged_media_failed", `options.paged_media could not lay out the document: ${text}`);
  }
  return Number(r.result.value) || 0;
}
