// The PDF/A step reads the objects it changes straight from a file that ends with cross-reference tables
// (src/pdf/objects.ts, readForPdfa), instead of a qpdf run that shows them. Here: on a real
// Chromium-printed PDF with an attachment, the update it computes touches the same objects with the same
// keys as the one computed from qpdf's JSON; and a file with a cross-reference stream still becomes
// PDF/A through qpdf's JSON.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../../src/lib/logger";
import { lastXrefTable, readForPdfa } from "../../src/pdf/objects";
import { pdfaUpdate, type QpdfObjects } from "../../src/pdf/pdfa";
import { PdfPipeline } from "../../src/pdf/pipeline";
import { plan } from "../../src/pdf/plan";

const work = mkdtempSync(join(tmpdir(), "rg-pdfa-objects-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const statement = join(import.meta.dir, "..", "..", "docs", "examples", "statement.pdf");
const qpdf = (args: string[]) => {
  const p = Bun.spawnSync(["qpdf", ...args]);
  expect(p.exitCode).toBe(0);
  return p.stdout.toString();
};

test("read from the file or shown by qpdf: the same objects updated, with the same keys", () => {
  const csv = join(work, "annex.csv");
  writeFileSync(csv, "a,b\n1,2\n");
  const withFile = join(work, "with-file.pdf");
  qpdf([statement, "--add-attachment", csv, "--", withFile]);
  const bytes = new Uint8Array(readFileSync(withFile));
  const mine = readForPdfa(bytes, lastXrefTable(bytes)!)!;
  expect(mine).toBeDefined();
  const theirs = (JSON.parse(qpdf(["--json=2", "--json-key=qpdf", withFile, "-"])) as { qpdf: QpdfObjects }).qpdf;
  const input = { level: "3b" as const, icc: new Uint8Array(8), now: new Date(Date.UTC(2026, 10, 27)), tool: "reportgen" };
  const a = (pdfaUpdate(mine, input).update as { qpdf: [unknown, Record<string, { value?: object; stream?: { dict: object } }>] }).qpdf[1];
  const b = (pdfaUpdate(theirs, input).update as { qpdf: [unknown, Record<string, { value?: object; stream?: { dict: object } }>] })
    .qpdf[1];
  expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
  const keysOf = (o: { value?: object; stream?: { dict: object } }) => Object.keys(o.value ?? o.stream?.dict ?? {}).sort();
  for (const k of Object.keys(b)) expect([k, keysOf(a[k]!)]).toEqual([k, keysOf(b[k]!)]);
  // The attachment's stream was read as a stream: its update gives it a /Subtype and /Params.
  expect(Object.values(a).some((o) => o.stream && "/Params" in o.stream.dict)).toBe(true);
});

test("a file with a cross-reference stream: qpdf shows the objects, and the result is PDF/A", async () => {
  const streams = join(work, "xref-stream.pdf");
  qpdf(["--object-streams=generate", statement, streams]);
  expect(lastXrefTable(readFileSync(streams))).toBeUndefined();
  const p = new PdfPipeline({ qpdfPath: "qpdf", timeoutMs: 20_000, nice: 0, workDir: join(work, "post"), logger: createLogger("error") });
  p.init();
  const out = join(work, "pdfa.pdf");
  await p.apply("r1", plan({ pdfa: "2b" }), { input: streams, output: out });
  qpdf(["--check", out]);
  expect(Bun.spawnSync(["pdfinfo", "-meta", out]).stdout.toString()).toContain("<pdfaid:part>2</pdfaid:part>");
});
