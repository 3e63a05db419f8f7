// The pure parts of long documents: the outline read from qpdf's JSON, the TOC's link update, the page
// numbers' text and overlay, and which options plan which step.
import { describe, expect, test } from "bun:test";
import { jsonString, outlineEntries, pageSizes } from "../../src/pdf/layout-read";
import { hasPostOptions, resolvePdfOptions } from "../../src/pdf/options";
import { pageNumbersPdf } from "../../src/pdf/overlay-pdf";
import { plan } from "../../src/pdf/plan";
import type { QpdfLayout } from "../../src/pdf/qpdf-layout";
import { pageNumberText } from "../../src/pdf/steps/page-numbers";
import { linkUpdate, TOC_LINK, tocHtml } from "../../src/pdf/toc-page";

/** A document of 3 pages as readPages() gives it: page objects, and the annotations of page 2. */
const layout: QpdfLayout = {
  pages: [{ object: "10 0 R" }, { object: "11 0 R" }, { object: "12 0 R" }],
  qpdf: [
    { maxobjectid: 40 },
    {
      "obj:10 0 R": { value: { "/MediaBox": [0, 0, 595, 842] } },
      "obj:11 0 R": { value: { "/MediaBox": [0, 0, 842, 595], "/Annots": ["20 0 R", "21 0 R"] } },
      "obj:20 0 R": { value: { "/Subtype": "/Link", "/Rect": [0, 0, 1, 1], "/A": { "/S": "/URI", "/URI": `u:${TOC_LINK}1` } } },
      "obj:21 0 R": { value: { "/Subtype": "/Link", "/A": { "/S": "/URI", "/URI": "u:https://example.com/" } } },
    },
  ],
};

describe("reading qpdf's JSON", () => {
  test("the outline in reading order, with levels, pages and tops; an entry without a page is left out", () => {
    const outlines = [
      {
        title: "A",
        dest: ["10 0 R", "/XYZ", 0, 700, 0],
        destpageposfrom1: 1,
        kids: [{ title: " A\n1 ", dest: ["11 0 R", "/Fit"], destpageposfrom1: 2, kids: [] }],
      },
      { title: "nowhere", dest: null, destpageposfrom1: null, kids: [] },
      { title: "B", dest: "/b", destpageposfrom1: 3, kids: [] },
    ];
    expect(outlineEntries(outlines, 6)).toEqual([
      { title: "A", level: 1, page: 0, top: 700 },
      { title: "A 1", level: 2, page: 1, top: undefined },
      { title: "B", level: 1, page: 2, top: undefined },
    ]);
    expect(outlineEntries(outlines, 1).map((e) => e.title)).toEqual(["A", "B"]);
  });

  test("page sizes, with the fallback for a page whose box is not its own", () => {
    expect(pageSizes(layout, { width: 1, height: 2 })).toEqual([
      { width: 595, height: 842 },
      { width: 842, height: 595 },
      { width: 1, height: 2 },
    ]);
  });

  test("PDF strings: text, UTF-16 bytes, Latin-1 bytes", () => {
    expect(jsonString("u:Ärger")).toBe("Ärger");
    expect(jsonString("b:feff03a9")).toBe("Ω");
    expect(jsonString("b:c4")).toBe("Ä");
  });
});

test("the TOC's links become links to their pages; other links stay", () => {
  const update = linkUpdate(layout, [1], [{ page: 0 }, { page: 2, top: 500 }])!;
  const objects = update.qpdf[1] as Record<string, { value: Record<string, unknown> }>;
  expect(Object.keys(objects)).toEqual(["obj:20 0 R"]);
  expect(objects["obj:20 0 R"]!.value["/Dest"]).toEqual(["12 0 R", "/XYZ", null, 500, null]);
  expect(objects["obj:20 0 R"]!.value["/A"]).toBeUndefined();
  expect(linkUpdate(layout, [0], [])).toBeUndefined();
});

test("the TOC's HTML escapes titles and numbers each entry", () => {
  const html = tocHtml("Contents <1>", [{ title: "a & <b>", level: 2, page: 3 }], [5]);
  expect(html).toContain("Contents &lt;1&gt;");
  expect(html).toContain('class="l2"><a href="https://toc.reportgen.invalid/0"><span class="t">a &amp; &lt;b&gt;</span>');
  expect(html).toContain('<span class="n">5</span>');
});

test("page numbers: the text of each page, and one overlay page per page", () => {
  expect(pageNumberText("Page {page} of {pages} ({page})", 2, 9)).toBe("Page 2 of 9 (2)");
  const pdf = Buffer.from(pageNumbersPdf(["1/3", "2/3", "3/3"], [{ width: 100, height: 200 }], "bottom-right")).toString("latin1");
  expect(pdf).toContain("/Count 3");
  expect(pdf.match(/\/Type \/Page /g)).toHaveLength(3);
  expect(pdf).toContain("<332f33>"); // "3/3" in WinAnsi
});

describe("which step makes the TOC", () => {
  test("after the print without paged media; in the layout with it; toc: false is nothing", () => {
    expect(plan({ toc: true }).steps.map((s) => s.name)).toEqual(["toc"]);
    expect(plan({ toc: true, paged_media: true }).steps).toEqual([]);
    expect(plan({ toc: { levels: 2 }, page_numbers: {} }).steps.map((s) => [s.name, s.params])).toEqual([
      ["toc", { title: "Contents", levels: 2 }],
      ["page_numbers", { template: "Page {page} of {pages}", position: "bottom-center", embedFont: false }],
    ]);
    expect(hasPostOptions({ toc: false })).toBe(false);
  });

  test("a TOC turns tagged and outline on (Chromium's outline needs both); paged media gets its settings", () => {
    const o = resolvePdfOptions(JSON.stringify({ toc: true }));
    expect([o.tagged, o.outline, o.toc]).toEqual([true, true, undefined]);
    expect(resolvePdfOptions(JSON.stringify({ toc: { title: "T" }, paged_media: true })).toc).toEqual({ title: "T", levels: 3 });
    expect(resolvePdfOptions(null).tagged).toBe(false);
  });
});
