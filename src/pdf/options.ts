// The options of a report, in one module: what a client may set in `options` (the print settings and
// the post-processing fields), the renderer's complete print settings with their defaults, and the
// four things done with them: check (what the schema cannot say), merge (a stored template's defaults
// under a request's), resolve (stored JSON to the renderer's PdfOptions) and hasPostOptions. The API,
// stored templates, `reportgen render`, the processor and the PDF pipeline (plan.ts, steps/) all import
// them from here; the TypeBox schema of the same fields (the API's validation and OpenAPI) is
// options-schema.ts, and what a schema cannot check about the post-processing fields is option-problems.ts.
import type { EInvoiceTemplateData } from "../einvoice/template-data";
import { validationFailed } from "../lib/errors";
import type { ChunkRequest } from "./chunk-options";
import type { ImageFormat } from "./raster";

// The renderer's print settings.
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
  /** CSS Paged Media through Paged.js (src/render/paged-media.ts). */
  pagedMedia: boolean;
  /** A table of contents laid out with a paged document (without paged media, the toc step inserts one). */
  toc?: { title: string; levels: number };
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
  pagedMedia: false,
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

// `options` as a client sends it: print settings, then the post-processing fields.
/** options as the client sends them, stored as JSON with the report. */
export interface StoredPdfOptions {
  format?: PdfOptions["format"];
  landscape?: boolean;
  print_background?: boolean;
  scale?: number;
  margin?: Partial<PdfOptions["margin"]>;
  width?: string;
  height?: string;
  prefer_css_page_size?: boolean;
  page_ranges?: string;
  header_template?: string;
  footer_template?: string;
  tagged?: boolean;
  outline?: boolean;
  metadata?: PdfMetadata;
  wait_for?: { selector: string } | { expression: string } | { delay_ms: number };
  paged_media?: boolean;
  /** Render the template once per slice of one data array and join the parts (chunk-options.ts). */
  chunk?: ChunkRequest;
}

/** Who may do what with an encrypted PDF without the owner password. Everything not listed is refused. */
export const pdfPermissions = ["print", "copy", "modify", "annotate"] as const;
export type PdfPermission = (typeof pdfPermissions)[number];

export const layerPositions = ["under", "over"] as const;
export type LayerPosition = (typeof layerPositions)[number];

/** The passwords as a client sends them: they never reach the database in this form (see PasswordSeal). */
export interface EncryptionRequest {
  user_password?: string;
  owner_password: string;
  permissions?: PdfPermission[];
}

export interface WatermarkRequest {
  text: string;
  opacity?: number;
  angle?: number;
  position?: LayerPosition;
}

export type StampRequest =
  | { pdf_report_id: string; position?: LayerPosition }
  | { image: { content_base64: string; mime_type: "image/jpeg" }; opacity?: number; position?: LayerPosition };

export interface AttachmentRequest {
  filename: string;
  content_base64: string;
  mime_type?: string;
}

/** PDF/A conformance levels the pdfa step writes: PDF/A-2b, or PDF/A-3b (which may carry attachments). */
export const pdfaLevels = ["2b", "3b"] as const;
export type PdfaLevel = (typeof pdfaLevels)[number];

export const pageNumberPositions = ["top-left", "top-center", "top-right", "bottom-left", "bottom-center", "bottom-right"] as const;
export type PageNumberPosition = (typeof pageNumberPositions)[number];

export interface PageNumbersRequest {
  /** WinAnsi text; {page} and {pages} are filled in. */
  template?: string;
  position?: PageNumberPosition;
}

export const PAGE_NUMBER_DEFAULTS = { template: "Page {page} of {pages}", position: "bottom-center" as PageNumberPosition };

/** options.toc: true, or its title and the deepest heading level it lists. */
export type TocRequest = boolean | { title?: string; levels?: number };

export const TOC_DEFAULTS = { title: "Contents", levels: 3 };

/** options.image: the report is pictures of its printed pages instead of the PDF (steps/image.ts). */
export interface ImageRequest {
  format: ImageFormat;
  dpi?: number;
  /** "1", "2-4" or "all". */
  pages?: string;
  /** JPEG and WebP, 1-100. */
  quality?: number;
}

export const IMAGE_DEFAULTS = { dpi: 150, pages: "1", quality: 85 };
export const IMAGE_DPI = { min: 72, max: 600 };
/** options.image.pages: one page, a range, or all of them. */
export const IMAGE_PAGES_RE = /^(all|\d{1,5}(-\d{1,5})?)$/;

/** The post-processing fields of `options`, as requested (encryption still in clear). */
export interface PostOptions {
  toc?: TocRequest;
  page_numbers?: PageNumbersRequest;
  encryption?: EncryptionRequest;
  watermark?: WatermarkRequest;
  stamp?: StampRequest;
  attachments?: AttachmentRequest[];
  linearize?: boolean;
  pdfa?: PdfaLevel;
  /** options.e_invoice as sent: checked by src/einvoice's checkEInvoice, which names EN 16931's rules. */
  e_invoice?: unknown;
  signature?: SignatureOptions;
  image?: ImageRequest;
}

/** options.signature: a PAdES signature made with one of the account's signing identities. */
export interface SignatureOptions {
  identity_id: string;
  reason?: string;
  location?: string;
  contact_info?: string;
  /** B-T: an RFC 3161 timestamp from the operator's TSA (--tsa-url). */
  timestamp?: boolean;
  /** A visible signature: its box on a page (from 1), in PDF points from the page's lower left corner. */
  visible?: { page: number; x: number; y: number; width: number; height: number };
  /** Stored only: the signer's common name when the report was accepted (GET /reports/{id} shows it). */
  signer?: string;
}

/** options.e_invoice as a report row stores it: the checked XML, its format, profile and summary. */
export interface StoredEInvoice {
  /** facturx, xrechnung, peppol or ubl (src/einvoice/model.ts); absent in rows stored before there were formats: facturx. */
  format?: string;
  /** The Factur-X profile (facturXProfiles in src/einvoice/facturx.ts) when the XML goes into the PDF as Factur-X / ZUGFeRD. */
  profile?: "minimum" | "basicwl" | "basic" | "en16931" | "extended" | "xrechnung";
  /** Whether the XML is attached to the PDF (PDF/A-3b); absent in older rows: attached. */
  embed?: boolean;
  /** The name of the attached file (factur-x.xml, xrechnung.xml, invoice.xml); absent in older rows: factur-x.xml. */
  file_name?: string;
  /** The XML: reportgen's, or the client's bytes unchanged. */
  xml_base64: string;
  summary: { number: string; currency: string; grand_total: string };
  /**
   * The `e_invoice` variable an EJS template gets (src/einvoice/template-data.ts): the checked JSON
   * invoice with its computed figures. Absent for the client's own XML.
   */
  template_data?: EInvoiceTemplateData;
}

/** How `options.encryption` is stored: the passwords sealed for this report, the permissions as given. */
export interface StoredEncryption {
  sealed: string;
  permissions?: PdfPermission[];
}

/** The post-processing options as a report row stores them: encryption sealed, the rest as requested. */
export type StoredPostOptions = Omit<PostOptions, "encryption" | "e_invoice"> & {
  encryption?: StoredEncryption;
  e_invoice?: StoredEInvoice;
};

export const WATERMARK_DEFAULTS = { opacity: 0.25, angle: 45, position: "over" as LayerPosition };
export const STAMP_DEFAULT_OPACITY = 1;

/** One entry of options.deliver: where the stored PDF goes (src/modules/destinations/, docs/delivery.md). */
export interface DeliverRequest {
  destination_id: string;
  path?: string;
  subject?: string;
  body?: string;
}

/** `options` as a whole, as a client sends it (encryption still in clear) and as a stored template keeps it. */
export type RequestOptions = StoredPdfOptions & PostOptions & { deliver?: DeliverRequest[] };

/** The post-processing fields of `options` (the rest are print options). */
export const POST_FIELDS = [
  "toc",
  "page_numbers",
  "encryption",
  "watermark",
  "stamp",
  "attachments",
  "linearize",
  "pdfa",
  "e_invoice",
  "signature",
  "image",
] as const;

/** Whether `options` asks for any post-processing. */
export const hasPostOptions = (o: object | undefined) =>
  !!o && POST_FIELDS.some((f) => (o as Record<string, unknown>)[f] !== undefined && !(f === "toc" && (o as PostOptions).toc === false));

/** A table of contents' title and deepest level, defaults filled in. */
export function tocSettings(t: TocRequest): { title: string; levels: number } {
  const o = typeof t === "object" ? t : {};
  return { title: o.title ?? TOC_DEFAULTS.title, levels: o.levels ?? TOC_DEFAULTS.levels };
}

/** Whether options ask for a table of contents: it reads the headings from the outline Chromium writes (tagged PDFs only). */
const wantsToc = (o: { toc?: TocRequest } | undefined) => o?.toc !== undefined && o.toc !== false;

const DEFAULT_MARGIN = defaultPdfOptions.margin;

/** What the schema cannot say about options: pairs that go together, ranges that run backwards. 422 naming the field. */
export function checkPdfOptions(o: StoredPdfOptions & { toc?: TocRequest }): void {
  const problems: { field: string; problem: string }[] = [];
  // Chromium writes the outline only into a tagged PDF.
  for (const f of ["tagged", "outline"] as const)
    if (o[f] === false && wantsToc(o))
      problems.push({
        field: `options.${f}`,
        problem: `is false, but options.toc reads the document's headings from the outline Chromium writes into a tagged PDF: leave options.${f} out (or true) with a table of contents`,
      });
  if ((o.width === undefined) !== (o.height === undefined)) {
    problems.push({
      field: o.width === undefined ? "options.width" : "options.height",
      problem: "width and height go together: give both, or neither",
    });
  }
  for (const f of ["width", "height"] as const)
    if (o[f] !== undefined && parseFloat(o[f]!) === 0) problems.push({ field: `options.${f}`, problem: "must be larger than 0" });
  // Paged.js draws the page furniture itself (the @page margin boxes); Chromium's header and footer would print over it.
  if (o.paged_media)
    for (const f of ["header_template", "footer_template"] as const)
      if (o[f] !== undefined)
        problems.push({
          field: `options.${f}`,
          problem: `cannot go with options.paged_media: put the ${f === "header_template" ? "header" : "footer"} in a CSS @page margin box (e.g. @${f === "header_template" ? "top" : "bottom"}-center { content: counter(page) }) instead`,
        });
  const ranges = o.page_ranges !== undefined ? pageRangesProblem(o.page_ranges) : undefined;
  if (ranges) problems.push({ field: "options.page_ranges", problem: ranges });
  if (problems.length)
    throw validationFailed(`the request body is invalid (${problems.map((p) => p.field).join(", ")}); see details`, problems);
}

function resolveWaitFor(w: StoredPdfOptions["wait_for"]): WaitFor | undefined {
  if (!w) return undefined;
  if ("selector" in w) return { selector: w.selector };
  if ("expression" in w) return { expression: w.expression };
  return { delayMs: w.delay_ms };
}

/** Turns the stored request options into the renderer's complete options. */
export function resolvePdfOptions(stored: string | null): PdfOptions {
  const o = stored ? (JSON.parse(stored) as StoredPdfOptions & { toc?: TocRequest }) : undefined;
  const headerFooter = o?.header_template !== undefined || o?.footer_template !== undefined;
  // Chromium draws headers and footers inside the page margins: without room they are cut off or invisible.
  const room = (side: "top" | "bottom", used: boolean) => o?.margin?.[side] ?? (used ? HEADER_FOOTER_MARGIN : DEFAULT_MARGIN[side]);
  return {
    format: o?.format ?? defaultPdfOptions.format,
    landscape: o?.landscape ?? defaultPdfOptions.landscape,
    printBackground: o?.print_background ?? defaultPdfOptions.printBackground,
    scale: o?.scale ?? defaultPdfOptions.scale,
    margin: { ...DEFAULT_MARGIN, ...o?.margin, top: room("top", headerFooter), bottom: room("bottom", headerFooter) },
    width: o?.width,
    height: o?.height,
    preferCssPageSize: o?.prefer_css_page_size ?? defaultPdfOptions.preferCssPageSize,
    pageRanges: o?.page_ranges?.replace(/\s+/g, "") ?? defaultPdfOptions.pageRanges,
    headerTemplate: o?.header_template,
    footerTemplate: o?.footer_template,
    tagged: o?.tagged ?? (wantsToc(o) || defaultPdfOptions.tagged),
    outline: o?.outline ?? (wantsToc(o) || defaultPdfOptions.outline),
    metadata: o?.metadata ?? defaultPdfOptions.metadata,
    waitFor: resolveWaitFor(o?.wait_for),
    pagedMedia: o?.paged_media ?? defaultPdfOptions.pagedMedia,
    toc: o?.paged_media && wantsToc(o) ? tocSettings(o.toc!) : undefined,
  };
}

/** Fields whose own fields are independent settings: merged one level deeper. */
const NESTED = ["margin", "metadata"] as const;

/**
 * A stored version's options as defaults, the request's on top, field by field: a field the request
 * gives wins whole, except margin and metadata, whose sides and entries are merged one by one.
 */
export function mergeOptions(defaults: RequestOptions | undefined, request: RequestOptions | undefined): RequestOptions | undefined {
  if (!defaults) return request;
  if (!request) return defaults;
  const out: RequestOptions = { ...defaults, ...request };
  for (const k of NESTED) if (defaults[k] && request[k]) (out as Record<string, unknown>)[k] = { ...defaults[k], ...request[k] };
  return out;
}
