// The print pipeline of one report on one page slot: load the HTML, wait until it is ready, print
// it, and write its document information, all within the render deadline. Returns the PDF's bytes:
// the caller checks them against the limits (pdf-limits.ts) and stores them (modules/reports/producers.ts).
import { RenderError } from "../lib/errors";
import type { PdfOptions } from "../pdf/options";
import type { Slot } from "./page-slots";
import { layOutPages, pagedPrintParameters } from "./paged-media";
import { rewritePdfInfo } from "./pdf-metadata";
import { type Deadline, needsReadinessCheck, waitUntilReady, withPrintDefaults } from "./print-page";
import { printParameters, printToPdf } from "./print-to-pdf";
import { cleanDriverMessage } from "./render-failure";

export interface RenderJob {
  html: string;
  options: PdfOptions;
}

export interface PrintSettings {
  renderTimeoutMs: number;
  /** Written into every PDF's Creator and Producer. */
  creator: string;
}

/** Loads and prints a report on `slot` within settings.renderTimeoutMs (a render_timeout past it). */
export async function printReport(slot: Slot, job: RenderJob, settings: PrintSettings): Promise<Uint8Array> {
  const { renderTimeoutMs } = settings;
  const deadlineAt = performance.now() + renderTimeoutMs;
  let timer: Timer | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new RenderError(
            "render_timeout",
            `loading and printing the page took longer than ${renderTimeoutMs} ms (runaway page JavaScript, or a very large document)`,
          ),
        ),
      renderTimeoutMs,
    );
  });
  try {
    return await Promise.race([load(slot, job, settings, { at: deadlineAt, total: renderTimeoutMs }), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Loads the report, waits until it is ready, prints it and sets its document information. */
async function load(slot: Slot, job: RenderJob, settings: PrintSettings, deadline: Deadline): Promise<Uint8Array> {
  const o = job.options;
  // Paged.js measures the document on the screen: a paged document keeps its screen layout.
  await setContent(slot, withPrintDefaults(job.html, !slot.scripts && !o.pagedMedia));
  const params = o.pagedMedia ? pagedPrintParameters(printParameters(o)) : printParameters(o);
  // The header's "title" class shows document.title: let options.metadata.title stand in for a missing <title>.
  const titleBeforePrint = params.displayHeaderFooter && !!o.metadata.title;
  // Undefined when nothing can change after the load event: the title is then read from the PDF.
  const title = needsReadinessCheck(job.html, { scripts: slot.scripts || o.pagedMedia, waitFor: o.waitFor, titleBeforePrint })
    ? await waitUntilReady(slot.cdp, o.waitFor, deadline)
    : undefined;
  if (o.pagedMedia) await layOutPages(slot.cdp, slot.frameId, o, deadline);
  if (titleBeforePrint && !title?.trim())
    await slot.cdp.send("Runtime.evaluate", { expression: `document.title = ${JSON.stringify(o.metadata.title)}` });
  let pdf: Buffer;
  try {
    pdf = await printToPdf(slot.cdp, params, job.html.length);
  } catch (e) {
    const m = cleanDriverMessage((e as Error).message);
    if (/page range/i.test(m))
      throw new RenderError(
        "invalid_page_ranges",
        `options.page_ranges ${JSON.stringify(o.pageRanges)} asks for pages the document does not have (${m})`,
      );
    throw e;
  }
  const m = o.metadata;
  const info = (documentTitle: string) => ({
    title: m.title ?? (documentTitle.trim() || undefined),
    author: m.author,
    subject: m.subject,
    keywords: m.keywords,
    creator: settings.creator,
    producer: settings.creator,
  });
  return rewritePdfInfo(pdf, title === undefined ? info : info(title));
}

/**
 * Replaces the page's document with the report's HTML and waits for its load event (images, fonts
 * and frames included). Playwright's page.setContent does the same document.open/write/close with a
 * few more protocol round trips: this is 5-7 ms sooner for an invoice. A hung load ends at print()'s
 * deadline, which replaces the page.
 */
async function setContent(slot: Slot, html: string): Promise<void> {
  // The next load event on this session is this report's: release() made sure none of an earlier
  // document is still on its way.
  let onLoad!: () => void;
  let onCrash!: () => void;
  const loaded = new Promise<void>((resolve, reject) => {
    onLoad = resolve;
    onCrash = () => reject(new Error("the page crashed while loading"));
  });
  loaded.catch(() => {}); // a crash during the send below is reported by the send itself
  slot.cdp.on("Page.loadEventFired", onLoad);
  slot.page.on("crash", onCrash);
  try {
    await slot.cdp.send("Page.setDocumentContent", { frameId: slot.frameId, html });
    await loaded;
  } finally {
    slot.cdp.off("Page.loadEventFired", onLoad);
    slot.page.off("crash", onCrash);
  }
}
