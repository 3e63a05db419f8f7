// options.toc and options.page_numbers on real PDFs: the TOC's numbers equal the pages where
// pdftotext -f N -l N finds each heading, its links (qpdf --json) open those pages, and "Page X of Y"
// is real text on every page, continuous across a merge.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate, pdfInfo, type TestApp, useRenderApp, waitForReport } from "../helpers/app";
import { pageText } from "../helpers/pdf";

setDefaultTimeout(90_000);

let t: TestApp;
useRenderApp((a) => (t = a));

const flat = (s: string) => s.replace(/\s+/g, " ").trim();

/** qpdf --json=2 of the PDF: its pages (with their annotations' objects) and objects. */
function qpdfJson(pdf: Uint8Array) {
  const file = join(tmpdir(), `rg-toc-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  try {
    const p = Bun.spawnSync(["qpdf", "--json=2", "--json-key=pages", "--json-key=qpdf", "--json-key=outlines", file]);
    return JSON.parse(p.stdout.toString()) as {
      pages: { object: string }[];
      qpdf: [unknown, Record<string, { value: Record<string, unknown> }>];
      outlines: { title: string; destpageposfrom1: number }[];
    };
  } finally {
    rmSync(file, { force: true });
  }
}

/** The destination pages (from 1) of the link annotations on page `n` (from 1), top to bottom. */
function linkTargets(pdf: Uint8Array, n: number): number[] {
  const j = qpdfJson(pdf);
  const objects = j.qpdf[1];
  const pageIndex = new Map(j.pages.map((p, i) => [p.object, i + 1]));
  const annots = (objects[`obj:${j.pages[n - 1]!.object}`]!.value["/Annots"] as string[] | undefined) ?? [];
  const root = objects[`obj:${(objects.trailer!.value as { "/Root": string })["/Root"]}`]!.value;
  const dests = (typeof root["/Dests"] === "string" ? objects[`obj:${root["/Dests"]}`]!.value : (root["/Dests"] ?? {})) as Record<
    string,
    unknown
  >;
  return annots
    .map((ref) => objects[`obj:${ref}`]!.value)
    .filter((a) => a["/Subtype"] === "/Link")
    .sort((a, b) => (b["/Rect"] as number[])[3]! - (a["/Rect"] as number[])[3]!)
    .map((a) => {
      // Chromium links an in-document #fragment by name, through the catalog's /Dests.
      let dest = a["/Dest"] ?? (a["/A"] as Record<string, unknown> | undefined)?.["/D"];
      if (typeof dest === "string") dest = dests[`/${dest.replace(/^(u:|\/)/, "")}`];
      return pageIndex.get((dest as string[] | undefined)?.[0] ?? "") ?? -1;
    });
}

/** pdftotext -layout of page `n`: a TOC line keeps its title and number on one line. */
function layoutText(pdf: Uint8Array, n: number): string {
  const file = join(tmpdir(), `rg-toc-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  try {
    return Bun.spawnSync(["pdftotext", "-layout", "-f", String(n), "-l", String(n), file, "-"]).stdout.toString();
  } finally {
    rmSync(file, { force: true });
  }
}

/** The TOC's lines "title …… N" on page `n` as [title, N]. */
function tocLines(pdf: Uint8Array, n: number): [string, number][] {
  return layoutText(pdf, n)
    .split("\n")
    .map((l) => /^(.*\S)\s+(\d+)$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => [m[1]!, Number(m[2])]);
}

/** The page (from 1) on which pdftotext finds `text`, searching from `from`. */
function pageOf(pdf: Uint8Array, pages: number, text: string, from = 1): number {
  for (let n = from; n <= pages; n++) if (flat(pageText(pdf, n)).includes(text)) return n;
  return -1;
}

// A cover page, then chapters with sections; chapter 3 is long enough to span pages.
const DOC = `<!doctype html><html lang="en"><head><title>Annual statement</title><style>
h1 { break-before: page; } p { margin: 0 0 4mm; }</style></head><body>
<section><p>COVERPAGE</p></section>
<h1>Alpha chapter</h1><p>a</p><h2>Alpha section one</h2><p>a1</p>
<h1>Beta chapter</h1><p>b</p><h2>Beta section one</h2><p>b1</p><h3>Beta deep</h3>
<h1>Gamma chapter</h1>${"<p>filler line</p>".repeat(80)}<h2>Gamma late section</h2><p>g</p>
<h1>Δέλτα κεφάλαιο 第四章</h1><p>d</p>
</body></html>`;

describe("options.toc", () => {
  test("a TOC page after the first page: its numbers are where pdftotext finds each heading, and its links open those pages", async () => {
    const r = await generate(t, { engine: "raw", html_template: DOC, options: { toc: { title: "Contents", levels: 2 } } });
    expect(r.report.error).toBeNull();
    const pdf = r.pdf!;
    const pages = Number((await pdfInfo(pdf)).Pages);
    expect(r.report.page_count).toBe(pages);
    expect(flat(pageText(pdf, 1))).toContain("COVERPAGE");
    expect(pageText(pdf, 2)).toContain("Contents");
    const lines = tocLines(pdf, 2);
    // levels: 2 leaves "Beta deep" (an h3) out.
    expect(lines.map(([title]) => title)).toEqual([
      "Alpha chapter",
      "Alpha section one",
      "Beta chapter",
      "Beta section one",
      "Gamma chapter",
      "Gamma late section",
      "Δέλτα κεφάλαιο 第四章",
    ]);
    for (const [title, n] of lines) expect(pageOf(pdf, pages, title, 3)).toBe(n);
    // The late section is on a later page than its chapter: the numbers are per heading, not per chapter.
    expect(lines[5]![1]).toBeGreaterThan(lines[4]![1]);
    expect(linkTargets(pdf, 2)).toEqual(lines.map(([, n]) => n));
    // The document's own bookmarks still open the right pages after the insertion.
    const outline = qpdfJson(pdf).outlines;
    expect(outline.find((o) => o.title === "Alpha chapter")?.destpageposfrom1).toBe(lines[0]![1]);
  });

  test("with paged_media: the TOC is laid out with the pages, and every counter counts it", async () => {
    const html = DOC.replace(
      "</style>",
      '@page { margin: 15mm; @bottom-center { content: "P" counter(page) "/" counter(pages); } }</style>',
    );
    const r = await generate(t, { engine: "raw", html_template: html, options: { toc: true, paged_media: true } });
    expect(r.report.error).toBeNull();
    const pdf = r.pdf!;
    const pages = Number((await pdfInfo(pdf)).Pages);
    expect(r.report.page_count).toBe(pages);
    expect(flat(pageText(pdf, 1))).toContain("COVERPAGE");
    expect(pageText(pdf, 2)).toContain("Contents");
    const lines = tocLines(pdf, 2);
    // levels defaults to 3: "Beta deep" is listed.
    expect(lines.map(([title]) => title)).toContain("Beta deep");
    expect(lines).toHaveLength(8);
    for (const [title, n] of lines) expect(pageOf(pdf, pages, title, 3)).toBe(n);
    expect(linkTargets(pdf, 2)).toEqual(lines.map(([, n]) => n));
    for (let n = 1; n <= pages; n++) expect(flat(pageText(pdf, n))).toContain(`P${n}/${pages}`);
  });

  test("tagged or outline false with a TOC is refused, naming the fields", async () => {
    const res = await t.request("POST", "/api/v1/generate-pdf-async", {
      body: { engine: "raw", html_template: DOC, options: { toc: true, outline: false, tagged: false } },
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { details: { field: string }[] };
    expect(body.details.map((d) => d.field)).toEqual(["options.tagged", "options.outline"]);
  });
});

describe("page_numbers on a printed report", () => {
  test("written into each page's own content (no overlay): real text on every page, the page's own text kept", async () => {
    const html = Array.from(
      { length: 3 },
      (_, i) => `<section style="${i ? "break-before:page" : ""}"><p>Body ${i + 1}</p></section>`,
    ).join("");
    const { report, pdf } = await generate(t, { engine: "raw", html_template: html, options: { page_numbers: { position: "top-right" } } });
    expect(report.page_count).toBe(3);
    const { pages, qpdf } = qpdfJson(pdf!);
    for (const [i, p] of pages.entries()) {
      const text = flat(pageText(pdf!, i + 1));
      expect(text).toContain(`Page ${i + 1} of 3`);
      expect(text).toContain(`Body ${i + 1}`);
      const page = qpdf[1][`obj:${p.object}`]!.value;
      expect(Object.keys((page["/Resources"] as Record<string, Record<string, unknown>>)["/Font"]!)).toContain("/RGpn");
      // A "q" before the page's own content, then "Q" and the number after it.
      expect((page["/Contents"] as string[]).length).toBe(3);
    }
    // top-right: the number is printed above the body's text.
    const [first] = flat(pageText(pdf!, 1)).split(" Body");
    expect(first).toContain("Page 1 of 3");
  });
});

describe("merges", () => {
  const part = (n: number, mark: string) =>
    `<title>${mark} part</title>${Array.from({ length: n }, (_, i) => `<section style="${i ? "break-before:page" : ""}"><p>${mark} page ${i + 1}</p></section>`).join("")}`;

  async function merged(options: Record<string, unknown>) {
    const parts = [];
    for (const [n, mark] of [
      [2, "Alpha"],
      [3, "Beta"],
      [1, "Gamma"],
    ] as const) {
      const r = await generate(t, { engine: "raw", html_template: part(n, mark) });
      expect(r.report.status).toBe("succeeded");
      parts.push(r.report.report_id as string);
    }
    const res = await t.request("POST", "/api/v1/reports/merge", { body: { report_ids: parts, options } });
    expect(res.status).toBe(202);
    const { report_id } = (await res.json()) as { report_id: string };
    const report = await waitForReport(t, report_id, 60_000);
    expect(report.error).toBeNull();
    const dl = (await (await t.request("GET", `/api/v1/reports/${report_id}/download`)).json()) as { data: string };
    const pdf = new Uint8Array(await (await t.app.http!.handle(new Request(dl.data))).arrayBuffer());
    return { report, pdf };
  }

  test('page_numbers stamps "Page X of Y" continuously across the merged document, as real text', async () => {
    const { report, pdf } = await merged({ page_numbers: { template: "Page {page} of {pages}", position: "bottom-right" } });
    expect(report.page_count).toBe(6);
    for (let n = 1; n <= 6; n++) {
      const text = flat(pageText(pdf, n));
      expect(text).toContain(`Page ${n} of 6`);
      expect(text.split("Page ").length - 1).toBe(1);
    }
    expect(flat(pageText(pdf, 3))).toContain("Beta page 1");
    // Merged PDFs are not all Chromium's own content: the numbers come as an overlay (a form XObject), not written into the pages.
    const { pages, qpdf } = qpdfJson(pdf);
    const resources = qpdf[1][`obj:${pages[0]!.object}`]!.value["/Resources"] as Record<string, Record<string, unknown>>;
    expect(Object.keys(resources["/Font"] ?? {})).not.toContain("/RGpn");
    expect(Object.keys(resources["/XObject"] ?? {}).length).toBeGreaterThan(0);
  });

  test("toc: true lists each part by its title and first page, and the page numbers count the TOC", async () => {
    const { report, pdf } = await merged({ toc: true, page_numbers: {} });
    expect(report.page_count).toBe(7);
    const lines = tocLines(pdf, 2).filter(([title]) => !title.startsWith("Page"));
    expect(lines).toEqual([
      ["Alpha part", 1],
      ["Beta part", 4],
      ["Gamma part", 7],
    ]);
    expect(flat(pageText(pdf, 4))).toContain("Beta page 1");
    expect(flat(pageText(pdf, 7))).toContain("Gamma page 1");
    expect(linkTargets(pdf, 2)).toEqual([1, 4, 7]);
    for (let n = 1; n <= 7; n++) expect(flat(pageText(pdf, n))).toContain(`Page ${n} of 7`);
  });

  test("a page_numbers template outside WinAnsi is refused, naming the field", async () => {
    const res = await t.request("POST", "/api/v1/generate-pdf-async", {
      body: { engine: "raw", html_template: "<p>x</p>", options: { page_numbers: { template: "第 {page} 页" } } },
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { details: { field: string }[] };
    expect(body.details.map((d) => d.field)).toEqual(["options.page_numbers.template"]);
  });
});

describe("limits", () => {
  let small: TestApp;
  useRenderApp((a) => (small = a), { maxPages: 3 });

  test("a TOC that takes a report past --max-pages fails it with too_many_pages", async () => {
    const html = `<p>COVER</p>${["A", "B"].map((h) => `<h1 style="break-before:page">${h}</h1>`).join("")}`;
    const plain = await generate(small, { engine: "raw", html_template: html });
    expect(plain.report.page_count).toBe(3);
    const r = await generate(small, { engine: "raw", html_template: html, options: { toc: true } });
    expect(r.report.status).toBe("failed");
    expect(r.report.error.code).toBe("too_many_pages");
    expect(r.report.error.message).toContain("table of contents");
  });
});
