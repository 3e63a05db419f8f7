// options.paged_media on real PDFs: each CSS Paged Media feature is read back page by page with
// pdftotext -f N -l N, with tagged PDFs, outlines, the render deadline and the template's scripts policy.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { generate, pdfInfo, type TestApp, useRenderApp } from "../helpers/app";
import { colourfulPixels, pageSizes, pageText, renderPage } from "../helpers/pdf";

setDefaultTimeout(60_000);

let t: TestApp;
useRenderApp((a) => (t = a));

const flat = (s: string) => s.replace(/\s+/g, " ").trim();
const paged = async (html_template: string, options: Record<string, unknown> = {}) => {
  const r = await generate(t, { engine: "raw", html_template, options: { paged_media: true, ...options } });
  return r;
};
const A5 = /^(419\.\d+|420) x 59[45](\.\d+)? pts/;
const text = (pdf: Uint8Array, n: number) => flat(pageText(pdf, n));

// A statement-like book: a cover page, chapters on right-hand pages, a named wide section, a footnote.
const BOOK = `<!doctype html><html lang="en"><head><title>Book</title><style>
@page { size: A5; margin: 20mm 15mm;
  @bottom-right { content: "Page " counter(page) " of " counter(pages); }
  @top-center { content: string(account); }
  @top-right { content: element(runner); } }
@page :first { margin-top: 40mm; @top-center { content: "FIRSTPAGE LETTERHEAD"; } @top-right { content: none; } }
@page :left { @bottom-left { content: "LEFTSIDE"; } }
@page :right { @bottom-left { content: "RIGHTSIDE"; } }
@page :blank { @top-center { content: "BLANKPAGE"; } @bottom-right { content: none; } }
@page wide { @top-left { content: "NAMEDWIDE"; } }
.account { string-set: account content(text); }
.runner { position: running(runner); }
h1 { break-before: right; }
.wide { page: wide; }
.toc a::after { content: " p. " target-counter(attr(href), page); }
.note { float: footnote; }
</style></head><body>
<div class="runner">RUNNINGHEAD</div>
<p class="account">ACCOUNT-4711</p>
<nav class="toc"><a href="#c1">Chapter one</a> <a href="#c3">Chapter three</a></nav>
<h1 id="c1">One</h1><p>First chapter<span class="note">FOOTNOTETEXT</span>.</p>
<h1 id="c2">Two</h1><div class="wide">WIDESECTION</div>
<h1 id="c3">Three</h1><p>Γειά σου κόσμε 你好世界 مرحبا بالعالم</p>
</body></html>`;

describe("CSS paged media (options.paged_media)", () => {
  let pdf: Uint8Array;
  let pages: string[];
  test("the book prints, one page box per sheet, at the @page size", async () => {
    const r = await paged(BOOK, { tagged: true, outline: true });
    expect(r.report.status).toBe("succeeded");
    pdf = r.pdf!;
    const info = await pdfInfo(pdf);
    const n = Number(info.Pages);
    expect(r.report.page_count).toBe(n);
    // Cover (1), blank (2), One (3), blank (4), Two (5), the wide section (6), Three on the next right-hand page (7).
    expect(n).toBe(7);
    expect(info["Page size"]).toMatch(A5);
    pages = Array.from({ length: n }, (_, i) => text(pdf, i + 1));
  });

  test("@page :first has its own margin box, and no running element", () => {
    expect(pages[0]).toContain("FIRSTPAGE LETTERHEAD");
    expect(pages[0]).not.toContain("RUNNINGHEAD");
    expect(pages[1]).not.toContain("FIRSTPAGE");
  });

  test("margin boxes: counter(page) and counter(pages) on every non-blank page", () => {
    for (const [i, p] of pages.entries()) if (!p.includes("BLANKPAGE")) expect(p).toContain(`Page ${i + 1} of 7`);
  });

  test(":left and :right alternate; :blank pages have their own boxes", () => {
    expect(pages[2]).toContain("RIGHTSIDE"); // page 3: One
    expect(pages[2]).toContain("One");
    expect(pages[1]).toContain("BLANKPAGE"); // page 2: before a right-hand chapter
    expect(pages[1]).not.toContain("Page 2 of 7");
    expect(pages[3]).toContain("BLANKPAGE");
    expect(pages[4]).toContain("RIGHTSIDE");
    expect(pages[4]).toContain("Two");
    expect(pages[6]).toContain("RIGHTSIDE");
  });

  test("string-set/string() and running()/element() repeat content from the document", () => {
    for (const i of [2, 4, 6]) {
      expect(pages[i]).toContain("ACCOUNT-4711");
      expect(pages[i]).toContain("RUNNINGHEAD");
    }
  });

  test("a named page gets its own @page rule", () => {
    const wide = pages.findIndex((p) => p.includes("WIDESECTION"));
    expect(wide).toBeGreaterThan(0);
    expect(pages[wide]).toContain("NAMEDWIDE");
    expect(pages.filter((p) => p.includes("NAMEDWIDE"))).toHaveLength(1);
  });

  test("target-counter(attr(href), page) gives the page each link points at", () => {
    expect(pages[0]).toContain("Chapter one p. 3");
    expect(pages[0]).toContain("Chapter three p. 7");
    expect(pages[6]).toContain("Three");
  });

  test("float: footnote moves the note to the foot of its page", () => {
    expect(pages[2]).toContain("FOOTNOTETEXT");
    expect(pages[2]!.indexOf("FOOTNOTETEXT")).toBeGreaterThan(pages[2]!.indexOf("First chapter"));
  });

  test("real text for every script, tagged, with an outline", async () => {
    expect(pages[6]).toContain("Γειά σου κόσμε");
    expect(pages[6]).toContain("你好世界");
    expect(pages[6]).toContain("مرحبا");
    const info = await pdfInfo(pdf);
    expect(info.Tagged).toBe("yes");
    // Chromium writes the outline from the headings Paged.js moved into the page boxes.
    const raw = Buffer.from(pdf).toString("latin1");
    expect(raw).toContain("/Outlines");
  });
});

describe("guarantees", () => {
  test("options.format and margin are the default @page; the template's @page wins", async () => {
    const r = await paged("<p>LANDSCAPE</p>", { format: "A4", landscape: true });
    expect((await pdfInfo(r.pdf!))["Page size"]).toMatch(/^84[12]\.\d+ x 59[45]\.\d+ pts/);
    const own = await paged("<style>@page{size:A5}</style><p>A5</p>", { format: "A3" });
    expect((await pdfInfo(own.pdf!))["Page size"]).toMatch(A5);
  });

  test("Paged.js runs in a world of its own: the template's globals cannot reach it, and it works", async () => {
    // The template's scripts run (JavaScript is on, and it has a script): a PagedModule of its own does not break the layout.
    const r = await paged(
      `<script>window.PagedModule = { Previewer: null }</script><style>@page{margin:20mm;@bottom-center{content:"P" counter(page)}}</style><p>BODY</p>`,
    );
    expect(r.report.status).toBe("succeeded");
    expect(text(r.pdf!, 1)).toContain("P1");
  });

  test("a <link> stylesheet or an @import fails clearly: paged media reads CSS from <style> only", async () => {
    for (const html of [
      `<link rel="stylesheet" href="https://example.com/a.css"><p>x</p>`,
      `<style>@import url("https://example.com/a.css");</style><p>x</p>`,
    ]) {
      const r = await paged(html);
      expect(r.report.status).toBe("failed");
      expect(r.report.error.code).toBe("paged_media_failed");
      expect(r.report.error.message).toContain("<style>");
    }
  });

  test("inline break and page styles count as their rules would (Paged.js reads stylesheets only)", async () => {
    const r = await paged(
      `<style>@page{size:A5;margin:15mm} @page wide{size:A5 landscape} .wide{page:wide}</style>
       <p>ONE</p><p style="break-before: page">TWO</p><p style="page-break-before: always">THREE</p>
       <p style="page-break-after: always">FOUR</p><p>FIVE</p><div style="page: wide">SIX</div><p>SEVEN</p>
       <p style="break-before: page">EIGHT</p><div class="wide" style="color: #c00; margin-left: 10mm">NINE</div>`,
    );
    expect(r.report.status).toBe("succeeded");
    const pages = pageSizes(r.pdf!).map((_, i) => text(r.pdf!, i + 1));
    expect(pages).toEqual(["ONE", "TWO", "THREE FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"]);
    const sizes = pageSizes(r.pdf!).map((p) => (p.width > p.height ? "landscape" : "portrait"));
    // A named page's element with a style of its own keeps the page before it portrait (and its colour).
    expect(sizes).toEqual(["portrait", "portrait", "portrait", "portrait", "landscape", "portrait", "portrait", "landscape"]);
    expect(colourfulPixels(renderPage(r.pdf!, 36, 8))).toBeGreaterThan(0);
  });

  test("header_template and footer_template are refused with paged_media, naming the field", async () => {
    const res = await t.request("POST", "/api/v1/generate-pdf-async", {
      body: { engine: "raw", html_template: "<p>x</p>", options: { paged_media: true, footer_template: "<span></span>" } },
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: string; details: { field: string }[] };
    expect(body.error).toBe("validation_failed");
    expect(body.details.map((d) => d.field)).toEqual(["options.footer_template"]);
  });
});

describe("with the template's scripts off (--javascript=false) and a short render deadline", () => {
  let off: TestApp;
  useRenderApp((a) => (off = a), { javascript: false, renderTimeout: 4_000 });

  test("the layout counts against the render deadline: a document too long for it fails with render_timeout, and the next one prints", async () => {
    const long = await generate(off, {
      engine: "raw",
      html_template: `<style>@page{margin:10mm}</style>${"<p>a line of a very long document</p>".repeat(40_000)}`,
      options: { paged_media: true },
    });
    expect(long.report.status).toBe("failed");
    expect(long.report.error.code).toBe("render_timeout");
    const next = await generate(off, { engine: "raw", html_template: "<p>NEXT</p>", options: { paged_media: true } });
    expect(next.report.status).toBe("succeeded");
    expect(text(next.pdf!, 1)).toContain("NEXT");
  });

  test("no handler of the template runs when Paged.js clones its elements into the pages", async () => {
    const r = await generate(off, {
      engine: "raw",
      html_template: `<title>SAFE</title><img src="x:y" onerror="document.title='PWNED'"><p>BODY</p>`,
      options: { paged_media: true },
    });
    expect(r.report.status).toBe("succeeded");
    expect((await pdfInfo(r.pdf!)).Title).toBe("SAFE");
    expect(text(r.pdf!, 1)).toContain("BODY");
  });
});
