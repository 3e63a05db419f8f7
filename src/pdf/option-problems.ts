// What a schema cannot check about the post-processing options (`options.watermark`, `stamp`,
// `attachments`, `encryption`): postOptionProblems(), which the request options, a stored template's
// defaults and a merge all go through, with the readers it shares with the steps that draw and attach
// (WinAnsi text, base64, JPEG). Each option is a top-level field of `options`, replaced as a whole when
// defaults and a request are merged field by field, so a plan never mixes two watermarks or two sets of
// passwords. The options' types and defaults are options.ts.
import { type PostOptions, WATERMARK_DEFAULTS } from "./options";

/** WinAnsiEncoding's characters outside Latin-1, with their byte (PDF 32000, Annex D). */
const WINANSI_EXTRA = new Map(
  [..."€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"].map((c, i) => [
    c,
    [
      0x80, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8e, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99,
      0x9a, 0x9b, 0x9c, 0x9e, 0x9f,
    ][i]!,
  ]),
);

/**
 * `text` in WinAnsiEncoding, the encoding of the watermark's standard font (Helvetica-Bold), or
 * undefined when it has a character that font cannot draw (anything outside Western European text).
 */
export function winAnsiBytes(text: string): Uint8Array | undefined {
  const out: number[] = [];
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) out.push(code);
    else if (WINANSI_EXTRA.has(c)) out.push(WINANSI_EXTRA.get(c)!);
    else return undefined;
  }
  return Uint8Array.from(out);
}
/** A file name shown in a PDF viewer's attachment list: no path, no control characters. */
const FILENAME_RE = /^[^/\\\p{Cc}]{1,255}$/u;
/**
 * A media type (RFC 6838's restricted names) without '#': qpdf 11.3 writes a '#' in a name unescaped, so
 * the embedded file's /Subtype would read back as another name ("text/x#ab" as "text/x" and byte 0xab).
 */
const MIME_RE = /^[a-z0-9][a-z0-9!$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!$&^_.+-]{0,126}$/i;
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

export interface Problem {
  field: string;
  problem: string;
}

/**
 * What the schema cannot check about the post-processing options, each naming its field: text the
 * watermark font cannot draw, base64 that does not decode, a stamp image that is not a JPEG, two
 * attachments with one name, passwords that are the same. `prefix` is where the options sit ("options").
 */
export function postOptionProblems(o: PostOptions, prefix = "options"): Problem[] {
  const problems: Problem[] = [];
  const add = (field: string, problem: string) => problems.push({ field: `${prefix}.${field}`, problem });
  if (o.watermark && !winAnsiBytes(o.watermark.text))
    add(
      "watermark.text",
      "may hold only Western European characters (WinAnsi: Latin-1 and € – — “ ” …), the characters of the standard Helvetica font it is drawn in",
    );
  if (o.page_numbers?.template !== undefined && !winAnsiBytes(o.page_numbers.template))
    add(
      "page_numbers.template",
      "may hold only Western European characters (WinAnsi: Latin-1 and € – — “ ” …), the characters of the standard Helvetica font it is drawn in",
    );
  if (o.encryption?.user_password !== undefined && o.encryption.user_password === o.encryption.owner_password)
    add("encryption.user_password", "must differ from owner_password (with the same password every reader is the owner)");
  const watermarkAt = o.watermark ? (o.watermark.position ?? WATERMARK_DEFAULTS.position) : undefined;
  if (o.stamp && watermarkAt === (o.stamp.position ?? "over"))
    add(
      "stamp.position",
      `is "${watermarkAt}", as the watermark's: one run of qpdf lays one layer over and one under the pages, so put one of them "${watermarkAt === "over" ? "under" : "over"}"`,
    );
  if (o.stamp && "image" in o.stamp) {
    const bytes = decodeBase64(o.stamp.image.content_base64);
    if (!bytes) add("stamp.image.content_base64", "is not valid base64");
    else if (!jpegSize(bytes)) add("stamp.image.content_base64", "is not a JPEG image (baseline or progressive)");
  }
  const names = new Set<string>();
  o.attachments?.forEach((a, i) => {
    if (!FILENAME_RE.test(a.filename)) add(`attachments[${i}].filename`, "must be 1 to 255 characters without / \\ or control characters");
    else if (names.has(a.filename)) add(`attachments[${i}].filename`, `${a.filename} is attached twice; give each file its own name`);
    names.add(a.filename);
    if (a.mime_type !== undefined && !MIME_RE.test(a.mime_type))
      add(`attachments[${i}].mime_type`, "must be a media type such as application/xml");
    if (!decodeBase64(a.content_base64)) add(`attachments[${i}].content_base64`, "is not valid base64");
  });
  return problems;
}

/** Whether options.e_invoice (as sent) puts the XML into the PDF: Factur-X (the default), customer XML, or embed: true. */
export function eInvoiceInPdf(e: unknown): boolean {
  if (e === undefined) return false;
  const o = (typeof e === "object" && e !== null ? e : {}) as { format?: unknown; embed?: unknown };
  return o.format === undefined || o.format === "facturx" || o.embed === true;
}

/**
 * What options.pdfa cannot go with, each naming both fields: PDF/A forbids encryption, and only
 * PDF/A-3 may embed files that are not themselves PDF/A (attachments). A CMYK JPEG stamp would be
 * DeviceCMYK under the sRGB output intent, which PDF/A forbids too.
 */
export function pdfaConflicts(o: PostOptions, prefix = "options"): Problem[] {
  const problems: Problem[] = [];
  // An e-invoice in the PDF is a PDF/A-3b file: it forbids what PDF/A forbids, and PDF/A-2b. An
  // XML-only format (xrechnung, peppol, ubl without embed) leaves the PDF as the other options make it.
  if (eInvoiceInPdf(o.e_invoice)) {
    const at = `${prefix}.e_invoice`;
    if (o.pdfa === "2b")
      problems.push({
        field: `${prefix}.pdfa`,
        problem: `is "2b", but an e-invoice (${at}) is a PDF/A-3b file: leave ${prefix}.pdfa out or use "3b"`,
      });
    if (o.encryption)
      problems.push({
        field: `${prefix}.encryption`,
        problem: `an e-invoice (${at}) is a PDF/A-3b file, which forbids encryption: drop one of them`,
      });
    const names = ["factur-x.xml", "xrechnung.xml", "invoice.xml"];
    const clash = o.attachments?.find((a) => names.includes(a.filename));
    if (clash)
      problems.push({
        field: `${prefix}.attachments`,
        problem: `${clash.filename} may be the name of the e-invoice's XML (${at}): give the attachment another name`,
      });
    if (problems.length) return problems;
  }
  if (!o.pdfa) return problems;
  const at = `${prefix}.pdfa`;
  if (o.encryption)
    problems.push({
      field: `${prefix}.encryption`,
      problem: `PDF/A (${at}) forbids encryption: drop one of ${at} and ${prefix}.encryption`,
    });
  if (o.attachments?.length && o.pdfa === "2b")
    problems.push({
      field: `${prefix}.attachments`,
      problem: `PDF/A-2b (${at}: "2b") may not embed files: use ${at}: "3b" with ${prefix}.attachments`,
    });
  if (o.stamp && "image" in o.stamp) {
    const bytes = decodeBase64(o.stamp.image.content_base64);
    if (bytes && jpegSize(bytes)?.components === 4)
      problems.push({
        field: `${prefix}.stamp.image`,
        problem: `is a CMYK JPEG, which PDF/A (${at}) with its sRGB output intent forbids: use an RGB or greyscale JPEG`,
      });
  }
  return problems;
}

export function decodeBase64(s: string): Uint8Array | undefined {
  const clean = s.replace(/\s+/g, "");
  if (clean.length % 4 !== 0 || !BASE64_RE.test(clean)) return undefined;
  return Buffer.from(clean, "base64");
}

/** Width, height and colour components of a baseline or progressive JPEG, or undefined. */
export function jpegSize(b: Uint8Array): { width: number; height: number; components: number } | undefined {
  if (b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    const len = (b[i + 2]! << 8) | b[i + 3]!;
    // SOF0..SOF2: baseline, extended, progressive (Huffman): what PDF's DCTDecode reads.
    if (marker >= 0xc0 && marker <= 0xc2) {
      const height = (b[i + 5]! << 8) | b[i + 6]!;
      const width = (b[i + 7]! << 8) | b[i + 8]!;
      const components = b[i + 9]!;
      return width && height && [1, 3, 4].includes(components) ? { width, height, components } : undefined;
    }
    i += 2 + len;
  }
  return undefined;
}

/** What options.signature cannot go with: encryption and linearize rewrite the whole file after it is signed. */
export function signatureConflicts(o: PostOptions, prefix = "options"): Problem[] {
  if (!o.signature) return [];
  const at = `${prefix}.signature`;
  const problems: Problem[] = [];
  if (o.encryption)
    problems.push({
      field: `${prefix}.encryption`,
      problem: `encryption rewrites the file, which would break the signature (${at}): drop one of them`,
    });
  if (o.linearize)
    problems.push({
      field: `${prefix}.linearize`,
      problem: `linearize rewrites the file, which would break the signature (${at}): drop one of them`,
    });
  return problems;
}

/** Options that make sense only in a PDF: with options.image the report is pictures, which carry none of them. */
const PDF_ONLY = ["pdfa", "e_invoice", "signature", "encryption", "linearize", "attachments"] as const;

/** What options.image cannot go with, each naming both fields, and its pages read backwards. */
export function imageConflicts(o: PostOptions, prefix = "options"): Problem[] {
  if (!o.image) return [];
  const at = `${prefix}.image`;
  const problems: Problem[] = PDF_ONLY.filter((f) => o[f] !== undefined && o[f] !== false).map((f) => ({
    field: `${prefix}.${f}`,
    problem: `makes sense only in a PDF, and ${at} makes the report pictures of its pages: drop one of ${at} and ${prefix}.${f}`,
  }));
  const [a, b] = (o.image.pages ?? "1").split("-").map(Number);
  if (a === 0 || (b !== undefined && b < a!))
    problems.push({ field: `${at}.pages`, problem: "pages are numbered from 1, and a range runs forwards (2-4)" });
  return problems;
}
