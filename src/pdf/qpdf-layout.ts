// The parts of qpdf's JSON (version 2) that the steps read (a merge's outline, the table of contents,
// the page numbers), and the updates (--update-from-json) they write. A file of its own: the steps'
// context names it, and qpdf.ts imports the plan.

import { writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface QpdfLayout {
  pages: { object: string }[];
  qpdf: [{ maxobjectid: number }, Record<string, { value: Record<string, unknown> }>];
}

/** A qpdf JSON (version 2) update: its header, and the objects it writes by "obj:N 0 R". */
export type QpdfUpdate<O = unknown> = {
  qpdf: [{ jsonversion: 2; pushedinheritedpageresources: false; calledgetallpages: false; maxobjectid: number }, Record<string, O>];
};

/** The update that writes `objects`, whose new objects are numbered up to `maxobjectid`. */
export function qpdfUpdate<O>(maxobjectid: number, objects: Record<string, O>): QpdfUpdate<O> {
  return { qpdf: [{ jsonversion: 2, pushedinheritedpageresources: false, calledgetallpages: false, maxobjectid }, objects] };
}

/** Writes `update` as `dir`/`name` for qpdf's --update-from-json; returns its path. */
export async function writeUpdate(dir: string, name: string, update: QpdfUpdate): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(update));
  return path;
}
