// The table of contents' pages (options.toc): the HTML Chromium prints for them, and the qpdf JSON
// update that turns their links into links to the pages of the document they were inserted into.
import { jsonString, type OutlineEntry } from "./layout-read";
import { type QpdfLayout, qpdfUpdate } from "./qpdf-layout";

/**
 * Each entry links to this address and its number: Chromium writes an <a href> as a link annotation
 * with its rectangle, which linkUpdate() then points at the entry's page. Nothing ever loads it.
 */
export const TOC_LINK = "https://toc.reportgen.invalid/";

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot" }[c]};`);

/**
 * The TOC's HTML: the title, then one line per entry, indented by level, with its page number
 * right-aligned after a dotted leader. `numbers` are the page numbers to print, one per entry.
 */
export function tocHtml(title: string, entries: OutlineEntry[], numbers: number[]): string {
  const lines = entries
    .map(
      (e, i) =>
        `<li class="l${e.level}"><a href="${TOC_LINK}${i}"><span class="t">${escapeHtml(e.title || "(untitled)")}</span><span class="d"></span><span class="n">${numbers[i]}</span></a></li>`,
    )
    .join("");
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>
body{font-family:sans-serif;font-size:11pt;margin:0}h1{font-size:18pt;margin:0 0 8mm}ol{list-style:none;margin:0;padding:0}
li{margin:0 0 2.2mm;break-inside:avoid}a{display:flex;align-items:baseline;color:inherit;text-decoration:none}
.t{flex:0 1 auto}.d{flex:1 1 auto;border-bottom:1px dotted #888;margin:0 2mm;min-width:8mm}.n{flex:0 0 auto;font-variant-numeric:tabular-nums}
${[2, 3, 4, 5, 6].map((l) => `.l${l}{padding-left:${(l - 1) * 6}mm}`).join("")}.l1{font-weight:bold}
</style></head><body><h1>${escapeHtml(title)}</h1><ol>${lines}</ol></body></html>`;
}

/**
 * A qpdf JSON update for the document with the TOC inserted: every link annotation of the TOC's pages
 * whose URI is TOC_LINK + i becomes a link to `targets[i]` (its page index in that document, and the
 * top of the heading when known). Returns undefined when there is no such link.
 */
export function linkUpdate(layout: QpdfLayout, tocPages: number[], targets: { page: number; top?: number }[]) {
  const [head, objects] = layout.qpdf;
  const update: Record<string, { value: unknown }> = {};
  for (const index of tocPages) {
    const page = objects[`obj:${layout.pages[index]!.object}`]?.value;
    const annots = page?.["/Annots"];
    const refs = Array.isArray(annots)
      ? annots
      : typeof annots === "string"
        ? (objects[`obj:${annots}`]?.value as unknown as unknown[])
        : [];
    for (const ref of refs ?? []) {
      if (typeof ref !== "string") continue;
      const annot = objects[`obj:${ref}`]?.value;
      const action = annot?.["/A"] as Record<string, unknown> | undefined;
      const uri = jsonString(action?.["/URI"]);
      if (!annot || !uri.startsWith(TOC_LINK)) continue;
      const target = targets[Number(uri.slice(TOC_LINK.length))];
      if (!target) continue;
      const { "/A": _, ...rest } = annot;
      const dest = [layout.pages[target.page]!.object, "/XYZ", null, target.top ?? null, null];
      update[`obj:${ref}`] = { value: { ...rest, "/Dest": dest } };
    }
  }
  if (!Object.keys(update).length) return undefined;
  return qpdfUpdate(head.maxobjectid, update);
}
