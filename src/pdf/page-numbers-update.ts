// Page numbers written into the pages themselves, as one qpdf JSON update (--update-from-json): each
// page's content gets a "q" before it and, after it, "Q" and the number (overlay-pdf.ts draws it), and
// its fonts one more. qpdf's --overlay does the same job but parses every page's content to isolate it,
// which is most of its cost on a big report: 4.2 s for a 1,547-page ledger against 0.5 s for this.
// Wrapping without parsing is safe only when the content is balanced (as many Q as q), which holds for
// what Chromium prints; the step keeps the overlay for anything else. Pure.
import type { PageNumberPosition } from "./options";
import { type PageSize, pageNumberContent } from "./overlay-pdf";
import { type QpdfLayout, type QpdfUpdate, qpdfUpdate } from "./qpdf-layout";

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === "object" && v !== null && !Array.isArray(v);
const base64 = (text: string) => Buffer.from(text, "latin1").toString("base64");

/** A page's content streams, or undefined when they are not references (nothing qpdf JSON would show otherwise). */
function contentsOf(page: Dict): string[] | undefined {
  const c = page["/Contents"];
  if (c === undefined) return [];
  if (typeof c === "string") return [c];
  return Array.isArray(c) && c.every((x) => typeof x === "string") ? c : undefined;
}

/**
 * The update that numbers every page of `layout` (readPages with every page's object) with `texts`,
 * in Helvetica-Bold, together with `pending` (an update that writes no page: a chunked report's outline),
 * its new objects numbered after those of `pending`; undefined when a page's resources or fonts are not
 * its own dictionaries (shared or inherited: changing them would change other pages), so the caller
 * lays an overlay instead.
 */
export function pageNumbersUpdate(
  layout: QpdfLayout,
  texts: string[],
  sizes: PageSize[],
  position: PageNumberPosition,
  pending?: QpdfUpdate,
): QpdfUpdate | undefined {
  const objects = layout.qpdf[1];
  const pages = layout.pages.map((p) => ({ ref: p.object, value: objects[`obj:${p.object}`]?.value }));
  const fontsOf = (page: Dict) => ((page["/Resources"] as Dict)["/Font"] ?? {}) as Dict;
  for (const { value } of pages) {
    if (!value || !isDict(value["/Resources"]) || !isDict(fontsOf(value)) || !contentsOf(value)) return undefined;
  }
  // A font name none of the pages uses already.
  let fontName = "RGpn";
  while (pages.some((p) => Object.hasOwn(fontsOf(p.value!), `/${fontName}`))) fontName += "x";
  const numberOf = (key: string) => Number(/^obj:(\d+) /.exec(key)?.[1] ?? 0);
  const pendingObjects = pending?.qpdf[1] ?? {};
  let next = Math.max(layout.qpdf[0].maxobjectid, pending?.qpdf[0].maxobjectid ?? 0, ...Object.keys(pendingObjects).map(numberOf));
  const newRef = () => `${++next} 0 R`;
  const font = newRef();
  const open = newRef();
  const update: Dict = {
    ...pendingObjects,
    [`obj:${font}`]: { value: { "/Type": "/Font", "/Subtype": "/Type1", "/BaseFont": "/Helvetica-Bold", "/Encoding": "/WinAnsiEncoding" } },
    [`obj:${open}`]: { stream: { dict: {}, data: base64("q\n") } },
  };
  pages.forEach(({ ref, value }, i) => {
    const page = value!;
    const numbers = newRef();
    update[`obj:${numbers}`] = { stream: { dict: {}, data: base64(`\nQ ${pageNumberContent(texts[i]!, sizes[i]!, position, fontName)}`) } };
    const resources = page["/Resources"] as Dict;
    update[`obj:${ref}`] = {
      value: {
        ...page,
        "/Contents": [open, ...contentsOf(page)!, numbers],
        "/Resources": { ...resources, "/Font": { ...fontsOf(page), [`/${fontName}`]: font } },
      },
    };
  });
  return qpdfUpdate(next, update);
}
