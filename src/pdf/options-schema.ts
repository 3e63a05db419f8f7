// The TypeBox schema of a report's `options` (pdf/options.ts): what Elysia validates in generation and
// merge requests and in stored templates, and what the OpenAPI document publishes. Its fields are
// pdf/options.ts's StoredPdfOptions and PostOptions: an option is added to both.
import { t } from "elysia";
import { nameOption } from "../http/openapi-names";
import { oneOf } from "../http/schema";
import { CHUNK_SIZE } from "./chunk-options";
import { deliverOptionSchema } from "./deliver-schema";
import { CSS_LENGTH_RE, PAGE_RANGES_RE, paperFormats } from "./options";
import { postOptions, text } from "./post-options-schema";

const cssLengthOf = (description: string) =>
  t.String({
    pattern: CSS_LENGTH_RE.source,
    error: "must be 0 or a number with px, in, cm or mm, e.g. 10mm",
    description,
    examples: ["10mm"],
  });
const cssLength = cssLengthOf("CSS length: 0, or a number with px, in, cm or mm");

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
            "The most rows per chunk: a chunk whose HTML would pass --chunk-part-html (192 KB, ~1,100 rows of a seven-column table) is cut into smaller ones, so any size from 1,000 up prints about as fast",
          examples: [2500],
        }),
      },
      {
        additionalProperties: false,
        description:
          "Big reports: render the template once per slice of data[array] (each run gets the data with that array replaced by its slice, " +
          "plus a variable chunk = {index, count, first_row}), print the parts (two at a time by default) and join them into one PDF with one outline (options.page_numbers numbers the whole). " +
          "Each chunk has --render-timeout; the whole report --report-timeout. Its request body may be up to --chunked-body-limit (64 MB) instead of --body-limit (10 MB). See docs/big-reports.md",
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
