// What the table of contents and the page numbers read from qpdf's JSON of a PDF: each page's size,
// and the outline (bookmarks) in reading order with each entry's level and page.
import type { PageSize } from "./overlay-pdf";
import type { QpdfLayout } from "./qpdf-layout";

type Objects = QpdfLayout["qpdf"][1];

const objectAt = (objects: Objects, ref: unknown) =>
  typeof ref === "string" ? (objects[`obj:${ref}`]?.value as Record<string, unknown> | undefined) : undefined;

/** Each page's MediaBox as a size; `fallback` for a page whose box is inherited or unreadable. */
export function pageSizes(layout: QpdfLayout, fallback: PageSize): PageSize[] {
  const objects = layout.qpdf[1];
  return layout.pages.map((p) => {
    const box = objectAt(objects, p.object)?.["/MediaBox"];
    if (!Array.isArray(box) || box.length !== 4 || !box.every((n) => typeof n === "number")) return fallback;
    const [x0, y0, x1, y1] = box as number[];
    return { width: x1! - x0!, height: y1! - y0! };
  });
}

/** A PDF string of qpdf's JSON version 2 ("u:text", or "b:hex" for bytes) as text. */
export function jsonString(s: unknown): string {
  if (typeof s !== "string") return "";
  if (s.startsWith("u:")) return s.slice(2);
  if (s.startsWith("b:")) {
    const bytes = Buffer.from(s.slice(2), "hex");
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return bytes.subarray(2).swap16().toString("utf16le");
    return bytes.toString("latin1");
  }
  return s;
}

export interface OutlineEntry {
  title: string;
  /** 1 for a top-level bookmark. */
  level: number;
  /** 0-based page index. */
  page: number;
  /** Where on the page the destination points (its /XYZ top), when it says. */
  top?: number;
}

/**
 * The outline in reading order (depth first), down to `maxLevel`. An entry whose destination is a
 * name is looked up in the catalog's /Dests (Chromium's named destinations); one that points nowhere
 * known is left out.
 */
export function outlineEntries(layout: QpdfLayout, maxLevel: number): OutlineEntry[] {
  const objects = layout.qpdf[1];
  const root = objectAt(objects, (objects.trailer?.value as Record<string, unknown> | undefined)?.["/Root"]);
  const outlines = objectAt(objects, root?.["/Outlines"]);
  const dests = objectAt(objects, root?.["/Dests"]) ?? (root?.["/Dests"] as Record<string, unknown> | undefined);
  const pageOf = new Map(layout.pages.map((p, i) => [p.object, i]));
  const out: OutlineEntry[] = [];
  const seen = new Set<string>();
  const walk = (ref: unknown, level: number) => {
    while (typeof ref === "string" && !seen.has(ref) && level <= maxLevel) {
      seen.add(ref);
      const item = objectAt(objects, ref);
      if (!item) return;
      let dest = item["/Dest"] ?? (objectAt(objects, item["/A"]) ?? (item["/A"] as Record<string, unknown> | undefined))?.["/D"];
      if (typeof dest === "string" && dests) dest = dests[dest.replace(/^u:/, "/")] ?? dests[dest];
      if (Array.isArray(dest) && pageOf.has(dest[0] as string)) {
        const top = dest[1] === "/XYZ" && typeof dest[3] === "number" ? dest[3] : undefined;
        out.push({ title: jsonString(item["/Title"]).trim(), level, page: pageOf.get(dest[0] as string)!, top });
      }
      walk(item["/First"], level + 1);
      ref = item["/Next"];
    }
  };
  walk(outlines?.["/First"], 1);
  return out;
}
