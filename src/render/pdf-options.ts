// The print options a client may set per report, with their defaults. Shared by validation and the renderer.
export const paperFormats = ["A3", "A4", "A5", "Letter", "Legal", "Tabloid"] as const;
export type PaperFormat = (typeof paperFormats)[number];

/** What must be true before the page is printed (options.wait_for); fonts are awaited in every case. */
export type WaitFor = { selector: string } | { expression: string } | { delayMs: number };

export interface PdfMetadata {
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string[];
}

export interface PdfOptions {
  format: PaperFormat;
  landscape: boolean;
  printBackground: boolean;
  scale: number;
  margin: { top: string; right: string; bottom: string; left: string };
  /** Custom paper size (CSS lengths); both or neither. They win over format. */
  width?: string;
  height?: string;
  /** A CSS @page size wins over format/width/height (default true, as before these options existed). */
  preferCssPageSize: boolean;
  /** "1-3, 5": pages to keep; empty keeps all. */
  pageRanges: string;
  /** HTML of the header/footer; either one turns both on (an absent one prints empty). */
  headerTemplate?: string;
  footerTemplate?: string;
  /** Tagged (accessible) PDF, and an outline (bookmarks) built from the headings. */
  tagged: boolean;
  outline: boolean;
  metadata: PdfMetadata;
  waitFor?: WaitFor;
}

export const defaultPdfOptions: PdfOptions = {
  format: "A4",
  landscape: false,
  printBackground: true,
  scale: 1,
  margin: { top: "0", right: "0", bottom: "0", left: "0" },
  preferCssPageSize: true,
  pageRanges: "",
  tagged: false,
  outline: false,
  metadata: {},
};

/** Margin given to a header or footer when the client set none on that side: room for one line of small text. */
export const HEADER_FOOTER_MARGIN = "15mm";

/** A CSS length as Chromium's print settings accept it. */
export const CSS_LENGTH_RE = /^(0|\d{1,4}(\.\d{1,3})?(px|in|cm|mm))$/;

/** "1-5, 8, 11-13" as Chromium's pageRanges takes it: pages from 1, ranges in order. */
export const PAGE_RANGES_RE = /^\s*\d{1,5}(\s*-\s*\d{1,5})?(\s*,\s*\d{1,5}(\s*-\s*\d{1,5})?){0,49}\s*$/;

/** The problem with a page range list that its pattern cannot see (a range that runs backwards, page 0), or undefined. */
export function pageRangesProblem(ranges: string): string | undefined {
  for (const part of ranges.split(",")) {
    const [a, b = a] = part.split("-").map((s) => Number(s.trim()));
    if (a! < 1) return "pages are numbered from 1";
    if (b! < a!) return `the range ${part.trim()} runs backwards`;
  }
  return undefined;
}
