// options.signature: a PAdES signature (B-B, or B-T with a timestamp), always the last step so that
// it covers the bytes as they finally are. The objects it changes are read from the file (objects.ts;
// qpdf shows them when that reader declines), signatureUpdate() makes the
// signature's (placeholder.ts), they are appended as an incremental update (incremental.ts: every byte
// the earlier steps wrote, PDF/A's metadata and Factur-X's file included, stays as it was), and the
// placeholder is filled in place: the offsets around /Contents, then the CMS over everything else
// (cms.ts). A file that does not end with a cross-reference table is rewritten by qpdf instead, which
// keeps every object as well.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { REPORT_FAILURES } from "../../lib/error-codes";
import { RenderError } from "../../lib/errors";
import { lastXrefTable, readForSigning } from "../objects";
import type { SignatureOptions } from "../options";
import type { QpdfObjects } from "../pdfa";
import { contentDigest, signatureCms } from "../signature/cms";
import { findSlot, writeByteRange, writeContents } from "../signature/fill";
import { appendUpdate } from "../signature/incremental";
import { type QpdfPages, type SignatureBox, signatureUpdate } from "../signature/placeholder";
import type { FileStep, StepContext } from "../step";
import { watermarkFont } from "../watermark-font";

export interface SignParams {
  identityId: string;
  reason?: string;
  location?: string;
  contactInfo?: string;
  timestamp: boolean;
  visible?: SignatureBox;
}

/** Room for the CMS beyond its certificates: the signed attributes and a signature of up to 8192-bit RSA. */
const CMS_OVERHEAD = 4096;
/** Room for a timestamp token: its own signature and the TSA's certificates. */
const TOKEN_ROOM = 12_288;

export function signParams(s: SignatureOptions): SignParams {
  return {
    identityId: s.identity_id,
    reason: s.reason,
    location: s.location,
    contactInfo: s.contact_info,
    timestamp: s.timestamp ?? false,
    visible: s.visible,
  };
}

export const sign: FileStep<SignParams> = {
  name: "sign",
  tool: "file",
  plan: ({ options: o }) => (o.signature ? signParams(o.signature) : undefined),
  run: async (p, ctx, input, output) => {
    if (!ctx.signer) throw new Error("this pipeline was made without a signer");
    const identity = await ctx.signer.key(p.identityId);
    if (!identity) throw new RenderError("signing_identity_unavailable", REPORT_FAILURES.signing_identity_unavailable);
    const timestamp = p.timestamp ? ctx.signer.timestamp : undefined;
    if (p.timestamp && !timestamp)
      throw new RenderError(
        "timestamp_unavailable",
        "options.signature.timestamp asks for a timestamp, but the server has no time-stamp authority (--tsa-url)",
      );
    const dir = ctx.dir();
    const original = new Uint8Array(await readFile(input));
    const xrefAt = lastXrefTable(original);
    // The objects read straight from the file when it ends with xref tables; else qpdf shows them.
    const shown =
      (xrefAt !== undefined ? readForSigning(original, xrefAt) : undefined) ??
      (await showObjects(ctx, input, join(dir, "sign-objects.json")));
    const contentsBytes = identity.key.chain.reduce((n, c) => n + c.byteLength, CMS_OVERHEAD) + (timestamp ? TOKEN_ROOM : 0);
    const page = p.visible?.page ?? 1;
    if (page > shown.pages.length)
      throw new RenderError(
        "signature_page_missing",
        `options.signature.visible.page is ${page}, but the document has ${shown.pages.length} page(s)`,
      );
    const update = signatureUpdate(
      shown.qpdf,
      shown.pages,
      {
        name: identity.name,
        reason: p.reason,
        location: p.location,
        contactInfo: p.contactInfo,
        time: new Date(),
        contentsBytes,
        visible: p.visible,
      },
      p.visible ? await watermarkFont() : undefined,
    );
    const trailer = (shown.qpdf[1].trailer as { value: Record<string, never> }).value;
    let pdf = appendUpdate(original, trailer, update.qpdf[1]);
    if (!pdf) {
      const updatePath = join(dir, "sign-update.json");
      await writeFile(updatePath, JSON.stringify(update));
      // Object streams are not written: the placeholder must be found as text.
      await ctx.qpdf(["--warning-exit-0", "--no-warn", "--object-streams=disable", `--update-from-json=${updatePath}`, input, output]);
      pdf = new Uint8Array(await readFile(output));
    }
    const slot = findSlot(pdf, contentsBytes);
    const digest = contentDigest(identity.key, writeByteRange(pdf, slot));
    writeContents(pdf, slot, await signatureCms(identity.key, digest, timestamp));
    await writeFile(output, pdf);
  },
};

/** qpdf's JSON of every object and of the pages. */
async function showObjects(ctx: StepContext, input: string, json: string): Promise<{ qpdf: QpdfObjects; pages: QpdfPages }> {
  await ctx.qpdf(["--json=2", "--json-key=qpdf", "--json-key=pages", input, json]);
  return JSON.parse(await readFile(json, "utf8")) as { qpdf: QpdfObjects; pages: QpdfPages };
}
