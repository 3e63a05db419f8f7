// Joining a chunked report's parts (src/modules/reports/chunked.ts) into one PDF: the parts' pages in
// order, and the parts' outlines as one outline whose entries open the right page of the joined document. The first
// part is qpdf's primary input, so the document information Chromium and reportgen wrote into it stays.
// The outline rides in the next qpdf run, as for a merge (merge.ts), through a JSON update.
import { readFile } from "node:fs/promises";
import type { Qpdf } from "./qpdf";
import { type QpdfUpdate, qpdfUpdate } from "./qpdf-layout";

/** An outline entry of a part: its title, its page in the part (from 0), where on it, and its entries. */
export interface OutlineNode {
  title: string;
  page: number;
  /** The destination after its page: e.g. ["/XYZ", 6.2, 831.8, 0]. */
  view: unknown[];
  kids: OutlineNode[];
}

/** A printed part: its file, its page count and its outline. */
export interface ChunkPart {
  path: string;
  pages: number;
  outline: OutlineNode[];
}

interface QpdfOutline {
  title: string;
  dest: unknown[] | null;
  destpageposfrom1: number | null;
  kids: QpdfOutline[];
}

/** The outline of a PDF as qpdf reads it; entries that open no page of the document are left out. */
export async function readOutline(qpdf: Qpdf, file: string, reportId: string): Promise<OutlineNode[]> {
  const out = `${file}.outline.json`;
  await qpdf.run(["--json=2", "--json-key=outlines", file, out], reportId);
  const { outlines } = JSON.parse(await readFile(out, "utf8")) as { outlines: QpdfOutline[] };
  const convert = (items: QpdfOutline[]): OutlineNode[] =>
    items.flatMap((o) =>
      o.destpageposfrom1 && Array.isArray(o.dest)
        ? [{ title: o.title, page: o.destpageposfrom1 - 1, view: o.dest.slice(1), kids: convert(o.kids) }]
        : convert(o.kids),
    );
  return convert(outlines);
}

/**
 * Joins `parts` into `joined`; page numbers across the whole are the pipeline's page_numbers step, which
 * runs on the joined document like on any other. Returns the qpdf JSON update that gives the joined document
 * the parts' outlines as one (or none) and drops what described the first part alone (its structure tree).
 */
export async function joinChunks(qpdf: Qpdf, reportId: string, parts: ChunkPart[], joined: string): Promise<QpdfUpdate> {
  const paths = parts.map((p) => p.path);
  // Part paths are ours (the work folder): nothing in them can read as an option.
  await qpdf.run(["--warning-exit-0", "--no-warn", paths[0]!, "--pages", ...paths, "--", joined], reportId);
  const layout = await objectsOf(qpdf, joined, reportId, ["trailer"], true);
  const rootRef = (layout.objects.trailer as { "/Root": string })["/Root"];
  const root = (await objectsOf(qpdf, joined, reportId, [rootRef], false)).objects[`obj:${rootRef}`] as Record<string, unknown>;
  return chunkOutlineUpdate({ ...layout, rootRef, root }, parts);
}

/** What chunkOutlineUpdate needs of the joined document. */
export interface JoinedLayout {
  maxobjectid: number;
  /** Page objects in order ("12 0 R"). */
  pages: string[];
  rootRef: string;
  root: Record<string, unknown>;
}

/**
 * The qpdf JSON update for the joined document: the catalog without the first part's outline and
 * structure tree (each part's tree describes that part only), plus the parts' outlines as new objects,
 * each entry's page moved by the pages of the parts before it.
 */
export function chunkOutlineUpdate(doc: JoinedLayout, parts: ChunkPart[]) {
  const { "/Outlines": _o, "/StructTreeRoot": _s, "/MarkInfo": _m, "/PageMode": _p, ...catalog } = doc.root;
  const ref = (n: number) => `${n} 0 R`;
  let next = doc.maxobjectid + 1;
  const update: Record<string, { value: unknown }> = {};
  type Placed = { node: OutlineNode; page: number; id: number; kids: Placed[] };
  const place = (nodes: OutlineNode[], offset: number): Placed[] =>
    nodes.map((node) => ({ node, page: offset + node.page, id: next++, kids: place(node.kids, offset) }));
  const top: Placed[] = [];
  const outlinesId = next++;
  let offset = 0;
  for (const p of parts) {
    top.push(...place(p.outline, offset));
    offset += p.pages;
  }
  const write = (items: Placed[], parent: number): number => {
    let count = 0;
    items.forEach((it, i) => {
      const v: Record<string, unknown> = { "/Title": `u:${it.node.title}`, "/Parent": ref(parent) };
      const page = doc.pages[it.page];
      if (page) v["/Dest"] = [page, ...it.node.view];
      if (i > 0) v["/Prev"] = ref(items[i - 1]!.id);
      if (i < items.length - 1) v["/Next"] = ref(items[i + 1]!.id);
      if (it.kids.length) {
        const n = write(it.kids, it.id);
        Object.assign(v, { "/First": ref(it.kids[0]!.id), "/Last": ref(it.kids[it.kids.length - 1]!.id), "/Count": n });
        count += n;
      }
      update[`obj:${ref(it.id)}`] = { value: v };
      count++;
    });
    return count;
  };
  if (top.length) {
    const count = write(top, outlinesId);
    update[`obj:${ref(outlinesId)}`] = {
      value: { "/Type": "/Outlines", "/First": ref(top[0]!.id), "/Last": ref(top[top.length - 1]!.id), "/Count": count },
    };
    Object.assign(catalog, { "/Outlines": ref(outlinesId), "/PageMode": "/UseOutlines" });
  }
  update[`obj:${doc.rootRef}`] = { value: catalog };
  return qpdfUpdate(doc.maxobjectid, update);
}

/** The named objects of a PDF (and, with `pages`, its page objects in order), from qpdf's JSON. */
async function objectsOf(
  qpdf: Qpdf,
  file: string,
  reportId: string,
  objects: string[],
  pages: boolean,
): Promise<{ maxobjectid: number; pages: string[]; objects: Record<string, unknown> }> {
  const out = `${file}.${pages ? "pages" : "objects"}.json`;
  const args = ["--json=2", ...(pages ? ["--json-key=pages"] : []), "--json-key=qpdf", ...objects.map((o) => `--json-object=${o}`)];
  await qpdf.run([...args, file, out], reportId);
  const json = JSON.parse(await readFile(out, "utf8")) as {
    pages?: { object: string }[];
    qpdf: [{ maxobjectid: number }, Record<string, { value: unknown }>];
  };
  const [head, objs] = json.qpdf;
  return {
    maxobjectid: head.maxobjectid,
    pages: (json.pages ?? []).map((p) => p.object),
    objects: Object.fromEntries(Object.entries(objs).map(([k, v]) => [k, v.value])),
  };
}
