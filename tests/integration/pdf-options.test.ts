// The PDF options on real PDFs (pdfinfo, pdftotext, pdffonts): headers and footers, metadata, page
// geometry and structure, readiness (wait_for), long tables, and their validation.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { REPORT_TEMPLATE, reportData } from "../../scripts/bench-templates";
import { generate, pdfInfo, type TestApp, useRenderApp } from "../helpers/app";
import { inlined } from "../helpers/openapi-check";
import { pageText, pageWords, pdfFonts } from "../helpers/pdf";

setDefaultTimeout(60_000);

// A short render deadline keeps the never-ready case quick: readiness may use 8 s less a fifth.
const RENDER_TIMEOUT = 8_000;
let t: TestApp;
useRenderApp((a) => (t = a), { renderTimeout: RENDER_TIMEOUT });

const pages = (n: number, mark = "PAGE") =>
  Array.from({ length: n }, (_, i) => `<section style="${i ? "break-before:page" : ""}"><h1>${mark}${i + 1}</h1></section>`).join("");
const flat = (s: string) => s.replace(/\s+/g, " ");
const raw = async (html_template: string, options?: Record<string, unknown>) => {
  const r = await generate(t, { engine: "raw", html_template, options });
  return { ...r, bytes: r.pdf ? Buffer.from(r.pdf).toString("latin1") : "" };
};
/** pdfinfo's "Page size" in points. */
const pageSize = (info: Record<string, string>) => {
  const m = /^([\d.]+) x ([\d.]+) pts/.exec(info["Page size"] ?? "")!;
  return { w: Number(m[1]), h: Number(m[2]) };
};
const MM = 72 / 25.4;

describe("headers and footers", () => {
  const footer = `<style>.f{font-size:9px;width:100%;text-align:center;color:#555}</style><div class="f">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>`;
  const header = `<div style="font-size:9px;margin-left:10mm">HDR <span class="title"></span> / <span class="date"></span></div>`;

  test('"Page 2 of 3" in the footer, the title in the header, on every page', async () => {
    const { report, pdf } = await raw(`<title>Quarterly report</title>${pages(3)}`, { header_template: header, footer_template: footer });
    expect(report.status).toBe("succeeded");
    expect(report.page_count).toBe(3);
    for (const n of [1, 2, 3]) {
      const text = flat(pageText(pdf!, n));
      expect(text).toContain(`Page ${n} of 3`);
      expect(text).toContain("HDR Quarterly report /");
      expect(text).toContain(`PAGE${n}`);
    }
  });

  test("the title class shows options.metadata.title when the document has no <title>", async () => {
    const { pdf } = await raw(pages(1), { header_template: header, metadata: { title: "Meta title" } });
    expect(flat(pageText(pdf!, 1))).toContain("HDR Meta title /");
  });

  test("a footer alone prints no header (not Chromium's default date and URL)", async () => {
    const { pdf } = await raw(`<title>T</title>${pages(2)}`, { footer_template: footer });
    const text = flat(pageText(pdf!, 2));
    expect(text).toContain("Page 2 of 2");
    expect(text).not.toContain("about:blank");
    expect(text).not.toMatch(/\d{1,2}\/\d{1,2}\/\d{2,4}/);
  });

  test("the margins leave room for them: 15mm by default, below the header and above the footer", async () => {
    const { pdf } = await raw(`<p style="margin:0">BODYTOP</p><p style="position:absolute;bottom:0;margin:0">BODYBOTTOM</p>`, {
      header_template: header,
      footer_template: footer,
    });
    const words = pageWords(pdf!, 1);
    const at = (w: string) => words.find((x) => x.word === w)!;
    expect(at("BODYTOP").yMin).toBeGreaterThan(15 * MM - 2);
    expect(at("HDR").yMax).toBeLessThan(at("BODYTOP").yMin);
    expect(at("Page").yMin).toBeGreaterThan(at("BODYBOTTOM").yMax);
    // A margin the client sets wins.
    const tight = await raw(`<p style="margin:0">BODYTOP</p>`, { header_template: header, margin: { top: "30mm" } });
    expect(pageWords(tight.pdf!, 1).find((x) => x.word === "BODYTOP")!.yMin).toBeGreaterThan(30 * MM - 2);
  });
});

describe("metadata", () => {
  test("Title from <title>; author, subject, keywords from options; creator reportgen; no HeadlessChrome anywhere", async () => {
    const { report, pdf, bytes } = await raw(`<title>Quarterly (Q3) report</title><p>body</p>`, {
      metadata: { author: "Ops Team", subject: "Parts usage", keywords: ["parts", "q3", "Zürich"] },
    });
    expect(report.status).toBe("succeeded");
    const info = await pdfInfo(pdf!);
    expect(info.Title).toBe("Quarterly (Q3) report");
    expect(info.Author).toBe("Ops Team");
    expect(info.Subject).toBe("Parts usage");
    expect(info.Keywords).toBe("parts, q3, Zürich");
    expect(info.Creator).toMatch(/^reportgen \d/);
    expect(info.Producer).toMatch(/^reportgen \d/);
    expect(bytes).not.toContain("HeadlessChrome");
    expect(bytes).not.toContain("Skia/PDF");
  });

  test("options.metadata.title wins over <title>, in any script", async () => {
    const { pdf } = await raw(`<title>ignored</title><p>x</p>`, { metadata: { title: "Bericht Zürich — 東京 (2026)" } });
    expect((await pdfInfo(pdf!)).Title).toBe("Bericht Zürich — 東京 (2026)");
  });

  test("without a title the PDF has none: never about:blank", async () => {
    const { pdf, bytes } = await raw(`<p>untitled</p>`);
    expect((await pdfInfo(pdf!)).Title).toBeUndefined();
    expect(bytes).not.toContain("about:blank");
  });

  // A page without scripts or web fonts is printed straight after its load event, and its title is
  // the one Chromium writes into the PDF (print-page.ts, needsReadinessCheck): it must be document.title.
  test.each([
    ["Ünïcödé — 日本語 😀", "Ünïcödé — 日本語 😀"],
    ["  spaced \n\t out  ", "spaced out"],
    ["paren (x) back\\slash \\(", "paren (x) back\\slash \\("],
    ["&lt;b&gt;&amp;&quot;", '<b>&"'],
    ["about:blank", "about:blank"],
    ["x".repeat(400), "x".repeat(400)],
  ])("the PDF's Title is document.title without asking the page: %p", async (title, expected) => {
    const { report, pdf } = await raw(`<title>${title}</title><p>body</p>`);
    expect(report.status).toBe("succeeded");
    expect((await pdfInfo(pdf!)).Title).toBe(expected);
  });

  test("a script can still change the title before the print", async () => {
    const { pdf } = await raw(`<title>old</title><p>x</p><script>document.title = "Set (by) script — ✓"</script>`);
    expect((await pdfInfo(pdf!)).Title).toBe("Set (by) script — ✓");
  });

  test("templates see a desktop Chrome user agent", async () => {
    const { pdf } = await raw(`<p id="ua"></p><script>document.getElementById("ua").textContent = "UA=" + navigator.userAgent</script>`);
    const text = flat(pageText(pdf!, 1));
    expect(text).toMatch(/UA=Mozilla\/5\.0 .*Chrome\/\d+/);
    expect(text).not.toContain("Headless");
  });

  test("the page count stays right when the metadata holds PDF syntax", async () => {
    const { report, pdf } = await raw(`<title>/Type /Page /Type /Page</title>${pages(3)}`, {
      metadata: { author: "/Type /Page", keywords: ["/Type /Page"] },
    });
    expect(report.page_count).toBe(3);
    expect((await pdfInfo(pdf!)).Pages).toBe("3");
  });
});

describe("page geometry and structure", () => {
  test("page_ranges keeps the pages asked for, and page_count counts them", async () => {
    const { report, pdf } = await raw(pages(5), { page_ranges: "2-3, 5" });
    expect(report.page_count).toBe(3);
    expect((await pdfInfo(pdf!)).Pages).toBe("3");
    expect(flat(pageText(pdf!, 1))).toContain("PAGE2");
    expect(flat(pageText(pdf!, 3))).toContain("PAGE5");
  });

  test("page_ranges beyond the document fails with invalid_page_ranges", async () => {
    const { report } = await raw(pages(2), { page_ranges: "7" });
    expect(report.status).toBe("failed");
    expect(report.error.code).toBe("invalid_page_ranges");
    expect(report.error.message).toContain("page_ranges");
  });

  test("custom width and height", async () => {
    const { pdf } = await raw(pages(1), { width: "100mm", height: "50mm" });
    const s = pageSize(await pdfInfo(pdf!));
    expect(Math.abs(s.w - 100 * MM)).toBeLessThan(2);
    expect(Math.abs(s.h - 50 * MM)).toBeLessThan(2);
  });

  test("prefer_css_page_size: @page size wins by default; false lets the options win", async () => {
    const html = `<style>@page { size: A5 }</style>${pages(1)}`;
    const css = pageSize(await pdfInfo((await raw(html, { format: "Letter" })).pdf!));
    expect(Math.abs(css.w - 148 * MM)).toBeLessThan(2);
    const opt = pageSize(await pdfInfo((await raw(html, { format: "Letter", prefer_css_page_size: false })).pdf!));
    expect(Math.abs(opt.w - 612)).toBeLessThan(2);
    expect(Math.abs(opt.h - 792)).toBeLessThan(2);
  });

  test("tagged PDF with an outline from the headings; neither by default", async () => {
    const html = `<title>Doc</title><h1>Chapter One</h1><p>a</p><h2>Section Two</h2><p>b</p>`;
    const plain = await raw(html);
    expect((await pdfInfo(plain.pdf!)).Tagged).toBe("no");
    expect(plain.bytes).not.toContain("/Outlines");
    const tagged = await raw(html, { tagged: true, outline: true });
    expect((await pdfInfo(tagged.pdf!)).Tagged).toBe("yes");
    expect(tagged.bytes).toContain("/StructTreeRoot");
    expect(tagged.bytes).toContain("/Outlines");
    expect(tagged.bytes).toContain("(Chapter One)");
    expect(tagged.bytes).toContain("(Section Two)");
    expect(pdfFonts(tagged.pdf!).map((f) => f.type)).not.toContain("Type 3");
  });
});

describe("readiness (wait_for)", () => {
  // A chart drawn 1.5 s after load, as chart libraries do after their animations.
  const chart = `<p>report</p><script>setTimeout(function () {
    var c = document.createElement("div"); c.id = "chart"; c.textContent = "CHARTDRAWN"; document.body.appendChild(c); window.chartsReady = true;
  }, 1500)</script>`;

  test("without wait_for the page prints at its load event, before the chart", async () => {
    const { pdf } = await raw(chart);
    expect(pageText(pdf!, 1)).not.toContain("CHARTDRAWN");
  });

  for (const wait_for of [{ expression: "window.chartsReady === true" }, { selector: "#chart" }, { delay_ms: 2500 }]) {
    test(`wait_for ${JSON.stringify(wait_for)} prints the chart`, async () => {
      const { report, pdf } = await raw(chart, { wait_for });
      expect(report.status).toBe("succeeded");
      expect(pageText(pdf!, 1)).toContain("CHARTDRAWN");
    });
  }

  test("a selector that never matches fails readiness_timeout within the render deadline", async () => {
    const started = Date.now();
    const { report } = await raw(chart, { wait_for: { selector: "#never" } });
    expect(report.status).toBe("failed");
    expect(report.error.code).toBe("readiness_timeout");
    expect(report.error.message).toContain("#never");
    expect(report.attempts).toBe(1);
    expect(Date.now() - started).toBeLessThan(RENDER_TIMEOUT + 20_000);
  });

  test("an expression that cannot be parsed, an invalid selector, a delay past the deadline: readiness_timeout at once", async () => {
    for (const wait_for of [{ expression: "window.a ===" }, { selector: "##bad[" }, { delay_ms: 60_000 }]) {
      const started = Date.now();
      const { report } = await raw(chart, { wait_for });
      expect(report.status).toBe("failed");
      expect(report.error.code).toBe("readiness_timeout");
      expect(Date.now() - started).toBeLessThan(RENDER_TIMEOUT / 2);
    }
  });

  test("globals a wait_for expression sets do not reach the next report on the same page", async () => {
    for (let i = 0; i < 4; i++) {
      const a = await raw(`<p>no script here</p>`, { wait_for: { expression: "(window.leaked = 'LEAKED', true)" } });
      expect(a.report.status).toBe("succeeded");
      const b = await raw(`<p id="o"></p><script>document.getElementById("o").textContent = "GLOBAL=" + window.leaked</script>`);
      expect(flat(pageText(b.pdf!, 1))).toContain("GLOBAL=undefined");
    }
  });

  test("a page without scripts prints its web font", async () => {
    const font = Buffer.from(await Bun.file("/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf").arrayBuffer()).toString(
      "base64",
    );
    const { pdf } = await raw(
      `<style>@font-face{font-family:"Brand";src:url(data:font/ttf;base64,${font})}</style><p style="font-family:Brand">BRANDFONT</p>`,
    );
    expect(pageText(pdf!, 1)).toContain("BRANDFONT");
    expect(pdfFonts(pdf!).map((f) => f.name.replace(/^[A-Z]{6}\+/, ""))).toContain("LiberationMono");
  });

  test("a web font that text uses only after load is awaited (document.fonts.ready)", async () => {
    const font = Buffer.from(await Bun.file("/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf").arrayBuffer()).toString(
      "base64",
    );
    const html = `<style>@font-face{font-family:"Late";src:url(data:font/ttf;base64,${font})}</style><p>x</p>
<script>addEventListener("load", function () { var p = document.createElement("p"); p.style.fontFamily = "Late"; p.textContent = "LATEFONT"; document.body.appendChild(p); })</script>`;
    const { pdf } = await raw(html);
    expect(pageText(pdf!, 1)).toContain("LATEFONT");
    expect(pdfFonts(pdf!).map((f) => f.name.replace(/^[A-Z]{6}\+/, ""))).toContain("LiberationMono");
  });
});

describe("long tables", () => {
  test("the 1000-row report repeats its table header on every page", async () => {
    const { report, pdf } = await generate(t, { engine: "ejs", html_template: REPORT_TEMPLATE, data: reportData(1000) });
    expect(report.status).toBe("succeeded");
    expect(report.page_count).toBeGreaterThan(10);
    for (let n = 1; n <= report.page_count; n++) {
      const words = pageWords(pdf!, n);
      // The header row ("# Item Qty Unit price Amount") is above every item row (items read "Valve XL #1981").
      const unit = words.find((w) => w.word === "Unit")!;
      expect(unit).toBeDefined();
      const items = words.filter((w) => /^#\d+$/.test(w.word));
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(item.yMin).toBeGreaterThanOrEqual(unit.yMax);
    }
  });

  // Rows of six lines each: some must meet a page end.
  const tall = (css = "") =>
    `<style>${css} td{padding:2px}</style><table><thead><tr><th>HEAD</th></tr></thead><tbody>${Array.from(
      { length: 60 },
      (_, r) => `<tr><td>${Array.from({ length: 6 }, (_, l) => `R${r}L${l}`).join("<br>")}</td></tr>`,
    ).join("")}</tbody></table>`;
  /** Rows whose lines are spread over more than one page. */
  const splitRows = (pdf: Uint8Array, pageCount: number) => {
    const pageOf = new Map<string, Set<number>>();
    for (let n = 1; n <= pageCount; n++)
      for (const m of pageText(pdf, n).matchAll(/R(\d+)L\d/g)) (pageOf.get(m[1]!) ?? pageOf.set(m[1]!, new Set()).get(m[1]!)!).add(n);
    return [...pageOf.entries()].filter(([, s]) => s.size > 1).map(([r]) => r);
  };

  test("a row is never split across pages, and the header repeats", async () => {
    const { report, pdf } = await raw(tall());
    expect(report.page_count).toBeGreaterThan(2);
    expect(splitRows(pdf!, report.page_count)).toEqual([]);
    for (let n = 1; n <= report.page_count; n++) expect(pageText(pdf!, n)).toContain("HEAD");
  });

  test("the template's own CSS wins over the defaults (here: rows may split)", async () => {
    const { report, pdf } = await raw(tall("tr{break-inside:auto}"));
    expect(splitRows(pdf!, report.page_count).length).toBeGreaterThan(0);
  });

  test("the defaults keep the document's mode and <html> attributes", async () => {
    const probe = `<p id="o"></p><script>document.getElementById("o").textContent = "MODE=" + document.compatMode + " LANG=" + document.documentElement.lang + " FIRST=" + document.head.firstElementChild.tagName</script>`;
    const standards = await raw(`<!-- c --><!DOCTYPE html><html lang="de"><head><meta charset="utf-8"></head><body>${probe}</body></html>`);
    expect(flat(pageText(standards.pdf!, 1))).toContain("MODE=CSS1Compat LANG=de FIRST=STYLE");
    const quirks = await raw(`<html lang="fr"><body>${probe}</body></html>`);
    expect(flat(pageText(quirks.pdf!, 1))).toContain("MODE=BackCompat LANG=fr");
  });
});

describe("validation: 422 naming the field", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["width without height", { width: "100mm" }, "options.height"],
    ["height without width", { height: "100mm" }, "options.width"],
    ["a zero width", { width: "0", height: "10mm" }, "options.width"],
    ["a width that is not a length", { width: "wide", height: "10mm" }, "options.width"],
    ["page ranges that are not ranges", { page_ranges: "first" }, "options.page_ranges"],
    ["a range that runs backwards", { page_ranges: "3-1" }, "options.page_ranges"],
    ["page 0", { page_ranges: "0" }, "options.page_ranges"],
    ["prefer_css_page_size not a boolean", { prefer_css_page_size: "yes" }, "options.prefer_css_page_size"],
    ["tagged not a boolean", { tagged: 1 }, "options.tagged"],
    ["outline not a boolean", { outline: "true" }, "options.outline"],
    ["a header template that is not text", { header_template: 5 }, "options.header_template"],
    ["a footer template over 100 000 characters", { footer_template: "x".repeat(100_001) }, "options.footer_template"],
    ["keywords not a list", { metadata: { keywords: "a,b" } }, "options.metadata.keywords"],
    ["an unknown metadata field", { metadata: { creator: "me" } }, "options.metadata"],
    ["an empty wait_for", { wait_for: {} }, "options.wait_for"],
    ["wait_for with two conditions", { wait_for: { selector: "#a", delay_ms: 5 } }, "options.wait_for"],
    ["a negative delay", { wait_for: { delay_ms: -1 } }, "options.wait_for"],
    ["an empty selector", { wait_for: { selector: "" } }, "options.wait_for"],
  ];
  for (const [name, options, field] of cases) {
    test(name, async () => {
      const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "raw", html_template: "<p>x</p>", options } });
      expect(res.status).toBe(422);
      const body = (await res.json()) as { error: string; details: { field: string }[] };
      expect(body.error).toBe("validation_failed");
      expect(body.details.some((d) => d.field === field || d.field.startsWith(`${field}.`))).toBe(true);
    });
  }

  test("every option is in the OpenAPI document", async () => {
    const doc = inlined((await (await t.request("GET", "/api/v1/openapi.json", { key: null })).json()) as any);
    const schema = doc.paths["/api/v1/generate-pdf-async"].post.requestBody.content["application/json"].schema;
    const props = Object.keys(schema.properties.options.properties);
    for (const k of [
      "format",
      "landscape",
      "print_background",
      "scale",
      "margin",
      "width",
      "height",
      "prefer_css_page_size",
      "page_ranges",
      "header_template",
      "footer_template",
      "tagged",
      "outline",
      "metadata",
      "wait_for",
    ])
      expect(props).toContain(k);
  });
});
