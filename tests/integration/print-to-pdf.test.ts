// BrowserHost prints through its own CDP session (src/render/print-to-pdf.ts) instead of Playwright's
// page.pdf(). For every option the service takes, the PDF must be the one page.pdf() makes of the same
// page (byte for byte, but for its dates), whether it comes back inline or streamed; and a document
// big enough to stream prints whole through the service.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { type Browser, type CDPSession, chromium, type Page } from "playwright-core";
import { settings } from "../../src/config/settings";
import { defaultPdfOptions, type PdfOptions } from "../../src/pdf/options";
import { INLINE_PDF_MAX_HTML, printParameters, printToPdf } from "../../src/render/print-to-pdf";
import { generate, pdfInfo, type TestApp, useRenderApp } from "../helpers/app";
import { pageText } from "../helpers/pdf";

setDefaultTimeout(60_000);

let t: TestApp;
useRenderApp((a) => (t = a));

let browser: Browser;
let page: Page;
let cdp: CDPSession;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: settings.chromiumPath.default, chromiumSandbox: false });
  const context = await browser.newContext();
  page = await context.newPage();
  cdp = await context.newCDPSession(page);
  await page.setContent(`<title>Doc</title><h1>Chapter</h1><p>text</p><h2>Section</h2>${"<p>more</p>".repeat(80)}`);
});
afterAll(() => browser?.close());

const withoutDates = (pdf: Uint8Array) =>
  Buffer.from(pdf)
    .toString("latin1")
    .replace(/\/(CreationDate|ModDate) \([^)]*\)/g, "");

/** What BrowserHost passed to page.pdf() for these options before it printed through CDP itself. */
function playwrightOptions(o: PdfOptions) {
  const headerFooter = o.headerTemplate !== undefined || o.footerTemplate !== undefined;
  return {
    ...(o.width && o.height ? { width: o.width, height: o.height } : { format: o.format, landscape: o.landscape }),
    printBackground: o.printBackground,
    scale: o.scale,
    margin: o.margin,
    preferCSSPageSize: o.preferCssPageSize,
    pageRanges: o.pageRanges,
    displayHeaderFooter: headerFooter,
    headerTemplate: headerFooter ? o.headerTemplate || "<span></span>" : undefined,
    footerTemplate: headerFooter ? o.footerTemplate || "<span></span>" : undefined,
    tagged: o.tagged,
    outline: o.outline,
  };
}

const cases: [string, Partial<PdfOptions>][] = [
  ["the defaults", {}],
  ["Letter, landscape, scaled", { format: "Letter", landscape: true, scale: 1.3 }],
  ["A3", { format: "A3" }],
  ["A5", { format: "A5", printBackground: false }],
  ["Legal", { format: "Legal" }],
  ["Tabloid, landscape", { format: "Tabloid", landscape: true }],
  ["custom size in mm, landscape ignored", { width: "100mm", height: "50.5mm", landscape: true }],
  ["custom size in in and px", { width: "5in", height: "600px" }],
  ["margins in every unit", { margin: { top: "12.5mm", right: "1in", bottom: "30px", left: "2.54cm" } }],
  [
    "header and footer",
    {
      headerTemplate: '<span class="title"></span>',
      footerTemplate: '<span class="pageNumber"></span>',
      margin: { top: "15mm", right: "0", bottom: "15mm", left: "0" },
    },
  ],
  ["a footer alone", { footerTemplate: "<span>F</span>" }],
  ["page ranges, no CSS page size", { pageRanges: "1, 2-2", preferCssPageSize: false }],
  ["tagged with an outline", { tagged: true, outline: true }],
];

describe("the PDF is page.pdf()'s, inline and streamed", () => {
  for (const [name, options] of cases) {
    test(name, async () => {
      const o: PdfOptions = { ...defaultPdfOptions, ...options };
      const reference = withoutDates(await page.pdf(playwrightOptions(o)));
      expect(withoutDates(await printToPdf(cdp, printParameters(o), 100))).toBe(reference);
      expect(withoutDates(await printToPdf(cdp, printParameters(o), INLINE_PDF_MAX_HTML + 1))).toBe(reference);
    });
  }

  test("a page range past the end fails as page.pdf() does: the message names the page range", async () => {
    const o = { ...defaultPdfOptions, pageRanges: "99" };
    for (const length of [100, INLINE_PDF_MAX_HTML + 1]) {
      // Awaited directly, not through expect().rejects (tests/unit/browser-test-waits.test.ts says why).
      const failure = await printToPdf(cdp, printParameters(o), length).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(failure?.message).toMatch(/page range/i);
    }
  });
});

test("a document over the inline limit streams its PDF and prints whole through the service", async () => {
  // ~1.3 MB of HTML: 4000 rows.
  const rows = Array.from({ length: 4000 }, (_, i) => `<tr><td>ROW${i}</td><td>${"lorem ipsum dolor sit amet ".repeat(10)}</td></tr>`).join(
    "",
  );
  const html = `<title>Big</title><table>${rows}</table>`;
  expect(html.length).toBeGreaterThan(INLINE_PDF_MAX_HTML);
  const { report, pdf } = await generate(t, { engine: "raw", html_template: html });
  expect(report.status).toBe("succeeded");
  const info = await pdfInfo(pdf!);
  expect(Number(info.Pages)).toBe(report.page_count);
  expect(info.Title).toBe("Big");
  expect(pageText(pdf!, report.page_count)).toContain("ROW3999");
});
