// What the table of contents and the page numbers read from qpdf's JSON of a PDF: the outline
// (bookmarks) in reading order with each entry's level and page, each page's size, and the objects of
// some pages and their annotations. Read in small pieces (qpdf's outlines and pages keys, then only the
// objects needed): the JSON of every object of a long tagged report would be hundreds of megabytes.
import type { PageSize } from "./overlay-pdf";
import type { QpdfLayout } from "./qpdf-layout";

/** qpdf's JSON of a file: only `keys`, and with "qpdf" only `objects`. */
export type QpdfJson = (file: string, keys: string[], objects?: string[]) => Promise<Record<string, unknown>>;

/** An entry of qpdf's "outlines" key (JSON version 2). */
export interface QpdfOutline {
  title: string;
  dest: unknown;
  destpageposfrom1: number | null;
  kids: QpdfOutline[];
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

/** The outline in reading order (depth first), down to `maxLevel`; an entry that points at no page is left out. */
export function outlineEntries(outlines: QpdfOutline[], maxLevel: number): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  const walk = (items: QpdfOutline[], level: number) => {
    if (level > maxLevel) return;
    for (const o of items) {
      if (typeof o.destpageposfrom1 === "number") {
        const d = Array.isArray(o.dest) ? o.dest : [];
        const top = d[1] === "/XYZ" && typeof d[3] === "number" ? d[3] : undefined;
        out.push({ title: (o.title ?? "").replace(/\s+/g, " ").trim(), level, page: o.destpageposfrom1 - 1, top });
      }
      walk(o.kids ?? [], level + 1);
    }
  };
  walk(outlines, 1);
  return out;
}

/** The document's outline entries (qpdf's outlines key) and its page count. */
export async function readOutline(json: QpdfJson, file: string, maxLevel: number): Promise<{ entries: OutlineEntry[]; pages: number }> {
  const j = (await json(file, ["outlines", "pages"])) as { outlines: QpdfOutline[]; pages: unknown[] };
  return { entries: outlineEntries(j.outlines, maxLevel), pages: j.pages.length };
}

/**
 * Every page of the file, with the objects of the pages at `positions` (0-based; all when absent) and,
 * with `annotations`, of their annotations: enough for pageSizes() and the TOC's linkUpdate().
 */
export async function readPages(json: QpdfJson, file: string, positions?: number[], annotations = false): Promise<QpdfLayout> {
  const { pages } = (await json(file, ["pages"])) as { pages: { object: string }[] };
  const refs = (positions ?? pages.map((_, i) => i)).map((i) => pages[i]!.object);
  const read = async (wanted: string[]) => (await json(file, ["qpdf"], wanted)) as unknown as { qpdf: QpdfLayout["qpdf"] };
  const first = await read(refs);
  const objects = { ...first.qpdf[1] };
  let head = first.qpdf[0];
  if (annotations) {
    const annots = refs.flatMap((r) => {
      const a = objects[`obj:${r}`]?.value["/Annots"];
      return Array.isArray(a) ? a.filter((x): x is string => typeof x === "string") : [];
    });
    if (annots.length) {
      const more = await read(annots);
      Object.assign(objects, more.qpdf[1]);
      head = more.qpdf[0];
    }
  }
  return { pages, qpdf: [head, objects] };
}

/** Each page's MediaBox as a size; `fallback` for a page whose box is inherited, unread or unreadable. */
export function pageSizes(layout: QpdfLayout, fallback: PageSize): PageSize[] {
  const objects = layout.qpdf[1];
  return layout.pages.map((p) => {
    const box = objects[`obj:${p.object}`]?.value["/MediaBox"];
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
