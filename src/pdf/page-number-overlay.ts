// The page numbers of a chunked report: one page per page of the joined document, each with its own
// "Page X of Y" as real text, laid over the document page for page by qpdf (chunk-join.ts). Chromium's
// own pageNumber/totalPages count each chunk's pages from 1, so the numbers are written after the join,
// when the total is known. Written by hand like the watermark's page: ~200 bytes a page, microseconds.
import type { PageNumberPosition } from "./chunk-options";
import { assemble, num, type PageSize, stream, winAnsiHex } from "./overlay-pdf";
import { type EmbeddedFont, FIRST_CHAR } from "./watermark-font";

/** Font size in points, and the distance of the text from the page's edges. */
const SIZE = 9;
const EDGE = { bottom: 20, top: 27, side: 36 };

/** Approximate widths of Helvetica (AFM, 1/1000 em): enough to centre or right-align a short line. */
function helveticaWidth(ch: string): number {
  if (/[0-9]/.test(ch)) return 556;
  if (ch === " ") return 278;
  if (/[iljtfI!.,:;'|/]/.test(ch)) return 250;
  if (/[mwMW]/.test(ch)) return 833;
  if (/[A-Z]/.test(ch)) return 667;
  return 520;
}

/** The text of page `page` of `pages`: {page} and {pages} filled in. */
export function pageNumberText(template: string, page: number, pages: number): string {
  return template.replaceAll("{page}", String(page)).replaceAll("{pages}", String(pages));
}

/**
 * A PDF of `pages` pages of `size`, page i carrying the text of page i at `position`, in grey Helvetica
 * (or, with `font`, for a PDF/A, that embedded font). The template's characters must be in WinAnsiEncoding.
 */
export function pageNumberPdf(
  pages: number,
  o: { template: string; position: PageNumberPosition },
  size: PageSize,
  font?: EmbeddedFont,
): Uint8Array {
  const width = (text: string) =>
    ([...text].reduce((s, c) => {
      const code = c.charCodeAt(0);
      return s + (font && code >= FIRST_CHAR && code < 256 ? font.widths[code - FIRST_CHAR]! : helveticaWidth(c));
    }, 0) *
      SIZE) /
    1000;
  const [edge, align] = o.position.split("-") as ["top" | "bottom", "left" | "center" | "right"];
  const y = edge === "bottom" ? EDGE.bottom : size.height - EDGE.top;
  // Objects: 1 catalog, 2 page tree, 3 font (4, 5: its descriptor and program), then a page and its content per page.
  const first = font ? 6 : 4;
  const kids = Array.from({ length: pages }, (_, i) => `${first + 2 * i} 0 R`).join(" ");
  const objects: (string | Uint8Array)[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    font
      ? `<< /Type /Font /Subtype /TrueType /BaseFont /${font.baseFont} /FirstChar ${FIRST_CHAR} /LastChar 255 /Widths [${font.widths.join(" ")}] /Encoding /WinAnsiEncoding /FontDescriptor 4 0 R >>`
      : "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  if (font)
    objects.push(
      `<< /Type /FontDescriptor /FontName /${font.baseFont} /Flags 32 /FontBBox [${font.bbox.join(" ")}] /ItalicAngle ${num(font.italicAngle)} /Ascent ${font.ascent} /Descent ${font.descent} /CapHeight ${font.capHeight} /StemV 140 /FontWeight 700 /FontFile2 5 0 R >>`,
      stream(`/Filter /FlateDecode /Length1 ${font.length1}`, font.program),
    );
  const box = `[0 0 ${num(size.width)} ${num(size.height)}]`;
  for (let i = 0; i < pages; i++) {
    const text = pageNumberText(o.template, i + 1, pages);
    const w = width(text);
    const x = align === "left" ? EDGE.side : align === "right" ? size.width - EDGE.side - w : (size.width - w) / 2;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox ${box} /Resources << /Font << /F1 3 0 R >> >> /Contents ${first + 2 * i + 1} 0 R >>`,
      stream("", `BT /F1 ${SIZE} Tf 0.27 0.27 0.27 rg ${num(x)} ${num(y)} Td ${winAnsiHex(text)} Tj ET`),
    );
  }
  return assemble(objects);
}
