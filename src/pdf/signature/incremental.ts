// The signature's objects appended to the PDF as an incremental update (ISO 32000-1, 7.5.6): the bytes
// the earlier steps wrote stay exactly as they are, and the new and changed objects (the signature
// dictionary, its field, the catalog with its AcroForm, the page with its annotation) follow them with
// their own cross-reference section and a trailer pointing back (/Prev). It costs no second qpdf run.
// Only for a file whose last cross-reference section is a table (what Chromium and qpdf write without
// object streams); for any other, undefined: the caller has qpdf rewrite the file instead.

import { lastXrefTable } from "../objects";
import type { QpdfObject } from "../pdfa";
import { pdfNameSyntax } from "../qpdf-name";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A text string: literal when it is printable ASCII, else UTF-16BE with its byte order mark, as hex. */
function text(s: string): string {
  if (/^[\x20-\x7e]*$/.test(s)) return `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  const utf16 = Buffer.from(s, "utf16le");
  for (let i = 0; i < utf16.length; i += 2) [utf16[i], utf16[i + 1]] = [utf16[i + 1]!, utf16[i]!];
  return `<FEFF${utf16.toString("hex").toUpperCase()}>`;
}

/** qpdf's JSON v2 form of a PDF object, written back as PDF syntax. */
export function pdfSyntax(v: Json): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return String(v);
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Number(v.toFixed(6)));
  if (Array.isArray(v)) return `[${v.map(pdfSyntax).join(" ")}]`;
  if (typeof v === "object")
    return `<<${Object.entries(v)
      .map(([k, x]) => `${pdfNameSyntax(k)} ${pdfSyntax(x)}`)
      .join(" ")}>>`;
  if (/^\d+ \d+ R$/.test(v)) return v;
  if (v.startsWith("/") || v.startsWith("n:/")) return pdfNameSyntax(v);
  if (v.startsWith("u:")) return text(v.slice(2));
  if (v.startsWith("b:")) return `<${v.slice(2)}>`;
  throw new Error(`unexpected value in qpdf's JSON: ${v.slice(0, 40)}`);
}

/**
 * `pdf` with the objects of `update` (qpdf JSON update entries: "obj:N G R" → value or stream) appended
 * as an incremental update, the trailer carried over from `trailer` (qpdf's JSON of the last one).
 * Undefined when the file does not end with a cross-reference table, or its trailer says the update
 * cannot be plain (encryption, a hybrid file's /XRefStm).
 */
export function appendUpdate(pdf: Uint8Array, trailer: Record<string, Json>, update: Record<string, QpdfObject>): Uint8Array | undefined {
  const prev = lastXrefTable(pdf);
  if (prev === undefined || "/Encrypt" in trailer || "/XRefStm" in trailer) return undefined;
  const parts: Buffer[] = [Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)];
  let offset = pdf.byteLength;
  const push = (b: Buffer) => {
    parts.push(b);
    offset += b.byteLength;
  };
  // The appended part starts on a line of its own.
  if (pdf[pdf.byteLength - 1] !== 0x0a) push(Buffer.from("\n"));
  const entries: { num: number; gen: number; at: number }[] = [];
  for (const [key, o] of Object.entries(update)) {
    const ref = /^obj:(\d+) (\d+) R$/.exec(key);
    if (!ref) continue;
    const num = Number(ref[1]);
    const gen = Number(ref[2]);
    entries.push({ num, gen, at: offset });
    if ("value" in o) push(Buffer.from(`${num} ${gen} obj\n${pdfSyntax(o.value as Json)}\nendobj\n`, "latin1"));
    else {
      const data = Buffer.from(o.stream.data ?? "", "base64");
      const dict = { ...(o.stream.dict as Record<string, Json>), "/Length": data.byteLength };
      push(
        Buffer.concat([
          Buffer.from(`${num} ${gen} obj\n${pdfSyntax(dict)}\nstream\n`, "latin1"),
          data,
          Buffer.from("\nendstream\nendobj\n"),
        ]),
      );
    }
  }
  entries.sort((a, b) => a.num - b.num);
  // One subsection per run of consecutive object numbers; each entry exactly 20 bytes.
  let xref = "xref\n";
  for (let i = 0; i < entries.length; ) {
    let j = i;
    while (j + 1 < entries.length && entries[j + 1]!.num === entries[j]!.num + 1) j++;
    xref += `${entries[i]!.num} ${j - i + 1}\n`;
    for (const e of entries.slice(i, j + 1)) xref += `${String(e.at).padStart(10, "0")} ${String(e.gen).padStart(5, "0")} n\r\n`;
    i = j + 1;
  }
  const size = Math.max(Number(trailer["/Size"] ?? 0), ...entries.map((e) => e.num + 1));
  const { "/Prev": _prev, ...kept } = trailer;
  const xrefAt = offset;
  push(Buffer.from(`${xref}trailer\n${pdfSyntax({ ...kept, "/Size": size, "/Prev": prev })}\nstartxref\n${xrefAt}\n%%EOF\n`, "latin1"));
  return new Uint8Array(Buffer.concat(parts));
}
