// The font a watermark is drawn in when the PDF must be PDF/A, which forbids fonts that are not
// embedded (the standard Helvetica-Bold of a plain watermark is not): Liberation Sans Bold, metric-
// compatible with Helvetica Bold, embedded whole as a TrueType font program (src/pdf/fonts/, SIL OFL
// 1.1) with WinAnsiEncoding. Its /Widths are read from the font's own hmtx through its Unicode cmap,
// as PDF/A requires them to match the program. It costs ~210 KB (deflated) per watermarked PDF/A.
import { deflateSync } from "node:zlib";
import fontPath from "./fonts/LiberationSans-Bold.ttf" with { type: "file" };
import { winAnsiBytes } from "./option-problems";

/** A simple TrueType font for WinAnsi codes 32..255, ready to be written into a PDF. */
export interface EmbeddedFont {
  baseFont: string;
  /** /Widths for FirstChar 32 .. LastChar 255, in 1/1000 em. */
  widths: number[];
  bbox: [number, number, number, number];
  ascent: number;
  descent: number;
  capHeight: number;
  italicAngle: number;
  /** The font program, deflated (/FlateDecode), and its length before (/Length1). */
  program: Uint8Array;
  length1: number;
}

export const FIRST_CHAR = 32;
export const LAST_CHAR = 255;

let loaded: Promise<EmbeddedFont> | undefined;

/** Liberation Sans Bold, read from the executable and prepared once. */
export function watermarkFont(): Promise<EmbeddedFont> {
  loaded ??= Bun.file(fontPath)
    .bytes()
    .then((b) => readTrueType(b, "LiberationSans-Bold"));
  return loaded;
}

/** The Unicode character of a WinAnsiEncoding code, or undefined for the five codes it leaves unassigned. */
function winAnsiChar(code: number): string | undefined {
  if (code < 0x80 || code >= 0xa0) return code === 0x7f ? undefined : String.fromCharCode(code);
  for (const c of "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ") if (winAnsiBytes(c)?.[0] === code) return c;
  return undefined;
}

/** Reads what a PDF needs of a TrueType font: metrics, and widths of the WinAnsi codes through its (3,1) cmap. */
export function readTrueType(font: Uint8Array, baseFont: string): EmbeddedFont {
  const v = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const tables = new Map<string, number>();
  for (let i = 0; i < v.getUint16(4); i++) {
    const at = 12 + 16 * i;
    tables.set(String.fromCharCode(font[at]!, font[at + 1]!, font[at + 2]!, font[at + 3]!), v.getUint32(at + 8));
  }
  const table = (tag: string) => {
    const at = tables.get(tag);
    if (at === undefined) throw new Error(`TrueType font lacks its ${tag} table`);
    return at;
  };
  const head = table("head");
  const unitsPerEm = v.getUint16(head + 18);
  const scale = (n: number) => Math.round((n * 1000) / unitsPerEm);
  const hhea = table("hhea");
  const numHMetrics = v.getUint16(hhea + 34);
  const hmtx = table("hmtx");
  const advance = (glyph: number) => v.getUint16(hmtx + 4 * Math.min(glyph, numHMetrics - 1));
  const glyphOf = unicodeCmap(v, table("cmap"));
  const os2 = tables.get("OS/2");
  const post = tables.get("post");
  const widths: number[] = [];
  for (let code = FIRST_CHAR; code <= LAST_CHAR; code++) {
    const c = winAnsiChar(code);
    widths.push(scale(advance(c ? glyphOf(c.charCodeAt(0)) : 0)));
  }
  return {
    baseFont,
    widths,
    bbox: [scale(v.getInt16(head + 36)), scale(v.getInt16(head + 38)), scale(v.getInt16(head + 40)), scale(v.getInt16(head + 42))],
    ascent: scale(v.getInt16(hhea + 4)),
    descent: scale(v.getInt16(hhea + 6)),
    capHeight: os2 !== undefined && v.getUint16(os2) >= 2 ? scale(v.getInt16(os2 + 88)) : scale(v.getInt16(hhea + 4)),
    italicAngle: post !== undefined ? v.getInt32(post + 4) / 65536 : 0,
    program: deflateSync(font),
    length1: font.length,
  };
}

/** The glyph of a BMP code point through the font's Windows Unicode (3,1) format 4 cmap; 0 (.notdef) when none. */
function unicodeCmap(v: DataView, cmap: number): (cp: number) => number {
  let sub: number | undefined;
  for (let i = 0; i < v.getUint16(cmap + 2); i++) {
    const at = cmap + 4 + 8 * i;
    if (v.getUint16(at) === 3 && v.getUint16(at + 2) === 1) sub = cmap + v.getUint32(at + 4);
  }
  if (sub === undefined || v.getUint16(sub) !== 4) throw new Error("TrueType font has no Windows Unicode (3,1) format 4 cmap");
  const segX2 = v.getUint16(sub + 6);
  const ends = sub + 14;
  const starts = ends + segX2 + 2;
  const deltas = starts + segX2;
  const ranges = deltas + segX2;
  return (cp) => {
    for (let s = 0; s < segX2; s += 2) {
      if (v.getUint16(ends + s) < cp) continue;
      const start = v.getUint16(starts + s);
      if (start > cp) return 0;
      const delta = v.getInt16(deltas + s);
      const rangeOffset = v.getUint16(ranges + s);
      if (rangeOffset === 0) return (cp + delta) & 0xffff;
      const g = v.getUint16(ranges + s + rangeOffset + 2 * (cp - start));
      return g === 0 ? 0 : (g + delta) & 0xffff;
    }
    return 0;
  };
}
