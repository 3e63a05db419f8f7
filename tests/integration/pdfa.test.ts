// options.pdfa on real PDFs (Chromium, qpdf), checked with independent tools: pdfinfo -meta (the XMP),
// pdfinfo (the Info dictionary it must agree with), pdffonts (every font embedded), qpdf --check (the
// file's structure) and qpdf --json (output intent, ICC profile, trailer /ID, no JavaScript, launch
// action or encryption, /AF). No full PDF/A validator (veraPDF) can be installed on this machine.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate, pdfInfo, type TestApp, useRenderApp, waitForReport } from "../helpers/app";
import { pdfFonts } from "../helpers/pdf";

setDefaultTimeout(60_000);

let t: TestApp;
useRenderApp((a) => (t = a));

function tool(pdf: Uint8Array, cmd: (file: string) => string[]) {
  const file = join(tmpdir(), `rg-pdfa-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  try {
    const p = Bun.spawnSync(cmd(file));
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  } finally {
    rmSync(file, { force: true });
  }
}

type Objects = Record<string, { value?: Record<string, unknown>; stream?: { dict: Record<string, unknown> } }>;

/** The XMP element's text (first rdf:li for Alt/Seq), or undefined. */
function xmpValue(xmp: string, name: string): string | undefined {
  const m = new RegExp(`<${name}>(?:<rdf:(?:Alt|Seq)><rdf:li[^>]*>)?([^<]*)<`).exec(xmp);
  return m?.[1]
    ?.replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/** "Thu Nov 26 23:45:43 2026 UTC" (pdfinfo) and "2026-11-26T23:45:43+00:00" (XMP) as the same instant. */
const sameInstant = (pdfinfoDate: string, iso: string) => new Date(pdfinfoDate.replace(" UTC", "Z")).getTime() === new Date(iso).getTime();

/** Every PDF/A point this machine's tools can check; returns the XMP and the objects for more. */
async function expectPdfa(pdf: Uint8Array, part: 2 | 3) {
  const xmp = tool(pdf, (f) => ["pdfinfo", "-meta", f]).out;
  expect(xmpValue(xmp, "pdfaid:part")).toBe(String(part));
  expect(xmpValue(xmp, "pdfaid:conformance")).toBe("B");
  const info = await pdfInfo(pdf);
  // Info and XMP agree (pdfinfo prints what Info holds).
  expect(xmpValue(xmp, "dc:title")).toBe(info.Title);
  expect(xmpValue(xmp, "pdf:Producer")).toBe(info.Producer);
  expect(xmpValue(xmp, "xmp:CreatorTool")).toBe(info.Creator);
  expect(xmpValue(xmp, "dc:creator")).toBe(info.Author);
  expect(xmpValue(xmp, "dc:description")).toBe(info.Subject);
  expect(xmpValue(xmp, "pdf:Keywords")).toBe(info.Keywords);
  expect(sameInstant(info.CreationDate!, xmpValue(xmp, "xmp:CreateDate")!)).toBe(true);
  expect(sameInstant(info.ModDate!, xmpValue(xmp, "xmp:ModifyDate")!)).toBe(true);
  expect(info.Encrypted).toStartWith("no");
  expect(info.JavaScript).toBe("no");
  const fonts = pdfFonts(pdf);
  expect(fonts.length).toBeGreaterThan(0);
  for (const f of fonts) expect({ font: f.name, embedded: f.embedded }).toEqual({ font: f.name, embedded: true });
  const check = tool(pdf, (f) => ["qpdf", "--check", f]);
  expect(check.code).toBe(0);
  expect(check.out).toContain("No syntax or stream encoding errors");
  const json = tool(pdf, (f) => ["qpdf", "--json=2", "--json-key=qpdf", f]).out;
  const objects = (JSON.parse(json) as { qpdf: [unknown, Objects] }).qpdf[1];
  const get = (ref: unknown) => objects[`obj:${ref}`];
  const trailer = objects.trailer!.value!;
  expect(trailer["/ID"]).toBeArrayOfSize(2);
  expect(trailer["/Encrypt"]).toBeUndefined();
  const catalog = get(trailer["/Root"])!.value!;
  expect(catalog["/OpenAction"]).toBeUndefined();
  expect(catalog["/AA"]).toBeUndefined();
  const intents = catalog["/OutputIntents"] as string[];
  expect(intents).toHaveLength(1);
  const intent = get(intents[0])!.value!;
  expect(intent["/S"]).toBe("/GTS_PDFA1");
  const profile = get(intent["/DestOutputProfile"])!.stream!.dict;
  expect(profile["/N"]).toBe(3);
  const metadata = get(catalog["/Metadata"])!.stream!.dict;
  expect(metadata).toMatchObject({ "/Type": "/Metadata", "/Subtype": "/XML" });
  expect(metadata["/Filter"]).toBeUndefined();
  expect(json).not.toContain("/JavaScript");
  expect(json).not.toContain("/Launch");
  return { xmp, objects, catalog, info };
}

const page = (title: string, body = "") =>
  `<title>${title}</title><style>body{font-family:'Liberation Serif'}</style><h1>${title}</h1><h2>Section</h2><p>Ä ö € — “quoted” ${body}</p>`;

async function raw(html: string, options: Record<string, unknown>) {
  const r = await generate(t, { engine: "raw", html_template: html, options });
  expect(r.report.error).toBeNull();
  expect(r.report.status).toBe("succeeded");
  return r as typeof r & { pdf: Uint8Array };
}

describe("options.pdfa", () => {
  test("2b: XMP identifies PDF/A-2B and agrees with Info; sRGB output intent, /ID, fonts embedded; the report says pdfa 2b", async () => {
    const { pdf, report } = await raw(page("Invoice <42> & “more”"), {
      pdfa: "2b",
      metadata: { author: "Muster GmbH", subject: "March invoice", keywords: ["invoice", "march"] },
    });
    const { info } = await expectPdfa(pdf, 2);
    expect(info.Title).toBe("Invoice <42> & “more”");
    expect(info.Author).toBe("Muster GmbH");
    expect((report as { pdfa?: string }).pdfa).toBe("2b");
    // Appended as an incremental update (no qpdf rewrite): Chromium's bytes, then one update section.
    const text = Buffer.from(pdf).toString("latin1");
    expect(text.match(/%%EOF/g)).toHaveLength(2);
    expect(text.slice(text.lastIndexOf("trailer"))).toMatch(/\/Prev \d+/);
  });

  test("3b with tagged, outline, a watermark (drawn in an embedded font) and an attachment listed in /AF", async () => {
    const { pdf } = await raw(page("Archived statement", "<a href='https://example.com/'>link</a>"), {
      pdfa: "3b",
      tagged: true,
      outline: true,
      watermark: { text: "COPY – “archived”" },
      attachments: [{ filename: "data.csv", content_base64: Buffer.from("a,b\n1,2\n").toString("base64") }],
    });
    const { catalog, objects, info } = await expectPdfa(pdf, 3);
    expect(info.Tagged).toBe("yes");
    expect(catalog["/Outlines"]).toBeDefined();
    expect(tool(pdf, (f) => ["pdftotext", "-f", "1", "-l", "1", f, "-"]).out).toContain("COPY – “archived”");
    expect(pdfFonts(pdf).some((f) => f.name.endsWith("LiberationSans-Bold"))).toBe(true);
    expect(tool(pdf, (f) => ["pdfdetach", "-list", f]).out).toContain("data.csv");
    const af = catalog["/AF"] as string[];
    expect(af).toHaveLength(1);
    const spec = objects[`obj:${af[0]}`]!.value!;
    expect(spec).toMatchObject({ "/AFRelationship": "/Unspecified", "/UF": "u:data.csv" });
    const file = objects[`obj:${(spec["/EF"] as Record<string, string>)["/F"]}`]!.stream!.dict;
    expect(file["/Subtype"]).toBe("/application/octet-stream");
    expect((file["/Params"] as Record<string, unknown>)["/ModDate"]).toBeDefined();
  });

  test("a merge with pdfa is a conforming file; the merged report says pdfa", async () => {
    const a = await raw(page("Part A"), {});
    const b = await raw(page("Part B"), {});
    const res = await t.request("POST", "/api/v1/reports/merge", {
      body: { report_ids: [a.report.report_id, b.report.report_id], options: { pdfa: "2b" } },
    });
    expect(res.status).toBe(202);
    const { report_id } = (await res.json()) as { report_id: string };
    const report = await waitForReport(t, report_id, 30_000);
    expect(report.status).toBe("succeeded");
    expect((report as { pdfa?: string }).pdfa).toBe("2b");
    const dl = (await (await t.request("GET", `/api/v1/reports/${report_id}/download`)).json()) as { data: string };
    const pdf = new Uint8Array(await (await t.app.http!.handle(new Request(dl.data))).arrayBuffer());
    const { catalog, info } = await expectPdfa(pdf, 2);
    expect(info.Pages).toBe("2");
    expect(info.Producer).toBe("reportgen");
    expect(catalog["/Outlines"]).toBeDefined();
  });

  test("a report without pdfa shows pdfa null", async () => {
    const { report } = await raw(page("Plain"), {});
    expect((report as { pdfa?: string | null }).pdfa).toBeNull();
  });
});
