// PDF names in qpdf's JSON (format version 2), both ways; the one place that decides how a name is written.
// qpdf writes a name as "/" and the name itself, its PDF escapes resolved: the /Subtype that a file
// holds as /text#2fcsv is "/text/csv" in JSON, and qpdf 11.3 (Debian 12's) reads only that form back
// ("n:/text#2fcsv" is "unrecognized string value", and the whole update is refused). A name whose bytes
// are not UTF-8 cannot be a JSON string: qpdf 11.3 prints its raw bytes (not valid JSON), and later qpdf
// versions write "n:" and the name in PDF syntax. It is written in that later form, which qpdf 11.3
// refuses: the step then fails loudly instead of changing the name. No name a report's PDF holds is
// such a name (Chromium's and qpdf's are ASCII; a media type is checked at submit).

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The bytes a PDF name spells out as they are, without #xx (PDF's delimiters, white space, '#', beyond ASCII). */
const plain = (b: number) => b > 0x20 && b < 0x7f && !"#()<>[]{}/%".includes(String.fromCharCode(b));

const syntax = (bytes: Uint8Array) =>
  `/${[...bytes].map((b) => (plain(b) ? String.fromCharCode(b) : `#${b.toString(16).padStart(2, "0")}`)).join("")}`;

/**
 * The JSON form of a PDF name, given as its characters ("text/csv") or as its bytes with the escapes
 * already resolved (without the leading slash): "/text/csv"; "n:/…" for bytes that are not UTF-8.
 */
export function qpdfJsonName(name: string | Uint8Array): string {
  if (typeof name === "string") return `/${name}`;
  try {
    return `/${utf8.decode(name)}`;
  } catch {
    return `n:${syntax(name)}`;
  }
}

/** The bytes of a name as PDF syntax writes it (after its slash): each # and two hex digits one byte. */
export function nameBytes(written: Uint8Array): Uint8Array {
  const out: number[] = [];
  const hex = (c: number | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(String.fromCharCode(c));
  for (let i = 0; i < written.length; i++) {
    const c = written[i]!;
    // A # without two hex digits stands for itself (PDF 1.1's names had no escapes).
    if (c === 0x23 && hex(written[i + 1]) && hex(written[i + 2])) {
      out.push(Number.parseInt(String.fromCharCode(written[i + 1]!, written[i + 2]!), 16));
      i += 2;
    } else out.push(c);
  }
  return Uint8Array.from(out);
}

/** A name of qpdf's JSON ("/text/csv", or "n:" and PDF syntax) as PDF syntax: /text#2fcsv. */
export function pdfNameSyntax(json: string): string {
  if (json.startsWith("n:")) return json.slice(2);
  return syntax(Buffer.from(json.slice(1), "utf8"));
}
