// options.page_numbers: "Page X of Y" stamped on every page as real text, counted across the whole
// document as it finally reads (a merge's parts continuously, a table of contents' pages included).
// Chromium's pages get the numbers written into their content (page-numbers-update.ts: one qpdf run
// that does not parse the content); other pages (a merge of uploaded PDFs, or PDF/A's embedded font)
// one overlay page per page, each with its own number, laid over page for page by qpdf.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pageSizes, readPages } from "../layout-read";
import { PAGE_NUMBER_DEFAULTS, type PageNumberPosition } from "../options";
import { pageNumbersPdf } from "../overlay-pdf";
import { pageNumbersUpdate } from "../page-numbers-update";
import { writeUpdate } from "../qpdf-layout";
import type { FileStep } from "../step";
import { watermarkFont } from "../watermark-font";

export interface PageNumbersParams {
  template: string;
  position: PageNumberPosition;
  /** Draw in an embedded font (PDF/A forbids the standard Helvetica that is not embedded). */
  embedFont: boolean;
}

/** The text of page `page` of `pages`: {page} and {pages} filled in. */
export const pageNumberText = (template: string, page: number, pages: number) =>
  template.replaceAll("{page}", String(page)).replaceAll("{pages}", String(pages));

export const pageNumbers: FileStep<PageNumbersParams> = {
  name: "page_numbers",
  tool: "file",
  appliesUpdate: true,
  plan: ({ options: o }) =>
    o.page_numbers && {
      template: o.page_numbers.template ?? PAGE_NUMBER_DEFAULTS.template,
      position: o.page_numbers.position ?? PAGE_NUMBER_DEFAULTS.position,
      embedFont: o.pdfa !== undefined || o.e_invoice !== undefined,
    },
  run: async (p, ctx, input, output) => {
    const layout = await readPages(ctx.json, input);
    const sizes = pageSizes(layout, await ctx.pageSize());
    const texts = sizes.map((_, i) => pageNumberText(p.template, i + 1, sizes.length));
    // The pipeline's pending update (a chunked report's outline) rides in this step's one qpdf run.
    const update = ctx.balancedContent && !p.embedFont ? pageNumbersUpdate(layout, texts, sizes, p.position, ctx.update) : undefined;
    if (update) {
      await ctx.qpdf([
        "--warning-exit-0",
        "--no-warn",
        `--update-from-json=${await writeUpdate(ctx.dir(), "page-numbers.json", update)}`,
        input,
        output,
      ]);
      return undefined;
    }
    const font = p.embedFont ? await watermarkFont() : undefined;
    const numbers = join(ctx.dir(), "page-numbers.pdf");
    await writeFile(numbers, pageNumbersPdf(texts, sizes, p.position, font));
    // Page i of the overlay over page i (qpdf applies an update to the input first). Paths are ours (the
    // work folder): nothing in them reads as an option.
    const applied = ctx.update ? [`--update-from-json=${await writeUpdate(ctx.dir(), "outline.json", ctx.update)}`] : [];
    await ctx.qpdf(["--warning-exit-0", "--no-warn", ...applied, input, "--overlay", numbers, "--from=1-z", "--", output]);
    return undefined;
  },
};
