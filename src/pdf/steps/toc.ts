// options.toc: a table of contents inserted after the first page, from the document's outline (the
// headings Chromium writes as bookmarks, or a merge's parts), with the page each entry prints on and
// a link to it. The TOC is printed by Chromium like any report (real text in every script), then
// inserted with qpdf; its own page count shifts the numbers after page 1, so it is printed again
// until that count holds (a long TOC that grows a page as numbers widen).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { countPdfPages } from "../../render/pdf-page-count";
import { readOutline, readPages } from "../layout-read";
import { defaultPdfOptions, tocSettings } from "../options";
import type { FileStep } from "../step";
import { linkUpdate, tocHtml } from "../toc-page";

export interface TocParams {
  title: string;
  levels: number;
}

/** Prints of the TOC before its page count must have settled (each print may add a page). */
const MAX_PRINTS = 4;

export const toc: FileStep<TocParams> = {
  name: "toc",
  tool: "file",
  // A paged document lays its TOC out with its pages (render/paged-media.ts), its counters included.
  plan: ({ options: { toc: t, paged_media } }) => (t === undefined || t === false || paged_media ? undefined : tocSettings(t)),
  run: async (p, ctx, input, output) => {
    if (!ctx.print) throw new Error("a table of contents needs the render pool, which this pipeline was made without");
    const dir = ctx.dir();
    const { entries, pages: total } = await readOutline(ctx.json, input, p.levels);
    const size = await ctx.pageSize();
    const options = {
      ...defaultPdfOptions,
      width: `${(size.width / 72).toFixed(3)}in`,
      height: `${(size.height / 72).toFixed(3)}in`,
      margin: { top: "20mm", right: "18mm", bottom: "20mm", left: "18mm" },
      metadata: {},
    };
    // Where each entry prints once `added` TOC pages follow page 1.
    const shifted = (page: number, added: number) => (page === 0 ? 0 : page + added);
    let added = 1;
    let pdf: Uint8Array | undefined;
    for (let i = 0; i < MAX_PRINTS; i++) {
      pdf = await ctx.print(
        tocHtml(
          p.title,
          entries,
          entries.map((e) => shifted(e.page, added) + 1),
        ),
        options,
      );
      const pages = countPdfPages(pdf);
      if (pages === added) break;
      added = pages;
    }
    const tocFile = join(dir, "toc.pdf");
    await writeFile(tocFile, pdf!);
    const joined = join(dir, "toc-joined.pdf");
    // The input is the primary file: its outline, structure and named destinations stay. Paths are ours.
    const rest = total > 1 ? [input, "2-z"] : [];
    await ctx.qpdf(["--warning-exit-0", "--no-warn", input, "--pages", input, "1", tocFile, "1-z", ...rest, "--", joined]);
    const tocPages = Array.from({ length: added }, (_, i) => i + 1);
    const after = await readPages(ctx.json, joined, tocPages, true);
    const update = linkUpdate(
      after,
      tocPages,
      entries.map((e) => ({ page: shifted(e.page, added), top: e.top })),
    );
    if (!update) {
      await ctx.qpdf(["--warning-exit-0", "--no-warn", joined, output]);
      return added;
    }
    const updateFile = join(dir, "toc-links.json");
    await writeFile(updateFile, JSON.stringify(update));
    await ctx.qpdf(["--warning-exit-0", "--no-warn", `--update-from-json=${updateFile}`, joined, output]);
    return added;
  },
};
