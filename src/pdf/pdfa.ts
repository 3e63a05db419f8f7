// PDF/A-2b and PDF/A-3b: what the pdfa step adds to a PDF, computed from the PDF's objects as qpdf's
// JSON (version 2) shows them, and returned as one qpdf JSON update (--update-from-json). Pure: the
// step (steps/pdfa.ts) reads the objects and writes the update with qpdf.
//
// What it adds or changes:
// - an XMP metadata stream in the catalog: pdfaid:part/conformance, Dublin Core, xmp: dates and
//   CreatorTool, pdf:Producer/Keywords, with exactly the values written back into the Info dictionary
//   (one normalised value for both, so they agree), and any extension schemas (Factur-X's fx:);
// - an OutputIntents array with one GTS_PDFA1 OutputIntent whose DestOutputProfile is the embedded
//   sRGB profile (N 3): Chromium paints in DeviceRGB, which PDF/A allows only under an RGB intent;
// - for PDF/A-3, the catalog's /AF array listing every embedded file, each file specification with an
//   /AFRelationship (Unspecified unless set), and each embedded file with a /Subtype and /Params /ModDate;
// - annotations printable and visible (/F with Print, without Hidden, Invisible or NoView);
// - no JavaScript, no Launch action, no additional actions (Chromium writes none; removed if present).
// The trailer's /ID is written by qpdf on every write; encryption is refused before a report is queued.

import type { PdfaLevel } from "./options";
import { type QpdfUpdate, qpdfUpdate } from "./qpdf-layout";
import { qpdfJsonName } from "./qpdf-name";

/** One object as qpdf's JSON v2 shows it (stream data left out). */
export type QpdfObject = { value: unknown } | { stream: { dict: Record<string, unknown>; data?: string } };

/** qpdf's JSON v2 "qpdf" key: the header and every object by "obj:N 0 R" (and "trailer"). */
export type QpdfObjects = [{ maxobjectid: number }, Record<string, QpdfObject>];

/** A property of an XMP extension schema, with its value in this document. */
export interface XmpProperty {
  name: string;
  valueType: "Text";
  category: "external" | "internal";
  description: string;
  value: string;
}

/** An XMP extension schema (PDF/A requires a description of every schema not in XMP itself). */
export interface XmpExtension {
  schema: string;
  namespaceUri: string;
  prefix: string;
  properties: XmpProperty[];
}

/** The document information, one normalised value per field: written into both Info and XMP. */
export interface DocInfo {
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator?: string;
  producer?: string;
  /** ISO 8601 with an offset, e.g. 2025-03-31T12:00:00+00:00. */
  created: string;
  modified: string;
}

export interface PdfaInput {
  level: PdfaLevel;
  /** The sRGB ICC profile, embedded as the output intent's DestOutputProfile. */
  icc: Uint8Array;
  /** Dates the document lacks are this moment. */
  now: Date;
  /** Producer and creator of a document without any (a merge: qpdf's join has no Info). */
  tool: string;
  extensions?: XmpExtension[];
  /** Files to embed (Factur-X's XML), each listed in /AF with its relationship. Others get Unspecified. */
  embed?: NewEmbeddedFile[];
}

/** A file the update embeds itself, so that PDF/A with Factur-X is one qpdf read and one write. */
export interface NewEmbeddedFile {
  name: string;
  data: Uint8Array;
  /** A MIME type, e.g. text/xml (the embedded file's /Subtype). */
  mimeType: string;
  description: string;
  /** /AFRelationship without the slash, e.g. Alternative. */
  relationship: string;
}

export const SRGB_CONDITION = "sRGB IEC61966-2.1";

/** The AFRelationship of an embedded file that has none: PDF/A-3 requires one on every file specification. */
const DEFAULT_AF_RELATIONSHIP = "/Unspecified";

// Annotation flags (PDF 32000-1, 12.5.3): Invisible 1, Hidden 2, Print 4, NoView 32.
const ANNOT_FORBIDDEN = 1 | 2 | 32;
const ANNOT_PRINT = 4;

/** The qpdf JSON update that makes the PDF of `objects` PDF/A, and the document information it wrote. */
export function pdfaUpdate(qpdf: QpdfObjects, input: PdfaInput): { update: QpdfUpdate<QpdfObject>; info: DocInfo } {
  const [head, objects] = qpdf;
  const value = (ref: unknown): unknown => {
    if (typeof ref !== "string" || !/^\d+ \d+ R$/.test(ref)) return ref;
    const o = objects[`obj:${ref}`];
    return o && "value" in o ? o.value : o;
  };
  const trailer = { ...(objects.trailer as { value: Record<string, unknown> }).value };
  const rootRef = trailer["/Root"] as string;
  const catalog = { ...(value(rootRef) as Record<string, unknown>) };
  const infoRef = typeof trailer["/Info"] === "string" ? (trailer["/Info"] as string) : undefined;
  const oldInfo = (infoRef ? value(infoRef) : undefined) as Record<string, unknown> | undefined;

  const update: Record<string, QpdfObject> = {};
  let next = head.maxobjectid;
  const newRef = () => `${++next} 0 R`;

  const info = docInfo(oldInfo ?? {}, input);
  const infoTarget = infoRef ?? newRef();
  update[`obj:${infoTarget}`] = { value: infoDictionary(info, oldInfo) };
  if (!infoRef) update.trailer = { value: { ...trailer, "/Info": infoTarget } };

  const metadata = newRef();
  const xmp = xmpPacket(input.level, info, input.extensions ?? []);
  update[`obj:${metadata}`] = {
    stream: { dict: { "/Type": "/Metadata", "/Subtype": "/XML" }, data: Buffer.from(xmp, "utf8").toString("base64") },
  };
  const profile = newRef();
  update[`obj:${profile}`] = { stream: { dict: { "/N": 3, "/Alternate": "/DeviceRGB" }, data: Buffer.from(input.icc).toString("base64") } };
  const intent = newRef();
  update[`obj:${intent}`] = {
    value: {
      "/Type": "/OutputIntent",
      "/S": "/GTS_PDFA1",
      "/OutputConditionIdentifier": `u:${SRGB_CONDITION}`,
      "/Info": `u:${SRGB_CONDITION}`,
      "/RegistryName": "u:http://www.color.org",
      "/DestOutputProfile": profile,
    },
  };
  catalog["/Metadata"] = metadata;
  catalog["/OutputIntents"] = [intent];

  // No actions that run code or programs.
  delete catalog["/AA"];
  const open = value(catalog["/OpenAction"]) as Record<string, unknown> | undefined;
  if (open && !Array.isArray(open) && ["/JavaScript", "/Launch"].includes(open["/S"] as string)) delete catalog["/OpenAction"];
  const namesRef = typeof catalog["/Names"] === "string" ? (catalog["/Names"] as string) : undefined;
  const names = { ...((value(catalog["/Names"]) as Record<string, unknown> | undefined) ?? {}) };
  delete names["/JavaScript"];

  // Embedded files: PDF/A-3 lists them in /AF with their relationship; PDF/A-2 may embed none
  // (attachments with 2b are refused before a report is queued). Files to embed join the name tree,
  // rewritten as one sorted /Names array (a tree with /Kids is flattened; the keys stay unique).
  const when = `u:${pdfDate(input.now)}`;
  let pairs = namePairs(names["/EmbeddedFiles"], value);
  const relationship = new Map<string, string>();
  for (const e of input.embed ?? []) {
    const file = newRef();
    update[`obj:${file}`] = {
      stream: {
        dict: { "/Type": "/EmbeddedFile", "/Subtype": qpdfJsonName(e.mimeType), "/Params": { "/ModDate": when, "/Size": e.data.length } },
        data: Buffer.from(e.data).toString("base64"),
      },
    };
    const spec = newRef();
    update[`obj:${spec}`] = {
      value: {
        "/Type": "/Filespec",
        "/F": `u:${e.name}`,
        "/UF": `u:${e.name}`,
        "/Desc": `u:${e.description}`,
        "/EF": { "/F": file, "/UF": file },
      },
    };
    relationship.set(spec, qpdfJsonName(e.relationship));
    pairs = [...pairs.filter(([name]) => pdfString(name) !== e.name), [`u:${e.name}`, spec]];
  }
  if (input.embed?.length) {
    pairs.sort(([a], [b]) => ((pdfString(a) ?? "") < (pdfString(b) ?? "") ? -1 : 1));
    names["/EmbeddedFiles"] = { "/Names": pairs.flat() };
  }
  if (namesRef) update[`obj:${namesRef}`] = { value: names };
  else if (Object.keys(names).length) catalog["/Names"] = names;
  else delete catalog["/Names"];

  const files = pairs.map(([, spec]) => spec);
  if (input.level === "3b" && files.length) {
    for (const ref of files) {
      if (relationship.has(ref)) continue;
      const spec = { ...(value(ref) as Record<string, unknown>) };
      const name = spec["/UF"] ?? spec["/F"];
      spec["/AFRelationship"] ??= DEFAULT_AF_RELATIONSHIP;
      if (name !== undefined) {
        spec["/UF"] ??= name;
        spec["/F"] ??= name;
      }
      update[`obj:${ref}`] = { value: spec };
      const ef = spec["/EF"] as Record<string, unknown> | undefined;
      const fileRef = (ef?.["/UF"] ?? ef?.["/F"]) as string | undefined;
      const file = fileRef ? objects[`obj:${fileRef}`] : undefined;
      if (fileRef && file && "stream" in file) {
        const dict = { ...file.stream.dict };
        dict["/Subtype"] ??= "/application/octet-stream";
        const params = { ...((value(dict["/Params"]) as Record<string, unknown> | undefined) ?? {}) };
        params["/ModDate"] ??= when;
        dict["/Params"] = params;
        delete dict["/Length"];
        update[`obj:${fileRef}`] = { stream: { dict } };
      }
    }
    for (const [ref, rel] of relationship) {
      const spec = update[`obj:${ref}`] as { value: Record<string, unknown> };
      spec.value["/AFRelationship"] = rel;
    }
    catalog["/AF"] = files;
  }
  update[`obj:${rootRef}`] = { value: catalog };

  for (const [key, o] of Object.entries(objects)) {
    if (!key.startsWith("obj:") || !("value" in o) || update[key]) continue;
    const v = o.value as Record<string, unknown> | null;
    if (!v || typeof v !== "object" || Array.isArray(v) || v["/Type"] !== "/Annot") continue;
    const flags = typeof v["/F"] === "number" ? (v["/F"] as number) : 0;
    const fixed = (flags | ANNOT_PRINT) & ~ANNOT_FORBIDDEN;
    if (fixed !== flags) update[key] = { value: { ...v, "/F": fixed } };
  }

  return { update: qpdfUpdate(head.maxobjectid, update), info };
}

/** The (key, file specification) pairs of an /EmbeddedFiles name tree (references, as PDF writers make them). */
function namePairs(node: unknown, value: (ref: unknown) => unknown, depth = 0): [unknown, string][] {
  const n = value(node) as Record<string, unknown> | undefined;
  if (!n || depth > 32) return [];
  const out: [unknown, string][] = [];
  const flat = (n["/Names"] as unknown[] | undefined) ?? [];
  for (let i = 1; i < flat.length; i += 2) {
    const spec = flat[i];
    if (typeof spec !== "string") throw new Error("an embedded file's specification is not an indirect object");
    out.push([flat[i - 1], spec]);
  }
  for (const kid of (n["/Kids"] as unknown[] | undefined) ?? []) out.push(...namePairs(kid, value, depth + 1));
  return out;
}

/** The document information to write: the Info dictionary's values, normalised, with dates it lacks. */
function docInfo(old: Record<string, unknown>, input: PdfaInput): DocInfo {
  const text = (k: string) => {
    const s = pdfString(old[k]);
    const clean = s === undefined ? undefined : xmlSafe(s).trim();
    return clean ? clean : undefined;
  };
  const date = (k: string) => {
    const s = pdfString(old[k]);
    return (s && isoDate(s)) || isoDate(pdfDate(input.now))!;
  };
  const merged = !old["/Producer"] && !old["/Creator"];
  return {
    title: text("/Title"),
    author: text("/Author"),
    subject: text("/Subject"),
    keywords: text("/Keywords"),
    creator: text("/Creator") ?? (merged ? input.tool : undefined),
    producer: text("/Producer") ?? (merged ? input.tool : undefined),
    created: date("/CreationDate"),
    modified: date("/ModDate"),
  };
}

/** The Info dictionary of `info`, keeping any other keys it had (e.g. /Trapped). */
function infoDictionary(info: DocInfo, old: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...old };
  const put = (k: string, v: string | undefined) => {
    if (v === undefined) delete out[k];
    else out[k] = `u:${v}`;
  };
  put("/Title", info.title);
  put("/Author", info.author);
  put("/Subject", info.subject);
  put("/Keywords", info.keywords);
  put("/Creator", info.creator);
  put("/Producer", info.producer);
  put("/CreationDate", pdfDateOfIso(info.created));
  put("/ModDate", pdfDateOfIso(info.modified));
  return out;
}

/** A string as qpdf's JSON shows it ("u:" text, "b:" hex bytes: UTF-16BE with a BOM, else PDFDocEncoding ~ Latin-1). */
export function pdfString(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  if (v.startsWith("u:")) return v.slice(2);
  if (!v.startsWith("b:")) return undefined;
  const bytes = Buffer.from(v.slice(2), "hex");
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return Buffer.from(bytes.subarray(2, bytes.length - (bytes.length % 2)))
      .swap16()
      .toString("utf16le");
  return bytes.toString("latin1");
}

/** Characters XML 1.0 cannot carry (controls, lone surrogates) removed: XMP must hold the same text as Info. */
function xmlSafe(s: string): string {
  return s.replace(
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    "",
  );
}

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** "D:20250331120000+02'00'" (PDF date) as "2025-03-31T12:00:00+02:00"; undefined when unreadable. */
export function isoDate(pdf: string): string | undefined {
  const m = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:(Z)|([+-])(\d{2})'?(\d{2})?'?)?/.exec(pdf);
  if (!m) return undefined;
  const [, y, mo = "01", d = "01", h = "00", mi = "00", s = "00", z, sign, oh, om = "00"] = m;
  const offset = sign ? `${sign}${oh}:${om}` : "+00:00";
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${z ? "+00:00" : offset}`;
}

/** The PDF date of an ISO date made by isoDate. */
function pdfDateOfIso(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2}):(\d{2})$/.exec(iso)!;
  return `D:${m[1]}${m[2]}${m[3]}${m[4]}${m[5]}${m[6]}${m[7]}${m[8]}'${m[9]}'`;
}

function pdfDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `D:${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}+00'00'`;
}

/** The XMP packet of a PDF/A document: its identification, the document information and extension schemas. */
export function xmpPacket(level: PdfaLevel, info: DocInfo, extensions: XmpExtension[] = []): string {
  const alt = (s: string) => `<rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(s)}</rdf:li></rdf:Alt>`;
  const el = (name: string, v: string | undefined, wrap = escapeXml) => (v === undefined ? "" : `\n   <${name}>${wrap(v)}</${name}>`);
  const description = (ns: string, body: string) => `  <rdf:Description rdf:about="" ${ns}>${body}\n  </rdf:Description>\n`;
  let rdf =
    description('xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"', el("pdfaid:part", level[0]) + el("pdfaid:conformance", "B")) +
    description(
      'xmlns:dc="http://purl.org/dc/elements/1.1/"',
      el("dc:format", "application/pdf") +
        el("dc:title", info.title, alt) +
        el("dc:creator", info.author, (s) => `<rdf:Seq><rdf:li>${escapeXml(s)}</rdf:li></rdf:Seq>`) +
        el("dc:description", info.subject, alt),
    ) +
    description(
      'xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
      el("xmp:CreateDate", info.created) +
        el("xmp:ModifyDate", info.modified) +
        el("xmp:MetadataDate", info.modified) +
        el("xmp:CreatorTool", info.creator),
    ) +
    description('xmlns:pdf="http://ns.adobe.com/pdf/1.3/"', el("pdf:Producer", info.producer) + el("pdf:Keywords", info.keywords));
  if (extensions.length) {
    const property = (p: XmpProperty) =>
      `\n       <rdf:li rdf:parseType="Resource">` +
      `<pdfaProperty:name>${escapeXml(p.name)}</pdfaProperty:name><pdfaProperty:valueType>${p.valueType}</pdfaProperty:valueType>` +
      `<pdfaProperty:category>${p.category}</pdfaProperty:category><pdfaProperty:description>${escapeXml(p.description)}</pdfaProperty:description></rdf:li>`;
    const schema = (x: XmpExtension) =>
      `\n     <rdf:li rdf:parseType="Resource">\n      <pdfaSchema:schema>${escapeXml(x.schema)}</pdfaSchema:schema>` +
      `\n      <pdfaSchema:namespaceURI>${escapeXml(x.namespaceUri)}</pdfaSchema:namespaceURI>\n      <pdfaSchema:prefix>${x.prefix}</pdfaSchema:prefix>` +
      `\n      <pdfaSchema:property><rdf:Seq>${x.properties.map(property).join("")}\n      </rdf:Seq></pdfaSchema:property>\n     </rdf:li>`;
    rdf += description(
      'xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#"',
      `\n   <pdfaExtension:schemas><rdf:Bag>${extensions.map(schema).join("")}\n   </rdf:Bag></pdfaExtension:schemas>`,
    );
    for (const x of extensions)
      rdf += description(
        `xmlns:${x.prefix}="${escapeXml(x.namespaceUri)}"`,
        x.properties.map((p) => el(`${x.prefix}:${p.name}`, p.value)).join(""),
      );
  }
  return (
    `<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n<x:xmpmeta xmlns:x="adobe:ns:meta/">\n` +
    ` <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n${rdf} </rdf:RDF>\n</x:xmpmeta>\n<?xpacket end="w"?>`
  );
}
