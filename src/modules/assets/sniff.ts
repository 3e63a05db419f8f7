// What an uploaded file is, decided by its bytes: the magic numbers of the binary formats, and for text
// an <svg> root element or (declared as CSS) UTF-8 text. A declared type that disagrees with the bytes
// is refused, so a client cannot store, say, an HTML page under image/png.
import type { AssetType } from "../../db/schema";
import { AppError } from "../../lib/errors";

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** Binary formats by their leading bytes. */
const MAGIC: { type: AssetType; test: (b: Uint8Array) => boolean }[] = [
  { type: "image/png", test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: "image/jpeg", test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { type: "image/webp", test: (b) => startsWith(b, ascii("RIFF")) && startsWith(b, ascii("WEBP"), 8) },
  { type: "font/woff2", test: (b) => startsWith(b, ascii("wOF2")) },
  { type: "font/woff", test: (b) => startsWith(b, ascii("wOFF")) },
  { type: "font/ttf", test: (b) => startsWith(b, [0x00, 0x01, 0x00, 0x00]) || startsWith(b, ascii("true")) },
  { type: "font/otf", test: (b) => startsWith(b, ascii("OTTO")) },
];

/** Declared media types (lower case, without parameters) accepted as each type's names. */
const ALIASES: Record<string, AssetType> = {
  "image/png": "image/png",
  "image/jpeg": "image/jpeg",
  "image/jpg": "image/jpeg",
  "image/webp": "image/webp",
  "image/svg+xml": "image/svg+xml",
  "font/woff2": "font/woff2",
  "font/woff": "font/woff",
  "application/font-woff": "font/woff",
  "font/ttf": "font/ttf",
  "application/x-font-ttf": "font/ttf",
  "font/sfnt": "font/ttf",
  "font/otf": "font/otf",
  "application/x-font-otf": "font/otf",
  "text/css": "text/css",
};

/** Types that say nothing: the bytes decide alone. */
const UNDECLARED = new Set(["", "application/octet-stream", "text/plain", "application/x-www-form-urlencoded"]);

/** An SVG document: optional BOM, XML declaration, comments and doctype, then the <svg> root. */
const SVG_ROOT =
  /^\uFEFF?\s*(<\?xml\b[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<\?[\s\S]*?\?>\s*|<!DOCTYPE\b[^[>]*(\[[\s\S]*?\])?\s*>\s*)*<svg[\s>/]/i;

const unsupported = (what: string) =>
  new AppError(
    "asset_type_unsupported",
    `${what}; an asset must be PNG, JPEG, WebP, SVG, WOFF2, WOFF, TTF, OTF or CSS, recognised by its bytes`,
  );

/** Strict UTF-8 text without NUL, or undefined. */
function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    const s = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return s.includes("\u0000") ? undefined : s;
  } catch {
    return undefined;
  }
}

/**
 * The asset's type, from its bytes; `declared` (a Content-Type or the JSON's `type`) must agree when
 * it names a type. A text file is CSS only when declared so or named *.css. Throws 415 asset_type_unsupported.
 */
export function sniffType(bytes: Uint8Array, declared: string | undefined, name: string): { type: AssetType; text?: string } {
  const d = (declared ?? "").split(";")[0]!.trim().toLowerCase();
  const claimed = UNDECLARED.has(d) ? undefined : ALIASES[d];
  if (d && !UNDECLARED.has(d) && !claimed) throw unsupported(`the declared type ${d} is not one this library stores`);
  let found: { type: AssetType; text?: string } | undefined;
  const binary = MAGIC.find((m) => m.test(bytes));
  if (binary) found = { type: binary.type };
  else {
    const text = utf8Text(bytes);
    if (text !== undefined && SVG_ROOT.test(text)) found = { type: "image/svg+xml", text };
    else if (text !== undefined && (claimed === "text/css" || (!claimed && name.toLowerCase().endsWith(".css"))))
      found = { type: "text/css", text };
  }
  if (!found) throw unsupported("the file's bytes match none of the supported formats");
  if (claimed && claimed !== found.type) throw unsupported(`the file was declared ${d}, but its bytes are ${found.type}`);
  return found;
}
