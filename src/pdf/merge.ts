// Merging reports into one PDF: the parts joined in order, with one bookmark per part. The join is
// the pipeline's input for a merge; the outline rides in the first qpdf run of the plan.
import { readFile } from "node:fs/promises";
import { readPdfTitle } from "../render/pdf-metadata";
import type { Qpdf, QpdfLayout } from "./qpdf";
import { type QpdfUpdate, qpdfUpdate } from "./qpdf-layout";

/** A report to merge: its id (its bookmark's title when its PDF has none) and its stored PDF. */
export interface MergePart {
  id: string;
  path: string;
}

/**
 * Joins the parts' PDFs into `joined` (in `dir`) and writes the outline naming them; returns the
 * outline's path, a qpdf JSON update for the next run. First the parts alone, to learn where each
 * one's first page landed; the next run applies the outline with the plan's qpdf steps.
 */
export async function joinParts(
  qpdf: Qpdf,
  reportId: string,
  merge: { parts: MergePart[]; pageCounts: number[] },
  joined: string,
): Promise<QpdfUpdate> {
  // Part paths are ours (reports/<uuid>.pdf, or copies in the work folder): nothing in them can read as an option.
  const paths = merge.parts.map((p) => p.path);
  await qpdf.run(["--warning-exit-0", "--no-warn", "--empty", "--pages", ...paths, "--", joined], reportId);
  const titles = await Promise.all(merge.parts.map((p) => partTitle(p)));
  const layout = await qpdf.layout(joined, reportId);
  return outlineUpdate(layout, titles, merge.pageCounts);
}

/**
 * A qpdf JSON update that gives the document an outline with one entry per part, each opening the
 * part's first page: new objects after the highest one, and the catalog pointing at them.
 */
export function outlineUpdate(layout: QpdfLayout, titles: string[], pageCounts: number[]) {
  const [head, objects] = layout.qpdf;
  const rootRef = (objects.trailer!.value as { "/Root": string })["/Root"];
  const ref = (n: number) => `${n} 0 R`;
  const outlines = head.maxobjectid + 1;
  const item = (i: number) => outlines + 1 + i;
  const update: Record<string, { value: unknown }> = {
    [`obj:${rootRef}`]: { value: { ...objects[`obj:${rootRef}`]!.value, "/Outlines": ref(outlines), "/PageMode": "/UseOutlines" } },
    [`obj:${ref(outlines)}`]: {
      value: { "/Type": "/Outlines", "/First": ref(item(0)), "/Last": ref(item(titles.length - 1)), "/Count": titles.length },
    },
  };
  let firstPage = 0;
  titles.forEach((title, i) => {
    const v: Record<string, unknown> = {
      "/Title": `u:${title}`,
      "/Parent": ref(outlines),
      "/Dest": [layout.pages[firstPage]!.object, "/Fit"],
    };
    if (i > 0) v["/Prev"] = ref(item(i - 1));
    if (i < titles.length - 1) v["/Next"] = ref(item(i + 1));
    update[`obj:${ref(item(i))}`] = { value: v };
    firstPage += pageCounts[i]!;
  });
  return qpdfUpdate(head.maxobjectid, update);
}

/** The bookmark of a part: the title Chromium wrote (the document's <title> or metadata.title), else its id. */
async function partTitle(p: MergePart): Promise<string> {
  try {
    const title = readPdfTitle(await readFile(p.path)).trim();
    if (title) return title.slice(0, 200);
  } catch {
    // Not laid out as Skia writes it (a post-processed part): no title to read.
  }
  return `Report ${p.id}`;
}
