// The parts of qpdf's JSON (version 2) that the steps read: a merge's outline, the table of contents,
// the page numbers. A file of its own: the steps' context names it, and qpdf.ts imports the plan.

export interface QpdfLayout {
  pages: { object: string }[];
  qpdf: [{ maxobjectid: number }, Record<string, { value: Record<string, unknown> }>];
}
