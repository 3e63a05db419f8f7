// options.e_invoice: the checked CII XML embedded as factur-x.xml (Factur-X 1.0 / ZUGFeRD 2.x), in
// the qpdf run of the other attachments. The pdfa step then makes the file PDF/A-3b, gives the file
// specification its /AFRelationship, lists it in /AF and adds the fx: XMP extension schema.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type FacturXMetadata, facturXMetadata } from "../../einvoice/facturx";
import type { StoredEInvoice } from "../options";
import type { QpdfStep } from "../step";

export interface FacturXParams {
  xml: Uint8Array;
  meta: FacturXMetadata;
}

export const facturx: QpdfStep<FacturXParams, string> = {
  name: "facturx",
  tool: "qpdf",
  plan: ({ options: o }) => (o.e_invoice ? facturXParams(o.e_invoice) : undefined),
  prepare: async (p, ctx) => {
    const path = join(ctx.dir(), "factur-x.xml");
    await writeFile(path, p.xml);
    return path;
  },
  job: (p, path) => ({
    addAttachment: [
      {
        file: path,
        key: p.meta.documentFileName,
        filename: p.meta.documentFileName,
        mimetype: p.meta.mimeType,
        description: p.meta.description,
      },
    ],
  }),
};

export function facturXParams(e: StoredEInvoice): FacturXParams {
  return { xml: Buffer.from(e.xml_base64, "base64"), meta: facturXMetadata(e.profile) };
}
