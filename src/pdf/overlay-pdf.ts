// One-page PDFs that qpdf lays over or under every page of a report: a watermark's text, a JPEG stamp.
// Written by hand (a few hundred bytes) rather than printed by Chromium: building one takes
// microseconds, and the text is drawn as one string with its ActualText, so pdftotext reads the whole
// watermark at any angle (poppler splits a diagonal line of glyphs into letters otherwise; measured
// with Chromium's own rotated text: "FT A R D" at 45 degrees).
import { pdfTextString } from "../render/pdf-metadata";
import { winAnsiBytes } from "./option-problems";
import type { PageNumberPosition } from "./options";
import { type EmbeddedFont, FIRST_CHAR, LAST_CHAR } from "./watermark-font";

/** Widths of Helvetica-Bold (AFM, 1/1000 em) for the characters that differ most; others use the class average. */
function glyphWidth(ch: string): number {
  if (ch === " ") return 278;
  if (/[iljtfI!.,:;'|]/.test(ch)) return 300;
  if (/[mwMW]/.test(ch)) return 900;
  if (/[A-Z]/.test(ch)) return 722;
  if (/[0-9]/.test(ch)) return 556;
  return 590;
}

/** The drawn string: `text` in WinAnsiEncoding (checked by postOptionProblems) as a hex string. */
export function winAnsiHex(text: string): string {
  const bytes = winAnsiBytes(text);
  if (!bytes) throw new Error("watermark text outside WinAnsiEncoding");
  return `<${Buffer.from(bytes).toString("hex")}>`;
}

/** Assembles a PDF from its objects (1-based; object 1 is the catalog) with a classic cross-reference table. */
export function assemble(objects: (string | Uint8Array)[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  const push = (p: string | Uint8Array) => {
    const b = typeof p === "string" ? Buffer.from(p, "latin1") : p;
    parts.push(b);
    at += b.length;
  };
  push("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n");
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(at);
    push(`${i + 1} 0 obj\n`);
    push(o);
    push("\nendobj\n");
  });
  const xref = at;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`);
  push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

export const stream = (dict: string, data: string | Uint8Array) => {
  const bytes = typeof data === "string" ? Buffer.from(data, "latin1") : data;
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${bytes.length} >>\nstream\n`, "latin1"), bytes, Buffer.from("\nendstream")]);
};

export const num = (n: number) => (Math.round(n * 1000) / 1000).toString();

export interface PageSize {
  width: number;
  height: number;
}

/** A4 in points: the page of an overlay when the report's own size is unknown (qpdf scales it to fit). */
export const A4: PageSize = { width: 595.28, height: 841.89 };

/**
 * A page of `size` with `text` across its centre at `angle` degrees (counter-clockwise), in red-grey
 * Helvetica-Bold at `opacity`, as large as fits along the diagonal. With `font` (a PDF/A), the text is
 * drawn in that embedded font (Liberation Sans Bold, with Helvetica Bold's metrics) instead.
 */
export function watermarkPdf(w: { text: string; opacity: number; angle: number }, size: PageSize = A4, font?: EmbeddedFont): Uint8Array {
  const width = (c: string) => {
    const code = winAnsiBytes(c)?.[0];
    return font && code !== undefined && code >= FIRST_CHAR ? font.widths[code - FIRST_CHAR]! : glyphWidth(c);
  };
  const em = [...w.text].reduce((s, c) => s + width(c), 0) / 1000;
  const rad = (w.angle * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  // The largest font size whose rotated line (width em·fs, height ~0.75·fs) stays inside 80% of the page.
  const fit = (limit: number, a: number, b: number) => (limit * 0.8) / Math.max(0.01, em * a + 0.75 * b);
  const fs = Math.min(200, fit(size.width, Math.abs(cos), Math.abs(sin)), fit(size.height, Math.abs(sin), Math.abs(cos)));
  // Start of the baseline so that the line's centre (em·fs/2 along, 0.35·fs up) is the page's centre.
  const x = size.width / 2 - cos * ((em * fs) / 2) + sin * 0.35 * fs;
  const y = size.height / 2 - sin * ((em * fs) / 2) - cos * 0.35 * fs;
  const content =
    `q /GS1 gs 0.75 0.1 0.1 rg /Span << /ActualText ${pdfTextString(w.text)} >> BDC BT /F1 ${num(fs)} Tf ` +
    `${num(cos)} ${num(sin)} ${num(-sin)} ${num(cos)} ${num(x)} ${num(y)} Tm ${winAnsiHex(w.text)} Tj ET EMC Q`;
  return assemble([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(size.width)} ${num(size.height)}] /Resources << /Font << /F1 4 0 R >> /ExtGState << /GS1 5 0 R >> >> /Contents 6 0 R >>`,
    font
      ? `<< /Type /Font /Subtype /TrueType /BaseFont /${font.baseFont} /FirstChar ${FIRST_CHAR} /LastChar ${LAST_CHAR} /Widths [${font.widths.join(" ")}] /Encoding /WinAnsiEncoding /FontDescriptor 7 0 R >>`
      : "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    `<< /Type /ExtGState /ca ${num(w.opacity)} /CA ${num(w.opacity)} >>`,
    stream("", content),
    ...(font
      ? [
          `<< /Type /FontDescriptor /FontName /${font.baseFont} /Flags 32 /FontBBox [${font.bbox.join(" ")}] /ItalicAngle ${num(font.italicAngle)} /Ascent ${font.ascent} /Descent ${font.descent} /CapHeight ${font.capHeight} /StemV 140 /FontWeight 700 /FontFile2 8 0 R >>`,
          stream(`/Filter /FlateDecode /Length1 ${font.length1}`, font.program),
        ]
      : []),
  ]);
}

/**
 * A page of `size` with a JPEG at its centre, at 96 dpi (one CSS pixel is 0.75 pt, as Chromium prints
 * an image), shrunk to fit the page when larger. The JPEG's bytes are embedded as they are (DCTDecode).
 */
export function jpegStampPdf(
  jpeg: Uint8Array,
  info: { width: number; height: number; components: number },
  opacity: number,
  size: PageSize = A4,
): Uint8Array {
  const scale = Math.min(0.75, size.width / info.width, size.height / info.height);
  const w = info.width * scale;
  const h = info.height * scale;
  const colour = info.components === 1 ? "/DeviceGray" : info.components === 4 ? "/DeviceCMYK" : "/DeviceRGB";
  // Adobe writes CMYK JPEGs inverted; the Decode array puts them right, as viewers expect.
  const decode = info.components === 4 ? " /Decode [1 0 1 0 1 0 1 0]" : "";
  return assemble([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(size.width)} ${num(size.height)}] /Resources << /XObject << /Im1 4 0 R >> /ExtGState << /GS1 5 0 R >> >> /Contents 6 0 R >>`,
    stream(
      `/Type /XObject /Subtype /Image /Width ${info.width} /Height ${info.height} /ColorSpace ${colour} /BitsPerComponent 8 /Filter /DCTDecode${decode}`,
      jpeg,
    ),
    `<< /Type /ExtGState /ca ${num(opacity)} /CA ${num(opacity)} >>`,
    stream("", `q /GS1 gs ${num(w)} 0 0 ${num(h)} ${num((size.width - w) / 2)} ${num((size.height - h) / 2)} cm /Im1 Do Q`),
  ]);
}

/** Distance of a page number's line from the page's edges, in points (10 mm across, 8 mm to the baseline). */
const EDGE_X = 28.35;
const EDGE_Y = 22.7;
const NUMBER_SIZE = 9;

/**
 * One page per text, each of its own size, with the text on one line at `position` in dark grey
 * Helvetica-Bold 9 pt (or the embedded font of a PDF/A): qpdf lays page i of it over page i of a document.
 * Texts are WinAnsi (checked by postOptionProblems).
 */
export function pageNumbersPdf(texts: string[], sizes: PageSize[], position: PageNumberPosition, font?: EmbeddedFont): Uint8Array {
  const fontObjects = font
    ? [
        `<< /Type /Font /Subtype /TrueType /BaseFont /${font.baseFont} /FirstChar ${FIRST_CHAR} /LastChar ${LAST_CHAR} /Widths [${font.widths.join(" ")}] /Encoding /WinAnsiEncoding /FontDescriptor 4 0 R >>`,
        `<< /Type /FontDescriptor /FontName /${font.baseFont} /Flags 32 /FontBBox [${font.bbox.join(" ")}] /ItalicAngle ${num(font.italicAngle)} /Ascent ${font.ascent} /Descent ${font.descent} /CapHeight ${font.capHeight} /StemV 140 /FontWeight 700 /FontFile2 5 0 R >>`,
        stream(`/Filter /FlateDecode /Length1 ${font.length1}`, font.program),
      ]
    : ["<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"];
  const first = 3 + fontObjects.length;
  const pages: (string | Uint8Array)[] = [];
  texts.forEach((text, i) => {
    const size = sizes[i] ?? sizes[sizes.length - 1] ?? A4;
    pages.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(size.width)} ${num(size.height)}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${first + 2 * i + 1} 0 R >>`,
      stream("", pageNumberContent(text, size, position, "F1", font)),
    );
  });
  const kids = texts.map((_, i) => `${first + 2 * i} 0 R`).join(" ");
  return assemble([
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids}] /Count ${texts.length} >>`,
    ...fontObjects,
    ...pages,
  ]);
}

/**
 * The content that draws `text` as a page number on a page of `size` at `position`, in the font the
 * page's resources name `fontName` (Helvetica-Bold, or `font` embedded): a balanced q ... Q.
 */
export function pageNumberContent(
  text: string,
  size: PageSize,
  position: PageNumberPosition,
  fontName: string,
  font?: EmbeddedFont,
): string {
  const width = (c: string) => {
    const code = winAnsiBytes(c)?.[0];
    return font && code !== undefined && code >= FIRST_CHAR ? font.widths[code - FIRST_CHAR]! : glyphWidth(c);
  };
  const [v, h] = position.split("-") as ["top" | "bottom", "left" | "center" | "right"];
  const w = ([...text].reduce((s, c) => s + width(c), 0) / 1000) * NUMBER_SIZE;
  const x = h === "left" ? EDGE_X : h === "right" ? size.width - EDGE_X - w : (size.width - w) / 2;
  const y = v === "top" ? size.height - EDGE_Y - NUMBER_SIZE * 0.7 : EDGE_Y;
  return `q 0.25 0.25 0.25 rg BT /${fontName} ${NUMBER_SIZE} Tf ${num(x)} ${num(y)} Td ${winAnsiHex(text)} Tj ET Q`;
}

/** The size of the first page of a PDF as Chromium writes it (its first /MediaBox), or undefined. */
export function firstPageSize(pdf: Uint8Array): PageSize | undefined {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const at = buf.indexOf("/MediaBox");
  if (at < 0) return undefined;
  const m = /^\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/.exec(buf.toString("latin1", at, at + 120));
  if (!m) return undefined;
  const width = Number(m[3]) - Number(m[1]);
  const height = Number(m[4]) - Number(m[2]);
  return width > 0 && height > 0 && width < 20_000 && height < 20_000 ? { width, height } : undefined;
}
