// Reads and rewrites the document information (Info dictionary) of a PDF written by Chromium.
// Chromium sets only Title (the document's title, or "about:blank" without one), Creator (its user
// agent) and Producer; Author, Subject and Keywords cannot be set through it at all.
//
// Skia writes a classic cross-reference table and uncompressed object headers, so the Info object can
// be replaced in place and the table's offsets shifted: the old values are gone from the file (an
// incremental update would leave them in it), and no library is needed for it (pdf-lib would parse
// and re-serialise every object of a 2 000-page report to change five strings).

export interface PdfInfo {
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string[];
  creator: string;
  producer: string;
}

/** Where Skia put the Info object, and the classic cross-reference table that points at it. */
interface InfoLayout {
  text: string;
  xrefAt: number;
  count: number;
  entriesAt: number;
  trailer: string;
  infoNum: number;
  /** The Info object's first byte ("N 0 obj") and where its "endobj" starts. */
  start: number;
  end: number;
}

/** Finds the Info object of a PDF written by Chromium; throws when the file is not laid out as Skia writes it. */
function locateInfo(pdf: Uint8Array): InfoLayout {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString("latin1");
  const sx = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text.slice(-64));
  if (!sx) throw new Error("PDF has no startxref");
  const xrefAt = Number(sx[1]);
  const xref = /^xref\s+0 (\d+)\s+/.exec(text.slice(xrefAt, xrefAt + 40));
  if (!xref) throw new Error("PDF has no classic cross-reference table");
  const count = Number(xref[1]);
  const entriesAt = xrefAt + xref[0].length;
  const trailer = text.slice(entriesAt + count * 20);
  const infoRef = /\/Info (\d+) 0 R/.exec(trailer);
  if (!/^trailer\s/.test(trailer) || !infoRef) throw new Error("PDF trailer has no Info");
  const infoNum = Number(infoRef[1]);
  const start = Number(text.slice(entriesAt + infoNum * 20, entriesAt + infoNum * 20 + 10));
  if (text.slice(start, start + `${infoNum} 0 obj`.length) !== `${infoNum} 0 obj`)
    throw new Error("PDF Info offset does not point at its object");
  const end = text.indexOf("endobj", start);
  if (end < 0) throw new Error("PDF Info object has no end");
  return { text, xrefAt, count, entriesAt, trailer, infoNum, start, end };
}

/**
 * The document title Chromium wrote into the PDF: document.title as it was when printing, or "" for a
 * document without one (Chromium writes "about:blank" then, so a document titled "about:blank" reads
 * as untitled: print-page.ts asks the page itself for such a title). Skia writes ASCII titles as
 * literal strings and any other as UTF-16BE hex with a byte order mark.
 */
export function readPdfTitle(pdf: Uint8Array): string {
  return documentTitle(locateInfo(pdf));
}

function documentTitle({ text, start, end }: InfoLayout): string {
  const m = /\/Title\s*(?:\(((?:\\[\s\S]|[^\\)])*)\)|<([0-9A-Fa-f\s]*)>)/.exec(text.slice(start, end));
  if (!m) return "";
  const title = m[1] !== undefined ? literalString(m[1]) : hexString(m[2]!);
  return title === "about:blank" ? "" : title;
}

/** The bytes of a PDF literal string's body (its escapes resolved), as PDFDocEncoding's ASCII/Latin-1 range. */
function literalString(body: string): string {
  const named: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };
  return body.replace(/\\([0-7]{1,3}|\r\n|[\s\S])/g, (_, e: string) => {
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    if (e === "\r\n" || e === "\n" || e === "\r") return ""; // a line continuation
    return named[e] ?? e;
  });
}

/** A PDF hex string: UTF-16BE after a byte order mark, Latin-1 bytes without one. */
function hexString(hex: string): string {
  const digits = hex.replace(/\s/g, "");
  const bytes = Buffer.from(digits.length % 2 ? `${digits}0` : digits, "hex");
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return bytes
      .subarray(2, bytes.length - (bytes.length % 2))
      .swap16()
      .toString("utf16le");
  return bytes.toString("latin1");
}

/**
 * Replaces the Info dictionary of `pdf`; throws when the file is not laid out as Skia writes it. `info`
 * may be a function of the document title Chromium wrote (see readPdfTitle), so the file is read once.
 */
export function rewritePdfInfo(pdf: Uint8Array, info: PdfInfo | ((documentTitle: string) => PdfInfo), now = new Date()): Uint8Array {
  const layout = locateInfo(pdf);
  const { text, xrefAt, count, entriesAt, trailer, infoNum, start, end } = layout;
  if (typeof info === "function") info = info(documentTitle(layout));
  const head = `${infoNum} 0 obj`;
  const body = Buffer.from(`${head}\n${infoDictionary(info, now)}\n`, "latin1");
  const delta = body.length - (end - start);
  const shift = (o: number) => (o > start ? o + delta : o);
  let entries = "";
  for (let n = 0; n < count; n++) {
    const e = text.slice(entriesAt + n * 20, entriesAt + (n + 1) * 20);
    entries += e.endsWith("n \n") || e.endsWith("n\r\n") ? String(shift(Number(e.slice(0, 10)))).padStart(10, "0") + e.slice(10) : e;
  }
  const tail = Buffer.from(`xref\n0 ${count}\n${entries}${trailer.replace(/startxref\s+\d+/, `startxref\n${xrefAt + delta}`)}`, "latin1");
  return Buffer.concat([pdf.subarray(0, start), body, pdf.subarray(end, xrefAt), tail]);
}

function infoDictionary(info: PdfInfo, now: Date): string {
  const date = pdfDate(now);
  const fields: [string, string | undefined][] = [
    ["Title", info.title],
    ["Author", info.author],
    ["Subject", info.subject],
    ["Keywords", info.keywords?.length ? info.keywords.join(", ") : undefined],
    ["Creator", info.creator],
    ["Producer", info.producer],
  ];
  const parts = fields.filter(([, v]) => v !== undefined && v !== "").map(([k, v]) => `/${k} ${pdfTextString(v!)}`);
  return `<<${parts.join("\n")}\n/CreationDate (${date})\n/ModDate (${date})>>`;
}

/**
 * A PDF text string as UTF-16BE with a byte order mark, written in hex: any character, and nothing in
 * it can read as PDF syntax (countPdfPages scans the file for "/Type /Page").
 */
export function pdfTextString(s: string): string {
  let hex = "FEFF";
  for (let i = 0; i < s.length; i++) hex += s.charCodeAt(i).toString(16).padStart(4, "0").toUpperCase();
  return `<${hex}>`;
}

function pdfDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `D:${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}+00'00'`;
}
