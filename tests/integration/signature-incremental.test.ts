// The sign step on its own (the PDF pipeline with a real key, real qpdf, checked by pdfsig): a file
// ending with a cross-reference table is signed by an incremental update (its bytes are a prefix of the
// signed file); one with a cross-reference stream (object streams) is rewritten by qpdf and still
// signed; a visible signature on a page the file does not have fails the report, naming it.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RenderError } from "../../src/lib/errors";
import { createLogger } from "../../src/lib/logger";
import { lastXrefTable, readForSigning } from "../../src/pdf/objects";
import { PdfPipeline } from "../../src/pdf/pipeline";
import { plan } from "../../src/pdf/plan";
import { Rasteriser } from "../../src/pdf/raster-thread";
import { signingKey } from "../../src/pdf/signature/cms";
import { pdfSyntax } from "../../src/pdf/signature/incremental";
import { readPkcs12 } from "../../src/pdf/signature/pkcs12";
import { makePki, P12_PASSWORD } from "../helpers/signing";

const work = mkdtempSync(join(tmpdir(), "rg-sign-incr-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const pki = makePki(join(work, "pki"));
const example = join(import.meta.dir, "..", "..", "docs", "examples", "invoice-facturx.pdf");

async function pipeline() {
  const m = await readPkcs12(new Uint8Array(Buffer.from(pki.selfSigned, "base64")), P12_PASSWORD);
  const key = await signingKey(m.keyPkcs8, m.chain);
  const p = new PdfPipeline({
    qpdfPath: "qpdf",
    timeoutMs: 20_000,
    nice: 0,
    workDir: join(work, "post"),
    logger: createLogger("error"),
    rasteriser: new Rasteriser({ timeoutMs: 20_000, nice: 0, logger: createLogger("error") }),
    signer: { key: async () => ({ key, name: "Muster GmbH Signer" }) },
  });
  p.init();
  return p;
}
const pdfsig = (file: string) => Bun.spawnSync(["pdfsig", file]).stdout.toString();

test("a file ending with an xref table: signed by an incremental update, its bytes untouched", async () => {
  const original = readFileSync(example);
  expect(lastXrefTable(original)).toBeGreaterThan(0);
  const out = join(work, "incremental.pdf");
  await (await pipeline()).apply("r1", plan({ signature: { identity_id: "i" } }), { input: example, output: out });
  const signed = readFileSync(out);
  expect(signed.subarray(0, original.length).equals(original)).toBe(true);
  expect(pdfsig(out)).toContain("Signature is Valid.");
  expect(Bun.spawnSync(["qpdf", "--check", out]).exitCode).toBe(0);
});

test("the objects read without qpdf are qpdf's; signed, the catalog and the page are the same but for AcroForm and Annots", async () => {
  const original = readFileSync(example);
  const qpdfJson = (file: string) =>
    JSON.parse(Bun.spawnSync(["qpdf", "--json=2", "--json-key=qpdf", "--json-key=pages", file]).stdout.toString()) as {
      qpdf: [unknown, Record<string, { value: Record<string, unknown> }>];
      pages: { object: string }[];
    };
  const theirs = qpdfJson(example);
  const mine = readForSigning(original, lastXrefTable(original)!)!;
  expect(mine.pages.map((p) => p.object)).toEqual(theirs.pages.map((p) => p.object));
  const root = theirs.qpdf[1].trailer!.value["/Root"] as string;
  expect(Object.keys(mine.qpdf[1][`obj:${root}`]!).length).toBe(1);
  expect(Object.keys((mine.qpdf[1][`obj:${root}`] as { value: object }).value).sort()).toEqual(
    Object.keys(theirs.qpdf[1][`obj:${root}`]!.value).sort(),
  );
  const out = join(work, "compare.pdf");
  await (await pipeline()).apply("r4", plan({ signature: { identity_id: "i" } }), { input: example, output: out });
  const signed = qpdfJson(out);
  const without = (v: Record<string, unknown>, k: string) => Object.fromEntries(Object.entries(v).filter(([key]) => key !== k));
  expect(without(signed.qpdf[1][`obj:${root}`]!.value, "/AcroForm")).toEqual(theirs.qpdf[1][`obj:${root}`]!.value);
  const page = theirs.pages[0]!.object;
  expect(without(signed.qpdf[1][`obj:${page}`]!.value, "/Annots")).toEqual(without(theirs.qpdf[1][`obj:${page}`]!.value, "/Annots"));
  expect(signed.qpdf[1][`obj:${root}`]!.value["/AcroForm"]).toMatchObject({ "/SigFlags": 3 });
});

test("a file with a cross-reference stream: qpdf rewrites it, and the signature is valid", async () => {
  const streams = join(work, "xref-stream.pdf");
  expect(Bun.spawnSync(["qpdf", "--object-streams=generate", example, streams]).exitCode).toBe(0);
  expect(lastXrefTable(readFileSync(streams))).toBeUndefined();
  const out = join(work, "rewritten.pdf");
  await (await pipeline()).apply("r2", plan({ signature: { identity_id: "i" } }), { input: streams, output: out });
  expect(pdfsig(out)).toContain("Signature is Valid.");
});

test("a visible signature past the last page fails with signature_page_missing", async () => {
  const p = await pipeline();
  const run = p.apply("r3", plan({ signature: { identity_id: "i", visible: { page: 3, x: 10, y: 10, width: 100, height: 30 } } }), {
    input: example,
    output: join(work, "none.pdf"),
  });
  await expect(run).rejects.toBeInstanceOf(RenderError);
  await expect(run).rejects.toMatchObject({ code: "signature_page_missing" });
});

test("qpdf's JSON written back as PDF syntax: names, text, binary strings, references, numbers", () => {
  expect(
    pdfSyntax({ "/Type": "/Sig", "/A B": "/x#y", "/R": "12 0 R", "/N": 1.5, "/T": "u:Sig (1)", "/U": "u:Zürich", "/H": "b:00ff" }),
  ).toBe("<</Type /Sig /A#20B /x#23y /R 12 0 R /N 1.5 /T (Sig \\(1\\)) /U <FEFF005A00FC0072006900630068> /H <00ff>>>");
  expect(pdfSyntax([true, null, [0, 9_999_999_999]])).toBe("[true null [0 9999999999]]");
});
