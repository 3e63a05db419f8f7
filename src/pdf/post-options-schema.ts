// The TypeBox schema of a report's post-processing options (pdf/options.ts PostOptions): what happens
// to the PDF after the print (PDF/A, e-invoice, attachments, watermark, stamp, page numbers, table of
// contents, encryption, signature, image output). Part of options-schema.ts's pdfOptionsSchema.
import { t } from "elysia";
import { refOption } from "../http/openapi-names";
import { oneOf } from "../http/schema";
import {
  IMAGE_DEFAULTS,
  IMAGE_DPI,
  IMAGE_PAGES_RE,
  layerPositions,
  PAGE_NUMBER_DEFAULTS,
  pageNumberPositions,
  pdfaLevels,
  pdfPermissions,
  TOC_DEFAULTS,
  WATERMARK_DEFAULTS,
} from "./options";
import { imageFormats } from "./raster";

export const text = (maxLength: number, description: string) => t.String({ maxLength, description });

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
