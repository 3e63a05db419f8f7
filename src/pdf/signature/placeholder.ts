// The objects a PDF signature adds, as one qpdf JSON update (--update-from-json): the signature
// dictionary with room for the CMS (/Contents, zeros) and a ByteRange to be filled in, a signature field
// that is its own widget annotation on a page, the catalog's /AcroForm (SigFlags 3: signatures exist,
// append only) and, for a visible signature, the appearance: a form XObject that writes the signer's
// name and the signing time in the embedded Liberation Sans Bold (PDF/A forbids fonts not embedded).
// Pure: the step (steps/sign.ts) reads the objects with qpdf, writes this update, then signs the bytes.

import { winAnsiBytes } from "../option-problems";
import type { QpdfObject, QpdfObjects } from "../pdfa";
import { type QpdfUpdate, qpdfUpdate } from "../qpdf-layout";
import { qpdfJsonName } from "../qpdf-name";
import { type EmbeddedFont, FIRST_CHAR, LAST_CHAR } from "../watermark-font";

/** The ByteRange written before the offsets are known: as wide as any offset of a file up to 9.9 GB. */
export const BYTE_RANGE_PLACEHOLDER = [0, 9_999_999_999, 9_999_999_999, 9_999_999_999];

export interface SignatureBox {
  /** Page number from 1. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SignatureFields {
  /** The signer's common name (/Name), shown in a visible signature. */
  name: string;
  reason?: string;
  location?: string;
  contactInfo?: string;
  time: Date;
  /** Bytes reserved for the DER CMS. */
  contentsBytes: number;
  visible?: SignatureBox;
}

/** qpdf's JSON v2 "pages" key: each page's object, in order. */
export type QpdfPages = { object: string }[];

/** D:YYYYMMDDHHmmSS+00'00' */
export function pdfDate(d: Date): string {
  const iso = d.toISOString();
  return `D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}+00'00'`;
}

/** Text as qpdf's JSON writes a PDF text string. */
const text = (s: string) => `u:${s}`;

/** The text a visible signature shows, two lines. */
export function appearanceLines(f: SignatureFields): [string, string] {
  return [
    `Signed by ${f.name}`,
    `at ${f.time
      .toISOString()
      .replace("T", " ")
      .replace(/\.\d+Z$/, " UTC")}`,
  ];
}

/**
 * The qpdf JSON update adding a signature to the PDF of `objects`, and the page the widget is on.
 * Throws when the PDF has no such page (the request's page was checked against the page count).
 */
export function signatureUpdate(qpdf: QpdfObjects, pages: QpdfPages, f: SignatureFields, font?: EmbeddedFont): QpdfUpdate<QpdfObject> {
  const [head, objects] = qpdf;
  let next = head.maxobjectid;
  const ref = () => `${++next} 0 R`;
  const dictOf = (r: string) => {
    const o = objects[`obj:${r}`];
    return o && "value" in o ? (o.value as Record<string, unknown>) : undefined;
  };
  const update: Record<string, QpdfObject> = {};
  const trailer = (objects.trailer as { value: Record<string, unknown> }).value;
  const rootRef = trailer["/Root"] as string;
  const catalog = { ...dictOf(rootRef) };
  const pageIndex = (f.visible?.page ?? 1) - 1;
  const pageRef = pages[pageIndex]?.object;
  if (!pageRef) throw new Error(`the PDF has no page ${pageIndex + 1}`);

  const sigRef = ref();
  update[`obj:${sigRef}`] = {
    value: {
      "/Type": "/Sig",
      "/Filter": "/Adobe.PPKLite",
      "/SubFilter": "/ETSI.CAdES.detached",
      "/ByteRange": BYTE_RANGE_PLACEHOLDER,
      "/Contents": `b:${"00".repeat(f.contentsBytes)}`,
      "/M": text(pdfDate(f.time)),
      "/Name": text(f.name),
      ...(f.reason ? { "/Reason": text(f.reason) } : {}),
      ...(f.location ? { "/Location": text(f.location) } : {}),
      ...(f.contactInfo ? { "/ContactInfo": text(f.contactInfo) } : {}),
    },
  };

  // The AcroForm: the catalog's own dictionary, or the object it points at.
  const formRef = typeof catalog["/AcroForm"] === "string" ? (catalog["/AcroForm"] as string) : undefined;
  const form = { ...(formRef ? dictOf(formRef) : (catalog["/AcroForm"] as Record<string, unknown> | undefined)) };
  const fieldsRef = typeof form["/Fields"] === "string" ? (form["/Fields"] as string) : undefined;
  const fields = [
    ...(((fieldsRef ? objects[`obj:${fieldsRef}`] : undefined) as { value?: unknown[] } | undefined)?.value ??
      (form["/Fields"] as unknown[] | undefined) ??
      []),
  ];

  const widgetRef = ref();
  const box = f.visible;
  const rect = box ? [box.x, box.y, box.x + box.width, box.y + box.height] : [0, 0, 0, 0];
  const widget: Record<string, unknown> = {
    "/Type": "/Annot",
    "/Subtype": "/Widget",
    "/FT": "/Sig",
    "/T": text(`Signature${fields.length + 1}`),
    "/V": sigRef,
    // Print (PDF/A wants every annotation printable) and Locked.
    "/F": 132,
    "/Rect": rect,
    "/P": pageRef,
  };
  if (box && font) widget["/AP"] = { "/N": appearance(box, f, font, ref, update) };
  update[`obj:${widgetRef}`] = { value: widget };

  fields.push(widgetRef);
  if (fieldsRef) update[`obj:${fieldsRef}`] = { value: fields };
  else form["/Fields"] = fields;
  form["/SigFlags"] = 3;
  if (formRef) update[`obj:${formRef}`] = { value: form };
  else catalog["/AcroForm"] = form;
  update[`obj:${rootRef}`] = { value: catalog };

  // The page lists the widget among its annotations.
  const page = { ...dictOf(pageRef) };
  const annotsRef = typeof page["/Annots"] === "string" ? (page["/Annots"] as string) : undefined;
  if (annotsRef) {
    const annots = (objects[`obj:${annotsRef}`] as { value?: unknown[] } | undefined)?.value ?? [];
    update[`obj:${annotsRef}`] = { value: [...annots, widgetRef] };
  } else {
    page["/Annots"] = [...((page["/Annots"] as unknown[] | undefined) ?? []), widgetRef];
    update[`obj:${pageRef}`] = { value: page };
  }

  return qpdfUpdate(next, update);
}

/** The appearance stream of a visible signature; adds its objects to `update` and returns its reference. */
function appearance(
  box: SignatureBox,
  f: SignatureFields,
  font: EmbeddedFont,
  ref: () => string,
  update: Record<string, QpdfObject>,
): string {
  const lines = appearanceLines(f);
  const widthOf = (s: string, size: number) =>
    [...(winAnsiBytes(s) ?? [])].reduce((w, c) => w + (c >= FIRST_CHAR ? (font.widths[c - FIRST_CHAR] ?? 500) : 500), 0) * (size / 1000);
  // As large as both lines fit: at most 12 pt, two lines with some leading inside the box.
  const size = Math.max(4, Math.min(12, (box.height - 4) / 2.4, ...lines.map((l) => (box.width - 4) / Math.max(1, widthOf(l, 1)))));
  const escaped = (s: string) =>
    [...(winAnsiBytes(s.replace(/[^\x20-\x7e\u00a0-\u00ff€–—“”…]/g, "?")) ?? [])]
      .map((c) =>
        c === 0x28 || c === 0x29 || c === 0x5c
          ? `\\${String.fromCharCode(c)}`
          : c < 0x80
            ? String.fromCharCode(c)
            : `\\${c.toString(8).padStart(3, "0")}`,
      )
      .join("");
  const top = box.height / 2 + size * 0.2;
  const content = [
    "q 0 0 0 rg BT",
    `/F1 ${size.toFixed(2)} Tf`,
    `2 ${top.toFixed(2)} Td (${escaped(lines[0])}) Tj`,
    `0 ${(-size * 1.2).toFixed(2)} Td (${escaped(lines[1])}) Tj`,
    "ET Q",
  ].join("\n");
  const programRef = ref();
  update[`obj:${programRef}`] = {
    stream: { dict: { "/Filter": "/FlateDecode", "/Length1": font.length1 }, data: Buffer.from(font.program).toString("base64") },
  };
  const descriptorRef = ref();
  update[`obj:${descriptorRef}`] = {
    value: {
      "/Type": "/FontDescriptor",
      "/FontName": qpdfJsonName(font.baseFont),
      "/Flags": 32,
      "/FontBBox": font.bbox,
      "/ItalicAngle": font.italicAngle,
      "/Ascent": font.ascent,
      "/Descent": font.descent,
      "/CapHeight": font.capHeight,
      "/StemV": 140,
      "/FontWeight": 700,
      "/FontFile2": programRef,
    },
  };
  const fontRef = ref();
  update[`obj:${fontRef}`] = {
    value: {
      "/Type": "/Font",
      "/Subtype": "/TrueType",
      "/BaseFont": qpdfJsonName(font.baseFont),
      "/FirstChar": FIRST_CHAR,
      "/LastChar": LAST_CHAR,
      "/Widths": font.widths,
      "/Encoding": "/WinAnsiEncoding",
      "/FontDescriptor": descriptorRef,
    },
  };
  const apRef = ref();
  update[`obj:${apRef}`] = {
    stream: {
      dict: {
        "/Type": "/XObject",
        "/Subtype": "/Form",
        "/BBox": [0, 0, box.width, box.height],
        "/Resources": { "/Font": { "/F1": fontRef } },
      },
      data: Buffer.from(content, "latin1").toString("base64"),
    },
  };
  return apRef;
}
