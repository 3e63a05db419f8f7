// options.paged_media with named pages of their own size, on real PDFs: each sheet's size is read with
// `pdfinfo -f 1 -l N` and each page's margin boxes with `pdftotext -layout`. A named page's rule adds to
// the base @page (CSS Paged Media's cascade): its own size and boxes, and every box of @page it does not
// override, the page counter included.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { generate, type TestApp, useRenderApp } from "../helpers/app";
import { pageLayoutText, pageSizes } from "../helpers/pdf";

setDefaultTimeout(60_000);

let t: TestApp;
useRenderApp((a) => (t = a));

const paged = (html_template: string, options: Record<string, unknown>) =>
  generate(t, { engine: "raw", html_template, options: { paged_media: true, ...options } });

// A4 in points, either way round (Chromium prints 594.96 x 841.92: the sheet in whole CSS pixels).
const near = (a: number, b: number) => Math.abs(a - b) < 1;
const portrait = (s: { width: number; height: number }) => near(s.width, 595.28) && near(s.height, 841.89);
const landscape = (s: { width: number; height: number }) => near(s.width, 841.89) && near(s.height, 595.28);
const orientation = (s: { width: number; height: number }) =>
  portrait(s) ? "portrait" : landscape(s) ? "landscape" : `${s.width}x${s.height}`;

// The base @page's `counter(page) " / " counter(pages)` box (pdftotext may drop the spaces around "/").
const counterBox = (n: number, of: number) => new RegExp(`(^|\\s)${n} ?/ ?${of}(\\s|$)`);

const STYLE = `<style>
@page { size: A4; margin: 20mm;
  @bottom-right { content: counter(page) " / " counter(pages); }
  @top-left { content: "BASEHEAD"; } }
@page wide { size: A4 landscape; @bottom-left { content: "WIDEFOOT"; } }
@page slip { @top-left { content: "SLIPHEAD"; } }
.wide { page: wide; }
.slip { page: slip; }
/* Wider than a portrait page's 170 mm of content, narrower than a landscape one's 257 mm. */
.span { display: flex; justify-content: space-between; width: 240mm; }
</style>`;
// Enough paragraphs to fill more than one landscape page.
const WIDE = `<div class="wide"><div class="span"><span>LEFTEND</span><span>RIGHTEND</span></div>${Array.from(
  { length: 30 },
  (_, i) => `<p>wide row ${i + 1}</p>`,
).join("")}</div>`;

/** Prints the document and reads back every page: its orientation and its text laid out. */
async function printed(body: string, options: Record<string, unknown> = {}) {
  const r = await paged(`<!doctype html><html lang="en"><head><title>Named</title>${STYLE}</head><body>${body}</body></html>`, options);
  expect(r.report.status).toBe("succeeded");
  const sizes = pageSizes(r.pdf!);
  expect(r.report.page_count).toBe(sizes.length);
  return sizes.map((s, i) => ({ orientation: orientation(s), text: pageLayoutText(r.pdf!, i + 1) }));
}

describe("a named page with its own size (options.paged_media)", () => {
  let pages: { orientation: string; text: string }[];

  test("prints its pages at its own size, the others at the base @page's", async () => {
    pages = await printed(`<p>PORTRAIT-ONE</p>${WIDE}<div class="slip">SLIPPAGE</div><p>PORTRAIT-TWO</p>`);
    const wide = pages.map((p, i) => (p.text.includes("wide row") ? i : -1)).filter((i) => i >= 0);
    expect(wide.length).toBeGreaterThanOrEqual(2);
    expect(pages.map((p) => p.orientation)).toEqual(pages.map((_, i) => (wide.includes(i) ? "landscape" : "portrait")));
    expect(pages[0]!.text).toContain("PORTRAIT-ONE");
    expect(pages.at(-1)!.text).toContain("PORTRAIT-TWO");
  });

  test("every page keeps the base @page's counter box, the wide ones too", () => {
    for (const [i, p] of pages.entries()) expect(p.text).toMatch(counterBox(i + 1, pages.length));
  });

  test("a named page's own boxes add to the base @page's, and override only the box they name", () => {
    for (const p of pages) {
      const wide = p.text.includes("wide row");
      expect(p.text.includes("WIDEFOOT")).toBe(wide);
      // @page slip names @top-left, so its page shows SLIPHEAD there; every other page keeps BASEHEAD.
      expect(p.text.includes("SLIPHEAD")).toBe(p.text.includes("SLIPPAGE"));
      expect(p.text.includes("BASEHEAD")).toBe(!p.text.includes("SLIPPAGE"));
    }
  });

  test("the wide content is laid out across the landscape page, not cut at a portrait width", () => {
    const first = pages.find((p) => p.text.includes("LEFTEND"))!;
    expect(first.orientation).toBe("landscape");
    expect(first.text).toContain("RIGHTEND");
  });

  test("a document that opens with the named page starts landscape and turns portrait after it", async () => {
    const opening = await printed(`${WIDE}<p>PORTRAIT-AFTER</p>`);
    expect(opening[0]!.orientation).toBe("landscape");
    expect(opening.at(-1)!.orientation).toBe("portrait");
    expect(opening.at(-1)!.text).toContain("PORTRAIT-AFTER");
    for (const [i, p] of opening.entries()) expect(p.text).toMatch(counterBox(i + 1, opening.length));
  });

  test("with a table of contents (a second layout), the sizes and the boxes hold", async () => {
    const toc = await printed(
      `<h1>Start</h1><p>PORTRAIT-ONE</p>${WIDE.replace('<div class="wide">', '<div class="wide"><h1>Wide</h1>')}<h1>End</h1><p>PORTRAIT-TWO</p>`,
      { toc: true },
    );
    // The TOC's page lists the wide section at the page it starts on.
    const wideAt = toc.findIndex((p) => p.text.includes("wide row")) + 1;
    expect(toc[1]!.text).toContain("Contents");
    expect(toc[1]!.text).toMatch(new RegExp(`Wide[ .]*${wideAt}\\b`));
    for (const [i, p] of toc.entries()) {
      expect(p.orientation).toBe(p.text.includes("wide row") ? "landscape" : "portrait");
      expect(p.text).toMatch(counterBox(i + 1, toc.length));
    }
    expect(toc.filter((p) => p.orientation === "landscape").length).toBeGreaterThanOrEqual(2);
  });

  test("a template's zoom or transform of its screen layout leaves the sheet sizes as they are", async () => {
    const zoomed = await printed(`<style>html { zoom: 0.5 } body { transform: scale(0.8) }</style><p>P1</p>${WIDE}`);
    expect(zoomed.map((p) => p.orientation)).toEqual(zoomed.map((p) => (p.text.includes("wide row") ? "landscape" : "portrait")));
  });
});
