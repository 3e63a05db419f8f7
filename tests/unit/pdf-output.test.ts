// Pure parts of PDF output: the Info dictionary rewrite, print defaults insertion, page ranges, fontconfig.
import { describe, expect, test } from "bun:test";
import { defaultPdfOptions, PAGE_RANGES_RE, pageRangesProblem } from "../../src/pdf/options";
import { fontconfigXml } from "../../src/render/fonts";
import { pdfTextString, readPdfTitle, rewritePdfInfo } from "../../src/render/pdf-metadata";
import { countPdfPages } from "../../src/render/pdf-page-count";
import { needsReadinessCheck, userAgentFor, withPrintDefaults } from "../../src/render/print-page";
import { INLINE_PDF_MAX_HTML, inches, printParameters, printToPdf } from "../../src/render/print-to-pdf";

/** A minimal PDF laid out as Skia writes one: Info first, a classic xref table, trailer with /Info. */
function skiaLikePdf(title = "(about:blank)"): Buffer {
  const objs = [
    `1 0 obj\n<</Title ${title}\n/Creator (Mozilla/5.0 HeadlessChrome/156)\n/Producer (Skia/PDF m156)>>\nendobj\n`,
    "2 0 obj\n<</Type /Catalog\n/Pages 3 0 R>>\nendobj\n",
    "3 0 obj\n<</Type /Pages\n/Count 1\n/Kids [4 0 R]>>\nendobj\n",
    "4 0 obj\n<</Type /Page\n/Parent 3 0 R\n/MediaBox [0 0 100 100]>>\nendobj\n",
  ];
  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  for (const o of objs) {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += o;
  }
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<</Size ${objs.length + 1}\n/Root 2 0 R\n/Info 1 0 R>>\nstartxref\n${xref}\n%%EOF`;
  return Buffer.from(out, "latin1");
}

/** Checks every xref offset points at its object header and startxref at the table. */
function expectConsistent(pdf: Uint8Array) {
  const text = Buffer.from(pdf).toString("latin1");
  const xrefAt = Number(/startxref\s+(\d+)/.exec(text)![1]);
  expect(text.slice(xrefAt, xrefAt + 4)).toBe("xref");
  const entries = [...text.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)];
  for (const [i, m] of entries.entries()) expect(text.slice(Number(m[1]), Number(m[1]) + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
}

describe("rewritePdfInfo", () => {
  test("replaces the Info object and shifts the cross-reference offsets", () => {
    const out = rewritePdfInfo(
      skiaLikePdf(),
      { title: "Zürich — 東京", author: "A", keywords: ["x", "y"], creator: "reportgen 1", producer: "reportgen 1" },
      new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
    );
    const text = Buffer.from(out).toString("latin1");
    expect(text).not.toContain("HeadlessChrome");
    expect(text).not.toContain("about:blank");
    expect(text).toContain(`/Title ${pdfTextString("Zürich — 東京")}`);
    expect(text).toContain(`/Keywords ${pdfTextString("x, y")}`);
    expect(text).toContain("/CreationDate (D:20260102030405+00'00')");
    expect(text).not.toContain("/Subject");
    expectConsistent(out);
    expect(countPdfPages(out)).toBe(1);
  });

  test("a longer and a shorter dictionary both keep the file consistent", () => {
    expectConsistent(rewritePdfInfo(skiaLikePdf(), { title: "x".repeat(5000), creator: "c", producer: "p" }));
    expectConsistent(rewritePdfInfo(skiaLikePdf(), { creator: "c", producer: "p" }));
  });

  test("refuses a file not laid out as Skia writes it", () => {
    expect(() => rewritePdfInfo(Buffer.from("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n"), { creator: "c", producer: "p" })).toThrow();
  });

  test("text strings are UTF-16BE hex: nothing in them reads as PDF syntax", () => {
    expect(pdfTextString("A(")).toBe("<FEFF00410028>");
    expect(pdfTextString("😀")).toBe("<FEFFD83DDE00>");
  });
});

describe("readPdfTitle", () => {
  test.each([
    ["(about:blank)", ""],
    ["(Invoice 123)", "Invoice 123"],
    ["(paren \\(x\\) back\\\\slash)", "paren (x) back\\slash"],
    ["(tab\\there\\nnl \\101\\102)", "tab\there\nnl AB"],
    ["<FEFF00DC006E0020D83DDE00>", "Ün 😀"],
    ["<FEFF 00DC\n0041>", "ÜA"],
    ["<4142>", "AB"],
    ["<FEFF004100>", "A"],
  ])("%s reads as %p", (written, title) => {
    expect(readPdfTitle(skiaLikePdf(written))).toBe(title);
  });

  test("a file without a Title has none; the rewrite passes what Chromium wrote to a function", () => {
    const pdf = skiaLikePdf("(Chromium's)");
    const text = Buffer.from(rewritePdfInfo(pdf, (t) => ({ title: `${t}!`, creator: "c", producer: "p" }))).toString("latin1");
    expect(text).toContain(`/Title ${pdfTextString("Chromium's!")}`);
    expect(readPdfTitle(rewritePdfInfo(pdf, { creator: "c", producer: "p" }))).toBe("");
  });
});

describe("needsReadinessCheck", () => {
  const plain = { scripts: false, titleBeforePrint: false };
  test("a plain script-less document is printed at its load event", () => {
    expect(needsReadinessCheck("<title>Invoice</title><style>p{font:12px Arial}</style><p>x", plain)).toBe(false);
  });
  test.each([
    ["<style>@font-face{font-family:X;src:url(data:font/ttf;base64,AA)}</style>"],
    ["<style>@FONT-FACE{}</style>"],
    ["<style>@f\\ont-face{}</style>"],
    ["<style>@import url(data:text/css,x);</style>"],
    ['<link rel="stylesheet" href="data:text/css;base64,QGZvbnQtZmFjZXt9">'],
    ["<title>about:blank</title>"],
  ])("asks the page when a web font or an ambiguous title may be there: %s", (html) => {
    expect(needsReadinessCheck(html, plain)).toBe(true);
  });
  test("asks the page when scripts run, wait_for is set, or the header needs the title first", () => {
    expect(needsReadinessCheck("<p>x", { ...plain, scripts: true })).toBe(true);
    expect(needsReadinessCheck("<p>x", { ...plain, waitFor: { delayMs: 1 } })).toBe(true);
    expect(needsReadinessCheck("<p>x", { ...plain, titleBeforePrint: true })).toBe(true);
  });
});

describe("printParameters", () => {
  test("lengths in inches, as Playwright converts them (mm and cm rounded to 3.78 and 37.8 px)", () => {
    expect(inches("0")).toBe(0);
    expect(inches("96px")).toBe(1);
    expect(inches("1.5in")).toBe(1.5);
    expect(inches("10mm")).toBeCloseTo((10 * 3.78) / 96, 12);
    expect(inches("2.54cm")).toBeCloseTo((2.54 * 37.8) / 96, 12);
    expect(() => inches("1em")).toThrow();
  });

  test("the defaults: A4, backgrounds, no margins, no header, CSS page size wins, untagged", () => {
    expect(printParameters(defaultPdfOptions)).toEqual({
      landscape: false,
      displayHeaderFooter: false,
      headerTemplate: "",
      footerTemplate: "",
      printBackground: true,
      scale: 1,
      paperWidth: 8.27,
      paperHeight: 11.7,
      marginTop: 0,
      marginBottom: 0,
      marginLeft: 0,
      marginRight: 0,
      pageRanges: "",
      preferCSSPageSize: true,
      generateTaggedPDF: false,
      generateDocumentOutline: false,
    });
  });

  test("a custom size wins over format and orientation; one header or footer turns both on", () => {
    const p = printParameters({
      ...defaultPdfOptions,
      format: "Letter",
      landscape: true,
      width: "4in",
      height: "192px",
      footerTemplate: "<b>F</b>",
    });
    expect(p).toMatchObject({
      paperWidth: 4,
      paperHeight: 2,
      landscape: false,
      displayHeaderFooter: true,
      headerTemplate: "<span></span>",
      footerTemplate: "<b>F</b>",
    });
    expect(printParameters({ ...defaultPdfOptions, format: "Legal", landscape: true })).toMatchObject({
      paperWidth: 8.5,
      paperHeight: 14,
      landscape: true,
    });
  });
});

describe("printToPdf", () => {
  /** Records the protocol calls; answers as Chromium does (the stream in two reads, then eof). */
  function recordingSession() {
    const calls: { method: string; params: Record<string, unknown> }[] = [];
    let reads = 0;
    const send = async (method: string, params: Record<string, unknown>) => {
      calls.push({ method, params });
      if (method === "Page.printToPDF")
        return params.transferMode === "ReturnAsBase64" ? { data: Buffer.from("%PDF-inline").toString("base64") } : { stream: "s1" };
      if (method === "IO.read")
        return ++reads === 1
          ? { data: Buffer.from("%PDF-").toString("base64"), base64Encoded: true, eof: false }
          : { data: Buffer.from("streamed").toString("base64"), base64Encoded: true, eof: true };
      return {};
    };
    return { calls, cdp: { send } as never };
  }
  const params = printParameters(defaultPdfOptions);

  test("a document up to the limit gets its PDF in the answer: one round trip", async () => {
    const { calls, cdp } = recordingSession();
    expect((await printToPdf(cdp, params, INLINE_PDF_MAX_HTML)).toString()).toBe("%PDF-inline");
    expect(calls.map((c) => [c.method, c.params.transferMode])).toEqual([["Page.printToPDF", "ReturnAsBase64"]]);
  });

  test("a bigger one streams it in bounded reads and closes the stream", async () => {
    const { calls, cdp } = recordingSession();
    expect((await printToPdf(cdp, params, INLINE_PDF_MAX_HTML + 1)).toString()).toBe("%PDF-streamed");
    expect(calls.map((c) => c.method)).toEqual(["Page.printToPDF", "IO.read", "IO.read", "IO.close"]);
    expect(calls[0]!.params.transferMode).toBe("ReturnAsStream");
    expect(calls[1]!.params.size).toBeLessThanOrEqual(8 * 1024 * 1024);
  });
});

describe("withPrintDefaults", () => {
  test("goes right after a doctype (comments and BOM before it allowed), so the mode is kept", () => {
    expect(withPrintDefaults("<!DOCTYPE html><html><p>x")).toMatch(
      /^<!DOCTYPE html><style data-reportgen-print-defaults>[^<]*<\/style><html>/,
    );
    expect(withPrintDefaults("\uFEFF <!-- a --> <!doctype html>\n<p>")).toMatch(/^\uFEFF <!-- a --> <!doctype html><style /);
  });

  test("goes first without a doctype", () => {
    expect(withPrintDefaults("<html lang=de><p>x")).toMatch(/^<style data-reportgen-print-defaults>.*<\/style><html lang=de>/);
    expect(withPrintDefaults("<p>a <!doctype html> inside</p>")).toMatch(/^<style /);
  });

  test("a print-only page's document has no screen layout, unless it holds what loads only with a box", () => {
    const hidden = "@media screen{:root{display:none!important}}";
    expect(withPrintDefaults("<!doctype html><table><tr><td>x</table>", true)).toMatch(
      new RegExp(`^<!doctype html><style [^>]*>[^<]*${hidden.replace(/[{}()!]/g, "\\$&")}</style><table>`),
    );
    expect(withPrintDefaults("<table><tr><td>x</table>")).not.toContain(hidden);
    for (const tag of ["<object data=x.svg>", "<EMBED src=x.svg>", "<video poster=p.png>", "<audio src=a.ogg>", "<frameset>"]) {
      expect(withPrintDefaults(`<p>x</p>${tag}`, true)).not.toContain(hidden);
    }
  });
});

describe("page ranges", () => {
  test.each([
    ["1", true],
    ["1-3, 5", true],
    [" 2 - 4 ,7", true],
    ["", false],
    ["1-", false],
    ["a", false],
    ["1;2", false],
  ])("%p matches the pattern: %p", (r, ok) => expect(PAGE_RANGES_RE.test(r)).toBe(ok));

  test("backwards ranges and page 0 are named", () => {
    expect(pageRangesProblem("3-1")).toContain("backwards");
    expect(pageRangesProblem("0")).toContain("from 1");
    expect(pageRangesProblem("1-3, 5")).toBeUndefined();
  });
});

test("fontconfig: CFF rejected, operator fonts and cache dir escaped, system config included", () => {
  const xml = fontconfigXml("/data/fontconfig/cache", "/srv/fonts & more");
  expect(xml).toContain('<patelt name="fontformat"><string>CFF</string></patelt>');
  expect(xml).toContain("<dir>/srv/fonts &amp; more</dir>");
  expect(xml).toContain("<cachedir>/data/fontconfig/cache</cachedir>");
  expect(xml).toContain("/etc/fonts/fonts.conf");
  expect(fontconfigXml("/c")).not.toContain("<dir>");
});

test("user agent: desktop Chrome of the running major version", () => {
  expect(userAgentFor("156.0.8078.79")).toBe(
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
  );
});
