// barcode(type, text, options) for EJS templates: bwip-js (the Barcode Writer in Pure PostScript, ported)
// draws the symbol as SVG on the host side of the sandbox, where it runs ~50× faster than it would in
// QuickJS. The template hands over only a type name, a string and a few checked options; what comes
// back is re-checked tag by tag and attribute by attribute before it reaches the page, so the inline SVG
// can carry nothing but shapes (no text, scripts, links or external references).
/** What a template may ask for: our name -> bwip-js's encoder name. */
const TYPES: Record<string, string> = {
  qrcode: "qrcode",
  code128: "code128",
  ean13: "ean13",
  ean8: "ean8",
  upca: "upca",
  upce: "upce",
  datamatrix: "datamatrix",
  pdf417: "pdf417",
  "gs1-128": "gs1-128",
  gs1datamatrix: "gs1datamatrix",
  gs1qrcode: "gs1qrcode",
  code39: "code39",
  itf14: "itf14",
  interleaved2of5: "interleaved2of5",
  azteccode: "azteccode",
  swissqrcode: "swissqrcode",
};
const TWO_D = new Set(["qrcode", "datamatrix", "pdf417", "gs1datamatrix", "gs1qrcode", "azteccode", "swissqrcode"]);

export const BARCODE_TYPES = Object.keys(TYPES);
/** Characters of barcode text: more than any symbol holds (a QR code takes at most 7089 digits). */
export const BARCODE_TEXT_MAX = 8_000;
const OPTION_NAMES = ["width", "height", "scale", "ecLevel", "text", "barHeight", "color", "background", "rotate"];

export interface BarcodeOptions {
  /** CSS length of the drawn symbol (e.g. "40mm"); the other side follows the symbol's proportions. */
  width?: string;
  height?: string;
  /** Multiplies the symbol's natural size (1 = BWIPP's nominal module: 1 pt for linear codes). */
  scale?: number;
  /** Error correction: L, M, Q or H for QR codes; 0 to 8 for PDF417; 5 to 95 (percent) for Aztec. */
  ecLevel?: string | number;
  /** Human-readable text under a linear barcode (default: true for EAN/UPC, false otherwise). */
  text?: boolean;
  /** Bar height of a linear barcode in millimetres. */
  barHeight?: number;
  color?: string;
  background?: string;
  rotate?: "N" | "R" | "L" | "I";
}

/** A template's mistake in a barcode call: becomes the report's template error, with this message. */
export class BarcodeError extends Error {
  override name = "BarcodeError";
}

type Bwip = { toSVG(opts: Record<string, unknown>): string };
let bwip: Bwip | undefined;
/**
 * Loading bwip-js costs ~300 ms, so a sandbox pays it on its first barcode, not at start. A literal
 * require() is one `bun build --compile` bundles (and evaluates only when called).
 */
function encoder(): Bwip {
  bwip ??= require("bwip-js") as Bwip;
  return bwip;
}

const LENGTH = /^(\d{1,4}(\.\d{1,3})?)(mm|cm|in|pt|px|pc|%)$/;
const COLOR = /^#?([0-9a-fA-F]{6})$/;

function fail(type: string, problem: string): never {
  throw new BarcodeError(`barcode("${type}"): ${problem}`);
}

function checkOptions(type: string, raw: unknown): BarcodeOptions {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) fail(type, "options must be an object");
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!OPTION_NAMES.includes(k)) fail(type, `unknown option "${k.slice(0, 40)}" (known: ${OPTION_NAMES.join(", ")})`);
  for (const k of ["width", "height"] as const)
    if (o[k] !== undefined && !(typeof o[k] === "string" && LENGTH.test(o[k] as string)))
      fail(type, `option ${k} must be a CSS length such as "40mm" (units mm, cm, in, pt, px, pc or %)`);
  if (o.scale !== undefined && !(typeof o.scale === "number" && o.scale >= 0.1 && o.scale <= 20))
    fail(type, "option scale must be a number from 0.1 to 20");
  if (o.barHeight !== undefined && !(typeof o.barHeight === "number" && o.barHeight >= 1 && o.barHeight <= 500))
    fail(type, "option barHeight must be a number of millimetres from 1 to 500");
  if (o.text !== undefined && typeof o.text !== "boolean") fail(type, "option text must be true or false");
  for (const k of ["color", "background"] as const)
    if (o[k] !== undefined && !(typeof o[k] === "string" && COLOR.test(o[k] as string)))
      fail(type, `option ${k} must be a colour written as #rrggbb`);
  if (o.rotate !== undefined && !["N", "R", "L", "I"].includes(o.rotate as string)) fail(type, "option rotate must be N, R, L or I");
  if (o.ecLevel !== undefined) checkEcLevel(type, o.ecLevel);
  return o as BarcodeOptions;
}

function checkEcLevel(type: string, v: unknown): void {
  const ok =
    type === "qrcode" || type === "gs1qrcode" || type === "swissqrcode"
      ? ["L", "M", "Q", "H"].includes(v as string)
      : type === "pdf417"
        ? Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 8
        : type === "azteccode"
          ? Number.isInteger(v) && (v as number) >= 5 && (v as number) <= 95
          : false;
  if (!ok)
    fail(
      type,
      type === "qrcode" || type === "gs1qrcode" || type === "swissqrcode"
        ? 'option ecLevel must be "L", "M", "Q" or "H"'
        : type === "pdf417"
          ? "option ecLevel must be an integer from 0 to 8"
          : type === "azteccode"
            ? "option ecLevel must be a percentage from 5 to 95"
            : "this symbology has no ecLevel option",
    );
}

/** Draws `text` as a `type` symbol; returns SVG markup safe to inline in HTML. `idPrefix` keeps ids unique per page. */
export function barcodeSvg(type: string, text: string, rawOptions: unknown, idPrefix: string): string {
  const bcid = Object.hasOwn(TYPES, type) ? TYPES[type] : undefined;
  if (bcid === undefined) fail(String(type).slice(0, 40), `unknown barcode type (known: ${BARCODE_TYPES.join(", ")})`);
  if (text.length === 0) fail(type, "the text is empty");
  if (text.length > BARCODE_TEXT_MAX) fail(type, `the text has ${text.length} characters; the limit is ${BARCODE_TEXT_MAX}`);
  const o = checkOptions(type, rawOptions);
  const linear = !TWO_D.has(type);
  // bwip-js puts text into 2D symbols as UTF-8, as the EPC and Swiss QR-bill standards require
  // (tests/integration/barcodes.test.ts reads the bytes back).
  const opts: Record<string, unknown> = { bcid, text, scale: 1 };
  const withText = o.text ?? (linear && /^(ean|upc)/.test(type));
  if (linear && withText) Object.assign(opts, { includetext: true, textxalign: "center" });
  if (linear && o.barHeight !== undefined) opts.height = o.barHeight;
  if (o.ecLevel !== undefined) opts.eclevel = String(o.ecLevel);
  if (o.color) opts.barcolor = COLOR.exec(o.color)![1];
  if (o.background) opts.backgroundcolor = COLOR.exec(o.background)![1];
  if (o.rotate) opts.rotate = o.rotate;
  let svg: string;
  try {
    svg = encoder().toSVG(opts);
  } catch (e) {
    // BWIPP's errors read "bwipp.ean13badCheckDigit#6915: Incorrect EAN-13 check digit provided".
    const m = /^(?:Error: )?(?:bwipp\.|bwip-js\.)?(\w+)(?:#\d+)?: (.*)$/s.exec(String(e instanceof Error ? e.message : e));
    fail(type, m ? `${m[2]} (${m[1]})` : String(e).slice(0, 300));
  }
  return finish(svg, o, idPrefix);
}

/** Checks bwip-js's SVG against the few shapes it draws, sizes it, and makes its ids unique. */
function finish(svg: string, o: BarcodeOptions, idPrefix: string): string {
  const head = /^<svg viewBox="0 0 (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)" xmlns="http:\/\/www\.w3\.org\/2000\/svg">/.exec(svg);
  if (!head) throw new Error("bwip-js drew an SVG of an unexpected form");
  const body = svg.slice(head[0].length).replace(/<\/svg>\s*$/, "");
  // Only these elements and attributes, with values of digits, letters and a little punctuation.
  const tag = /<\/?(path|rect|defs|clipPath)((?:\s+[a-z-]+="[-#.,%()\w ]*")*)\s*\/?>|\s+/gy;
  let end = 0;
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    for (const a of m[2]?.matchAll(/([a-z-]+)="([^"]*)"/g) ?? [])
      if (
        !["d", "fill", "stroke", "stroke-width", "width", "height", "x", "y", "fill-rule", "clip-rule", "clip-path", "id"].includes(a[1]!)
      )
        throw new Error(`bwip-js drew an SVG with an unexpected attribute ${a[1]}`);
    end = tag.lastIndex;
  }
  if (end !== body.length) throw new Error("bwip-js drew an SVG with unexpected content");
  const ids = body.replace(/id="(clip\d+)"/g, `id="${idPrefix}$1"`).replace(/url\(#(clip\d+)\)/g, `url(#${idPrefix}$1)`);
  const w = Number(head[1]);
  const h = Number(head[2]);
  const scale = o.scale ?? 1;
  // BWIPP's unit is the PostScript point; 1 pt = 0.3528 mm.
  const width = o.width ?? (o.height ? undefined : `${round(w * scale * 0.352778)}mm`);
  const height = o.height ?? (o.width ? undefined : `${round(h * scale * 0.352778)}mm`);
  const size = `${width ? ` width="${width}"` : ""}${height ? ` height="${height}"` : ""}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}"${size} preserveAspectRatio="xMidYMid meet" role="img" shape-rendering="crispEdges">${ids.trim()}</svg>`;
}

const round = (n: number) => Math.round(n * 100) / 100;
