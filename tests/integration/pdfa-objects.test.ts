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
import { Rasteriser } from "../../src/pdf/raster-thread";

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
  const logger = createLogger("error");
  const p = new PdfPipeline({
    qpdfPath: "qpdf",
    timeoutMs: 20_000,
    nice: 0,
    workDir: join(work, "post"),
    logger,
    rasteriser: new Rasteriser({ timeoutMs: 20_000, nice: 0, logger }),
  });
  p.init();
  const out = join(work, "pdfa.pdf");
  await p.apply("r1", plan({ pdfa: "2b" }), { input: streams, output: out });
  qpdf(["--check", out]);
  expect(Bun.spawnSync(["pdfinfo", "-meta", out]).stdout.toString()).toContain("<pdfaid:part>2</pdfaid:part>");
});

/** A one-page PDF with a cross-reference table whose Info dictionary holds `info` (PDF syntax). */
function pdfWithInfo(info: string): Uint8Array {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
    info,
  ];
  let out = "%PDF-1.7\n";
  const offsets = objects.map((o, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, "latin1"));
}

test("names with #xx escapes: read as qpdf shows them, and qpdf takes that form back unchanged", () => {
  // Keys and values: a media type, white space, UTF-8 text, every delimiter, a '#', and names that
  // look like qpdf's "n:" and "b:" forms.
  const names = [
    "text#2fcsv",
    "A#20B",
    "caf#c3#a9",
    "#f0#9f#a5#94",
    "a#23b",
    "#2f",
    "a#0ab",
    "x#25y#28z#29#3c#3e#5b#5d#7b#7d",
    "n:x",
    "b:ab",
  ];
  const info = `<< ${names.map((n, i) => `/K${i}#2f${n} /${n}`).join(" ")} >>`;
  const file = join(work, "names.pdf");
  const bytes = pdfWithInfo(info);
  writeFileSync(file, bytes);
  const mine = readForPdfa(bytes, lastXrefTable(bytes)!)![1]["obj:4 0 R"] as { value: Record<string, string> };
  const shown = (JSON.parse(qpdf(["--json=2", "--json-key=qpdf", file, "-"])) as { qpdf: QpdfObjects }).qpdf[1];
  expect(mine.value).toEqual((shown["obj:4 0 R"] as { value: Record<string, string> }).value);
  expect(mine.value["/K0/text/csv"]).toBe("/text/csv");
  // qpdf 11.3 writes a '#' in a name as it is (a name it then reads differently), so the round trip
  // leaves out the one name that holds a '#'.
  const value = Object.fromEntries(Object.entries(mine.value).filter(([k]) => !k.includes("#")));
  const update = join(work, "names-update.json");
  const header = { jsonversion: 2, pushedinheritedpageresources: false, calledgetallpages: false, maxobjectid: 4 };
  writeFileSync(update, JSON.stringify({ qpdf: [header, { "obj:4 0 R": { value } }] }));
  const out = join(work, "names-updated.pdf");
  qpdf([`--update-from-json=${update}`, file, out]);
  qpdf(["--check", out]);
  const back = (JSON.parse(qpdf(["--json=2", "--json-key=qpdf", out, "-"])) as { qpdf: QpdfObjects }).qpdf[1];
  const info2 = Object.values(back).find((o) => "value" in o && (o.value as Record<string, unknown>)["/K0/text/csv"]);
  expect((info2 as { value: unknown }).value).toEqual(value);
});
