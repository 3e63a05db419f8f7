// The limits every printed PDF is held to (--max-pdf-size, --max-pages), for the service and `reportgen render`.
import { RenderError } from "../lib/errors";
import { countPdfPages } from "./pdf-page-count";

/** The PDF's pages and bytes; a template fault (not retried) past either limit. */
export function checkPdfLimits(pdf: Uint8Array, limits: { maxPdfSize: number; maxPages: number }): { pages: number; bytes: number } {
  if (pdf.length > limits.maxPdfSize)
    throw new RenderError("pdf_too_large", `the PDF is ${pdf.length} bytes; the limit is ${limits.maxPdfSize}`);
  const pages = countPdfPages(pdf);
  if (pages > limits.maxPages) throw new RenderError("too_many_pages", `the PDF has ${pages} pages; the limit is ${limits.maxPages}`);
  return { pages, bytes: pdf.length };
}
