// How a report's page is printed: its options as CDP Page.printToPDF parameters, and the call itself.
//
// BrowserHost prints through its own CDP session instead of Playwright's page.pdf(), which always asks
// for the PDF as a stream: Chromium then writes the PDF into a temporary file and hands it back over
// three more round trips (two IO.read, IO.close). Returned inline (base64) in the answer itself, a small
// document prints sooner with the same bytes (commit e1142b5 has the measurement; compare with
// `bun scripts/bench.ts --service-root <a checkout>`). A big document still streams, in bounded chunks: one base64 answer
// would hold the whole PDF (up to --max-pdf-size) as one string in Chromium and in this thread.
import type { CDPSession } from "playwright-core";
import type { PdfOptions } from "../pdf/options";

/** The parameters of Page.printToPDF that reports set (lengths in inches). */
export interface PrintParameters {
  landscape: boolean;
  displayHeaderFooter: boolean;
  headerTemplate: string;
  footerTemplate: string;
  printBackground: boolean;
  scale: number;
  paperWidth: number;
  paperHeight: number;
  marginTop: number;
  marginBottom: number;
  marginLeft: number;
  marginRight: number;
  pageRanges: string;
  preferCSSPageSize: boolean;
  generateTaggedPDF: boolean;
  generateDocumentOutline: boolean;
}

/** Paper formats in inches, as Playwright and Chromium's own print preview size them. */
const PAPER_INCHES: Record<PdfOptions["format"], { width: number; height: number }> = {
  A3: { width: 11.7, height: 16.54 },
  A4: { width: 8.27, height: 11.7 },
  A5: { width: 5.83, height: 8.27 },
  Letter: { width: 8.5, height: 11 },
  Legal: { width: 8.5, height: 14 },
  Tabloid: { width: 11, height: 17 },
};

/** CSS pixels per unit of the lengths options accept (CSS_LENGTH_RE), with Playwright's rounding of cm and mm. */
const PX_PER_UNIT: Record<string, number> = { px: 1, in: 96, cm: 37.8, mm: 3.78 };

/** A CSS length of the options ("0", "12.5mm", "1in") in inches. */
export function inches(length: string): number {
  const m = /^([\d.]+)(px|in|cm|mm)?$/.exec(length);
  if (!m) throw new Error(`not a CSS length: ${length}`);
  return (Number(m[1]) * PX_PER_UNIT[m[2] ?? "px"]!) / 96;
}

/**
 * Page.printToPDF's parameters for a report's options: what Playwright's page.pdf() sent for the same
 * options, so PDFs are the same as before. A header or footer turns both on; an absent one is blank
 * (an empty template would make Chromium print its own: date, title, URL).
 */
export function printParameters(o: PdfOptions): PrintParameters {
  const headerFooter = o.headerTemplate !== undefined || o.footerTemplate !== undefined;
  // A custom size is the paper as given: orientation belongs to a named format.
  const custom = o.width && o.height ? { width: inches(o.width), height: inches(o.height) } : undefined;
  const paper = custom ?? PAPER_INCHES[o.format];
  return {
    landscape: !custom && o.landscape,
    displayHeaderFooter: headerFooter,
    headerTemplate: headerFooter ? o.headerTemplate || "<span></span>" : "",
    footerTemplate: headerFooter ? o.footerTemplate || "<span></span>" : "",
    printBackground: o.printBackground,
    scale: o.scale,
    paperWidth: paper.width,
    paperHeight: paper.height,
    marginTop: inches(o.margin.top),
    marginBottom: inches(o.margin.bottom),
    marginLeft: inches(o.margin.left),
    marginRight: inches(o.margin.right),
    pageRanges: o.pageRanges,
    preferCSSPageSize: o.preferCssPageSize,
    generateTaggedPDF: o.tagged,
    generateDocumentOutline: o.outline,
  };
}

/** The sheet the options ask for, in inches, turned when a named format is landscape. */
export function paperInches(o: PdfOptions): { width: number; height: number } {
  if (o.width && o.height) return { width: inches(o.width), height: inches(o.height) };
  const p = PAPER_INCHES[o.format];
  return o.landscape ? { width: p.height, height: p.width } : p;
}

/** Documents up to this many characters of HTML get their PDF inline; bigger ones stream it. */
export const INLINE_PDF_MAX_HTML = 1024 * 1024;
/** Bytes per IO.read of a streamed PDF. */
const STREAM_CHUNK = 8 * 1024 * 1024;

/**
 * Prints the page of `cdp`. A document of at most INLINE_PDF_MAX_HTML characters (the 1000-row bench
 * report has 145 000) gets its PDF in the answer; a bigger one, whose PDF may be big too, streams it.
 */
export async function printToPdf(cdp: CDPSession, params: PrintParameters, htmlLength: number): Promise<Buffer> {
  if (htmlLength <= INLINE_PDF_MAX_HTML) {
    const { data } = await cdp.send("Page.printToPDF", { ...params, transferMode: "ReturnAsBase64" });
    return Buffer.from(data, "base64");
  }
  const { stream } = await cdp.send("Page.printToPDF", { ...params, transferMode: "ReturnAsStream" });
  if (!stream) throw new Error("Chromium returned no PDF stream");
  const chunks: Buffer[] = [];
  try {
    for (;;) {
      const r = await cdp.send("IO.read", { handle: stream, size: STREAM_CHUNK });
      chunks.push(Buffer.from(r.data, r.base64Encoded ? "base64" : "utf8"));
      if (r.eof) break;
    }
  } finally {
    // Frees Chromium's temporary file; nothing waits for the answer.
    cdp.send("IO.close", { handle: stream }).catch(() => {});
  }
  return Buffer.concat(chunks);
}
