// options.pdfa: the PDF made PDF/A-2b or PDF/A-3b (pdfa.ts says what that adds). The objects it
// changes are read (from the file itself, or qpdf's JSON) and pdfaUpdate() computes the change. The
// change is appended to the file as an incremental update, which PDF/A allows (ISO 19005-2, 6.1.3), in
// process: a qpdf run to rewrite the file cost ~9 ms of CPU per report, a third of a plain invoice's.
// qpdf writes it instead when the file does not end with a cross-reference table, or when the update
// changes a stream's dictionary but keeps its data (an attachment added before), which only qpdf holds.
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { facturXMetadata } from "../../einvoice/facturx";
import srgbPath from "../icc/sRGB.icc" with { type: "file" };
import { lastXrefTable, readForPdfa } from "../objects";
import type { PdfaLevel } from "../options";
import { type NewEmbeddedFile, pdfaUpdate, type QpdfObject, type QpdfObjects, type XmpExtension } from "../pdfa";
import type { QpdfUpdate } from "../qpdf-layout";
import { appendUpdate } from "../signature/incremental";
import type { FileStep, StepContext } from "../step";

export interface PdfaParams {
  level: PdfaLevel;
  extensions?: XmpExtension[];
  /** Files the step embeds itself (Factur-X's XML), in its one write. */
  embed?: NewEmbeddedFile[];
}

/** Producer and creator of a merged PDF (qpdf's join of the parts has no document information). */
const TOOL = "reportgen";

let icc: Promise<Uint8Array> | undefined;
/** The embedded sRGB profile (src/pdf/icc/README.md), read once from the executable. */
export const srgbProfile = () => (icc ??= Bun.file(srgbPath).bytes());

/** qpdf's JSON of every object (no stream data). */
async function shownByQpdf(ctx: StepContext, input: string, json: string): Promise<QpdfObjects> {
  await ctx.qpdf(["--json=2", "--json-key=qpdf", input, json]);
  return (JSON.parse(await readFile(json, "utf8")) as { qpdf: QpdfObjects }).qpdf;
}

export const pdfa: FileStep<PdfaParams> = {
  name: "pdfa",
  tool: "file",
  plan: ({ options: o }) => {
    const inv = o.e_invoice;
    if (!inv || inv.embed === false) return o.pdfa ? { level: o.pdfa } : undefined;
    const data = Buffer.from(inv.xml_base64, "base64");
    // A UBL invoice (Peppol, plain UBL) is attached as the invoice in another form, with no Factur-X schema.
    if (!inv.profile)
      return {
        level: "3b",
        embed: [
          {
            name: inv.file_name ?? "invoice.xml",
            data,
            mimeType: "text/xml",
            description: `E-invoice (${inv.format ?? "ubl"})`,
            relationship: "Alternative",
          },
        ],
      };
    // A Factur-X invoice is PDF/A-3b with the XML embedded as factur-x.xml (xrechnung.xml for ZUGFeRD's
    // XRECHNUNG profile) and the fx: extension schema (Factur-X 1.0, section 6.2). Embedding it here,
    // rather than in a qpdf run of its own before, saves a qpdf process (~9 ms of CPU, most of it the
    // tool's start) per invoice.
    const meta = facturXMetadata(inv.profile);
    const property = (name: string, description: string, value: string) =>
      ({ name, valueType: "Text", category: "external", description, value }) as const;
    return {
      level: "3b",
      embed: [
        {
          name: meta.documentFileName,
          data,
          mimeType: meta.mimeType,
          description: meta.description,
          relationship: meta.afRelationship,
        },
      ],
      extensions: [
        {
          schema: "Factur-X PDFA Extension Schema",
          namespaceUri: meta.namespaceUri,
          prefix: meta.prefix,
          properties: [
            property("DocumentFileName", "The name of the embedded XML document", meta.documentFileName),
            property("DocumentType", "The type of the hybrid document in capital letters, e.g. INVOICE or ORDER", meta.documentType),
            property("Version", "The actual version of the standard applying to the embedded XML document", meta.version),
            property("ConformanceLevel", "The conformance level of the embedded XML document", meta.conformanceLevel),
          ],
        },
      ],
    };
  },
  run: async (p, ctx, input, output) => {
    const dir = ctx.dir();
    // The objects read straight from the file when it ends with cross-reference tables (what Chromium
    // and qpdf write); else qpdf shows them.
    const bytes = new Uint8Array(await readFile(input));
    const xrefAt = lastXrefTable(bytes);
    const objects =
      (xrefAt !== undefined ? readForPdfa(bytes, xrefAt) : undefined) ?? (await shownByQpdf(ctx, input, join(dir, "pdfa-objects.json")));
    const { update } = pdfaUpdate(objects, {
      level: p.level,
      icc: await srgbProfile(),
      now: new Date(),
      tool: TOOL,
      extensions: p.extensions,
      embed: p.embed,
    });
    const appended = xrefAt !== undefined ? appendPdfa(bytes, objects, update) : undefined;
    if (appended) {
      await writeFile(output, appended);
      return undefined;
    }
    const updatePath = join(dir, "pdfa-update.json");
    await writeFile(updatePath, JSON.stringify(update));
    // Paths are ours (the work folder): nothing in them reads as an option.
    await ctx.qpdf(["--warning-exit-0", "--no-warn", `--update-from-json=${updatePath}`, input, output]);
    return undefined;
  },
};

/** Streams this big or bigger are compressed when appended (qpdf compressed them on its write). */
const COMPRESS_FROM = 512;

/**
 * The update appended to `pdf` as an incremental update, or undefined when it changes a stream without
 * giving its data (qpdf keeps the old data; the file's own bytes are not parsed here). The trailer keeps
 * the file's /ID, or gets one: PDF/A requires it, and Chromium writes none.
 */
function appendPdfa(pdf: Uint8Array, objects: QpdfObjects, update: QpdfUpdate<QpdfObject>): Uint8Array | undefined {
  const entries = update.qpdf[1];
  const appended: Record<string, QpdfObject> = {};
  for (const [key, o] of Object.entries(entries)) {
    if (!key.startsWith("obj:")) continue;
    if ("value" in o) {
      appended[key] = o;
      continue;
    }
    if (o.stream.data === undefined) return undefined;
    const dict = o.stream.dict;
    // The XMP stays uncompressed, readable by tools that look for the packet as text.
    if (o.stream.data.length < COMPRESS_FROM || "/Filter" in dict || dict["/Type"] === "/Metadata") {
      appended[key] = o;
      continue;
    }
    const data = deflateSync(Buffer.from(o.stream.data, "base64")).toString("base64");
    appended[key] = { stream: { dict: { ...dict, "/Filter": "/FlateDecode" }, data } };
  }
  const trailer = { ...((entries.trailer ?? objects[1].trailer) as { value: Record<string, never> }).value };
  if (!("/ID" in trailer)) {
    const id = `b:${randomBytes(16).toString("hex")}`;
    (trailer as Record<string, unknown>)["/ID"] = [id, id];
  }
  return appendUpdate(pdf, trailer, appended);
}
