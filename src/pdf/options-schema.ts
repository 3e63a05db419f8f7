// The TypeBox schema of a report's `options` (pdf/options.ts): what Elysia validates in generation and
// merge requests and in stored templates, and what the OpenAPI document publishes. Its fields are
// pdf/options.ts's StoredPdfOptions and PostOptions: an option is added to both.
import { t } from "elysia";
import { nameOption, refOption } from "../http/openapi-names";
import { oneOf } from "../http/schema";
import { CHUNK_SIZE } from "./chunk-options";
import { deliverOptionSchema } from "./deliver-schema";
import {
  CSS_LENGTH_RE,
  IMAGE_DEFAULTS,
  IMAGE_DPI,
  IMAGE_PAGES_RE,
  layerPositions,
  PAGE_NUMBER_DEFAULTS,
  PAGE_RANGES_RE,
  pageNumberPositions,
  paperFormats,
  pdfaLevels,
  pdfPermissions,
  TOC_DEFAULTS,
  WATERMARK_DEFAULTS,
} from "./options";
import { imageFormats } from "./raster";

const cssLengthOf = (description: string) =>
  t.String({
    pattern: CSS_LENGTH_RE.source,
    error: "must be 0 or a number with px, in, cm or mm, e.g. 10mm",
    description,
    examples: ["10mm"],
  });
const cssLength = cssLengthOf("CSS length: 0, or a number with px, in, cm or mm");

const text = (maxLength: number, description: string) => t.String({ maxLength, description });

// Options of the PDF document itself: paper, headers and footers, metadata, structure, readiness.
const pdfOutputOptions = {
  width: t.Optional(cssLengthOf("Custom paper width (CSS length); give height too. Wins over format and landscape")),
  height: t.Optional(cssLengthOf("Custom paper height (CSS length); give width too. Wins over format and landscape")),
  prefer_css_page_size: t.Optional(
    t.Boolean({ default: true, description: "A CSS @page size in the template wins over format, width and height" }),
  ),
  page_ranges: t.Optional(
    t.String({
      pattern: PAGE_RANGES_RE.source,
      maxLength: 500,
      error: "must be pages and ranges such as 1-3, 5 (pages from 1)",
      description: 'Pages to keep, e.g. "1-3, 5"; all when absent',
      examples: ["1-3, 5"],
    }),
  ),
  header_template: t.Optional(
    text(
      100_000,
      "HTML printed at the top of every page, with its own <style>. Elements with class pageNumber, totalPages, date or title (the document's <title>, else metadata.title) are filled in. Text is 0 px unless its CSS sets a font-size. The top margin defaults to 15mm for it",
    ),
  ),
  footer_template: t.Optional(
    text(
      100_000,
      'HTML printed at the bottom of every page, as header_template; e.g. <div style="font-size:9px;width:100%;text-align:center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
    ),
  ),
  tagged: t.Optional(t.Boolean({ default: false, description: "Tagged (accessible) PDF with its structure tree" })),
  outline: t.Optional(t.Boolean({ default: false, description: "Bookmarks (outline) built from the document's headings" })),
  metadata: t.Optional(
    t.Object(
      {
        title: t.Optional(text(1000, "PDF Title; default: the document's <title>")),
        author: t.Optional(text(1000, "PDF Author")),
        subject: t.Optional(text(1000, "PDF Subject")),
        keywords: t.Optional(t.Array(t.String({ minLength: 1, maxLength: 200 }), { maxItems: 50, description: "PDF Keywords" })),
      },
      { additionalProperties: false, description: "Document information of the PDF; its Creator is always reportgen" },
    ),
  ),
  paged_media: t.Optional(
    t.Boolean({
      default: false,
      description:
        "CSS Paged Media (Paged.js): @page :first/:left/:right/:blank with their own margins, the 16 margin boxes with counter(page) and counter(pages), string-set/string(), position: running()/element(), named pages, target-counter(), float: footnote. CSS must be in <style> elements; not with header_template or footer_template. See docs/long-documents.md",
    }),
  ),
  chunk: t.Optional(
    t.Object(
      {
        array: t.String({
          minLength: 1,
          maxLength: 200,
          description: 'The data array to slice: a key of data, or a dotted path of keys, e.g. "rows" or "ledger.rows"',
          examples: ["rows"],
        }),
        size: t.Integer({
          minimum: CHUNK_SIZE.min,
          maximum: CHUNK_SIZE.max,
          error: `must be a whole number of rows from ${CHUNK_SIZE.min} to ${CHUNK_SIZE.max}`,
          description:
            "Rows per chunk; 2,000-3,000 for a table of short rows (two such chunks print at once, within --chunk-html-in-flight)",
          examples: [2500],
        }),
      },
      {
        additionalProperties: false,
        description:
          "Big reports: render the template once per slice of data[array] (each run gets the data with that array replaced by its slice, " +
          "plus a variable chunk = {index, count, first_row}), print the parts (two at a time by default) and join them into one PDF with one outline (options.page_numbers numbers the whole). " +
          "Each chunk has --render-timeout; the whole report --report-timeout. See docs/big-reports.md",
      },
    ),
  ),
  wait_for: t.Optional(
    t.Union(
      [
        t.Object(
          { selector: t.String({ minLength: 1, maxLength: 1000, description: "CSS selector of an element that must exist" }) },
          { additionalProperties: false },
        ),
        t.Object(
          {
            expression: t.String({
              minLength: 1,
              maxLength: 5000,
              description: "JavaScript expression that must become truthy, e.g. window.chartsReady === true",
            }),
          },
          { additionalProperties: false },
        ),
        t.Object(
          { delay_ms: t.Integer({ minimum: 0, maximum: 600_000, description: "Milliseconds to wait after the load event" }) },
          { additionalProperties: false },
        ),
      ],
      {
        error: 'must be one of {"selector": "<css selector>"}, {"expression": "<javascript>"} or {"delay_ms": <whole number>}',
        description:
          "Print only once this holds (after the load event and web fonts), within the render deadline; otherwise the report fails with readiness_timeout",
      },
    ),
  ),
};

const password = (description: string) => t.String({ minLength: 1, maxLength: 127, description });
const position = (description: string) => t.Optional(oneOf(layerPositions, { description }));
const opacity = (dflt: number) =>
  t.Optional(t.Number({ minimum: 0.05, maximum: 1, default: dflt, description: "From 0.05 (faint) to 1 (opaque)" }));

/**
 * What happens to the PDF after the print, run by qpdf in one pass. Shared by generation and
 * merge requests; each field is independent, so defaults and a request merge field by field.
 */
export const postOptions = {
  toc: t.Optional(
    t.Union(
      [
        t.Boolean(),
        t.Object(
          {
            title: t.Optional(
              t.String({ minLength: 1, maxLength: 200, default: TOC_DEFAULTS.title, description: "The TOC page's heading" }),
            ),
            levels: t.Optional(
              t.Integer({
                minimum: 1,
                maximum: 6,
                default: TOC_DEFAULTS.levels,
                description: "Deepest heading level listed (1: <h1> only, 6: all)",
              }),
            ),
          },
          { additionalProperties: false },
        ),
      ],
      {
        error: 'must be true, or {"title": "...", "levels": 1 to 6}',
        description:
          "A table of contents inserted after the first page: the document's headings (a merge: each part by its title), each with the page it prints on, right-aligned, and a link to it. Turns options.tagged and options.outline on (Chromium writes the headings' outline only into a tagged PDF). See docs/long-documents.md",
      },
    ),
  ),
  page_numbers: t.Optional(
    t.Object(
      {
        template: t.Optional(
          t.String({
            minLength: 1,
            maxLength: 100,
            default: PAGE_NUMBER_DEFAULTS.template,
            description: "Western European text (WinAnsi); {page} and {pages} are replaced by the page's number and the page count",
          }),
        ),
        position: t.Optional(oneOf(pageNumberPositions, { default: PAGE_NUMBER_DEFAULTS.position, description: "Where on the page" })),
      },
      {
        additionalProperties: false,
        description:
          'Page numbers stamped on every page as real text, counted across the whole PDF (a merge\'s parts continuously, a table of contents included), e.g. {"template": "Page {page} of {pages}", "position": "bottom-right"}',
      },
    ),
  ),
  encryption: t.Optional(
    t.Object(
      {
        user_password: t.Optional(password("Needed to open the PDF; without it anyone may open it, with the permissions below")),
        owner_password: password("Lifts every restriction; must differ from user_password"),
        permissions: t.Optional(
          t.Array(oneOf(pdfPermissions), {
            uniqueItems: true,
            maxItems: 4,
            description: "What readers with the user password may do; anything not listed is refused (default: nothing)",
          }),
        ),
      },
      {
        additionalProperties: false,
        description:
          "Encrypt the PDF with AES-256. The passwords are never stored in clear: they wait sealed (AES-256-GCM, key derived from the server secret) until the PDF is made, then are deleted",
      },
    ),
  ),
  watermark: t.Optional(
    t.Object(
      {
        text: t.String({
          minLength: 1,
          maxLength: 100,
          description: "Western European text (WinAnsi: Latin-1 and € – — “ ” …), drawn across every page as real text",
        }),
        opacity: opacity(WATERMARK_DEFAULTS.opacity),
        angle: t.Optional(
          t.Number({ minimum: -180, maximum: 180, default: WATERMARK_DEFAULTS.angle, description: "Degrees, counter-clockwise" }),
        ),
        position: position("over (default): drawn above the content; under: behind it, hidden by opaque backgrounds"),
      },
      { additionalProperties: false, description: "Text across the centre of every page, as large as fits" },
    ),
  ),
  stamp: t.Optional(
    t.Union(
      [
        t.Object(
          {
            pdf_report_id: t.String({ format: "uuid", description: "A succeeded, unencrypted report of this account: its first page" }),
            position: position("over (default) or under the content"),
          },
          { additionalProperties: false },
        ),
        t.Object(
          {
            image: t.Object(
              {
                content_base64: t.String({ minLength: 4, description: "The image, base64" }),
                mime_type: t.Literal("image/jpeg", { description: "JPEG only (baseline or progressive)" }),
              },
              { additionalProperties: false },
            ),
            opacity: opacity(1),
            position: position("over (default) or under the content"),
          },
          { additionalProperties: false },
        ),
      ],
      {
        error: 'must be {"pdf_report_id": "<uuid>"} or {"image": {"content_base64": "...", "mime_type": "image/jpeg"}}',
        description:
          "Laid on every page: the first page of another report (scaled to fit, centred), or a JPEG at its centre (96 dpi, shrunk to fit)",
      },
    ),
  ),
  attachments: t.Optional(
    t.Array(
      t.Object(
        {
          filename: t.String({ minLength: 1, maxLength: 255, description: "Name shown by PDF readers (no / or \\)" }),
          content_base64: t.String({ description: "The file, base64" }),
          mime_type: t.Optional(t.String({ maxLength: 255, description: "e.g. application/xml" })),
        },
        { additionalProperties: false },
      ),
      {
        maxItems: 20,
        description: "Files embedded in the PDF (e.g. an e-invoice's XML). They count against the request body limit",
      },
    ),
  ),
  linearize: t.Optional(
    t.Boolean({ default: false, description: 'Fast web view: page 1 shows before the rest has downloaded ("Optimized: yes")' }),
  ),
  e_invoice: t.Optional(
    t.Object(
      {},
      {
        additionalProperties: true,
        ...refOption("EInvoice"), // checked against the model by src/einvoice/check.ts, with messages of its own
        description:
          'An e-invoice: {"format": "facturx" (default) | "xrechnung" | "peppol" | "ubl", "profile"?, "syntax"?, "embed"?, "invoice": {...}}, or {"xml_base64": "..."} (your own CII, Factur-X). ' +
          "Factur-X embeds the XML in a PDF/A-3b file; the other formats keep it beside the PDF (GET /reports/{id}/e-invoice). " +
          "Checked before the report is queued by EN 16931's rules and the format's (XRechnung BR-DE-*, Peppol PEPPOL-EN16931-*): 422 e_invoice_invalid naming each rule and JSON path; see docs/e-invoices.md",
      },
    ),
  ),
  signature: t.Optional(
    t.Object(
      {
        identity_id: t.String({ description: "A signing identity of the account (POST /api/v1/signing-identities)" }),
        reason: t.Optional(t.String({ maxLength: 200, description: "Why the document is signed (/Reason), e.g. Invoice issued" })),
        location: t.Optional(t.String({ maxLength: 200, description: "Where it was signed (/Location)" })),
        contact_info: t.Optional(t.String({ maxLength: 200, description: "How to reach the signer (/ContactInfo)" })),
        timestamp: t.Optional(
          t.Boolean({
            default: false,
            description:
              "PAdES B-T: add an RFC 3161 timestamp from the operator's time-stamp authority (--tsa-url). If it cannot be had, the report fails with timestamp_unavailable; it is never signed without it",
          }),
        ),
        visible: t.Optional(
          t.Object(
            {
              page: t.Integer({ minimum: 1, maximum: 100_000, description: "Page number, from 1" }),
              x: t.Number({ minimum: 0, maximum: 14_400, description: "Left edge, PDF points (1/72 in) from the page's left" }),
              y: t.Number({ minimum: 0, maximum: 14_400, description: "Bottom edge, PDF points from the page's bottom" }),
              width: t.Number({ minimum: 20, maximum: 14_400, description: "PDF points" }),
              height: t.Number({ minimum: 10, maximum: 14_400, description: "PDF points" }),
            },
            {
              additionalProperties: false,
              description: "Show the signer's name and the signing time in this box; without it the signature is invisible",
            },
          ),
        ),
      },
      {
        additionalProperties: false,
        description:
          "Sign the PDF (PAdES baseline B-B, SubFilter ETSI.CAdES.detached; B-T with timestamp) with one of the account's signing identities, as the last step: " +
          "after watermark, stamp, attachments, PDF/A, e-invoice and merge. Not with encryption or linearize. See docs/signatures.md",
      },
    ),
  ),
  image: t.Optional(
    t.Object(
      {
        format: oneOf(imageFormats, { description: "png, jpeg or webp" }),
        dpi: t.Optional(
          t.Integer({
            minimum: IMAGE_DPI.min,
            maximum: IMAGE_DPI.max,
            default: IMAGE_DEFAULTS.dpi,
            description: "Dots per inch: A4 at 150 dpi is 1240 x 1754 px",
          }),
        ),
        pages: t.Optional(
          t.String({
            pattern: IMAGE_PAGES_RE.source,
            default: IMAGE_DEFAULTS.pages,
            error: 'must be a page ("1"), a range ("2-4") or "all"',
            description:
              'Which pages: one ("1"), a range ("2-4") or "all". One page downloads as the image; several as a ZIP of page-001.png, ...',
            examples: ["1", "2-4", "all"],
          }),
        ),
        quality: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: IMAGE_DEFAULTS.quality, description: "JPEG and WebP quality" })),
      },
      {
        additionalProperties: false,
        description:
          "Make the report pictures of its printed pages instead of a PDF: the last step, after every other option. " +
          "Not with pdfa, e_invoice, signature, encryption, linearize or attachments (they make sense only in a PDF). See docs/images.md",
      },
    ),
  ),
  pdfa: t.Optional(
    oneOf(pdfaLevels, {
      description:
        "Make the PDF PDF/A-2b or PDF/A-3b (archival): XMP metadata matching the document information, an sRGB output intent, a file identifier, embedded fonts. " +
        "Not with encryption; attachments need 3b. See docs/post-processing.md#pdfa for what is and is not checked",
    }),
  ),
};

export const pdfOptionsSchema = t.Object(
  {
    format: t.Optional(oneOf(paperFormats, { description: "Paper size when the page's CSS sets no @page size", default: "A4" })),
    landscape: t.Optional(t.Boolean({ default: false })),
    print_background: t.Optional(t.Boolean({ default: true, description: "Print background colours and images" })),
    scale: t.Optional(t.Number({ minimum: 0.1, maximum: 2, default: 1 })),
    margin: t.Optional(
      t.Object(
        { top: t.Optional(cssLength), right: t.Optional(cssLength), bottom: t.Optional(cssLength), left: t.Optional(cssLength) },
        { additionalProperties: false },
      ),
    ),
    ...pdfOutputOptions,
    ...postOptions,
    deliver: t.Optional(deliverOptionSchema),
  },
  {
    additionalProperties: false,
    ...nameOption("PdfOptions"),
    description: "Optional print settings (reportgen extension). CSS @page rules in the template win over format.",
  },
);
